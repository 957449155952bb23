"""Fake chat models that answer any team offline, one per agent.

`FakeBoard.model_for` is the seam `build_graph(model_for=...)` takes: every agent gets its
own `FakeChatModel`, so parallel branches stay deterministic. Every call is recorded
(agent, task, messages, bound tools) for the tests to inspect.

A call answers from the agent's (or the task's) script when there is one; otherwise:
1. `ask_*` tools bound and not called yet in this conversation: call them all;
2. a structured-output tool bound (create_agent's ToolStrategy forces a tool call):
   call it with arguments built from its JSON schema (enums respected);
3. else a line of text naming the agent and its task.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import re
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common_helpers import sample as sample
from common_project import team
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

from envelope_runtime.connections import mcp_tool_name

ASK_PREFIX = "ask_"
HTTP_TOOL = "http_request"
WORKSPACE_TOOL = re.compile(r"^(list|read|write)_\w+_rows?$")
CONNECTION_TOOLS = frozenset(
    operation.tool
    for connection in getattr(team, "CONNECTIONS", {}).values()
    for operation in connection.operations
)
"""The connection packs' OpenAPI tools (--connections), which no test calls unscripted."""
MCP_PREFIXES = tuple(
    mcp_tool_name(server, "", set()) for server in getattr(team, "MCP_SERVERS", {}).values()
)
"""What the names of the packs' MCP tools (`<provider>_<tool>`) begin with, whatever tools the
server lists: no test calls them unscripted either, nor takes one for the structured output."""


def is_own_tool(name: str) -> bool:
    """An agent's own tool (a report's ask tool, HTTP, a connection pack's, a workspace
    document's), not the structured-output tool create_agent binds."""
    return (
        name.startswith(ASK_PREFIX)
        or name == HTTP_TOOL
        or name in CONNECTION_TOOLS
        or name.startswith(MCP_PREFIXES)
        or bool(WORKSPACE_TOOL.match(name))
    )


TASK_KEY = "envelope_task"
"""Run metadata the nodes set on every agent invocation: which task a call belongs to."""


def message_text(message: BaseMessage) -> str:
    return message.text if isinstance(message.content, list) else str(message.content)


@dataclass
class Call:
    """One model call: whose, for which task, what the model saw and could call."""

    agent_key: str
    task: str | None
    messages: list[BaseMessage]
    tools: dict[str, dict[str, Any]]
    """Bound tool name -> its parameters' JSON schema."""
    tool_choice: Any = None
    reply: AIMessage | None = None
    """What the fake answered (None while the call is in flight)."""
    ended: float = 0.0

    @property
    def system(self) -> str | None:
        """The system prompt, None when the conversation has none."""
        first = self.messages[0] if self.messages else None
        return message_text(first) if first is not None and first.type == "system" else None

    @property
    def human(self) -> str:
        """The task the agent was given (its first user message)."""
        return next(message_text(m) for m in self.messages if m.type == "human")

    def tool_results(self) -> list[ToolMessage]:
        return [m for m in self.messages if isinstance(m, ToolMessage)]

    def called_tools(self) -> set[str]:
        """Tools this conversation called already."""
        return {
            call["name"]
            for message in self.messages
            if isinstance(message, AIMessage)
            for call in message.tool_calls
        }

    def structured_tool(self) -> str | None:
        """The structured-output tool create_agent bound (ToolStrategy), if any."""
        others = [n for n in self.tools if not is_own_tool(n)]
        return others[0] if others else None

    def to_json(self) -> dict[str, Any]:
        return {
            "agent_key": self.agent_key,
            "task": self.task,
            "tools": sorted(self.tools),
            "messages": [{"type": m.type, "content": message_text(m)} for m in self.messages],
        }


Answer = AIMessage | str
Reply = Answer | Callable[[Call], "Answer | Awaitable[Answer]"]
"""A reply; a callable one may be async (awaited in the event loop, as the call itself is)."""


def tool_call(name: str, **arguments: Any) -> AIMessage:
    """A reply calling one tool."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": arguments, "id": _id(name)}])


def structured(data: Mapping[str, Any]) -> Callable[[Call], AIMessage]:
    """A reply answering the bound structured-output tool with `data`."""

    def reply(call: Call) -> AIMessage:
        name = call.structured_tool()
        assert name is not None, f"{call.agent_key} has no structured-output tool bound"
        return tool_call(name, **data)

    return reply


_ids = 0


def _id(name: str) -> str:
    global _ids
    _ids += 1
    return f"call_{name}_{_ids}"


class FakeBoard:
    """Scripts and the record of every call, shared by the fakes of one test."""

    def __init__(self, list_length: int = 2, log_path: str | None = None) -> None:
        self.list_length = list_length
        """Items in every synthesized list (e.g. the records a gate reviews)."""
        self.hold: threading.Event | None = None
        """When given, every call waits until it is set (at most a minute): a call under way
        for as long as the test wants, whatever the machine's speed (as tests/crewai's)."""
        self.arrived = threading.Event()
        """Set when a call begins to wait for `hold`."""
        self.log_path = log_path
        """When set, every call is also appended to this file as a JSON line."""
        self.scripts: dict[str, list[Reply]] = {}
        self.calls: list[Call] = []

    def script(self, agent_key: str, *replies: Reply) -> None:
        """Replies, in order, for an agent's calls."""
        self.scripts.setdefault(f"agent:{agent_key}", []).extend(replies)

    def script_task(self, task: str, *replies: Reply) -> None:
        """Replies, in order, for the calls of a task (a step key, "team", "ask:<agent>")."""
        self.scripts.setdefault(f"task:{task}", []).extend(replies)

    def calls_of(self, agent_key: str) -> list[Call]:
        return [call for call in self.calls if call.agent_key == agent_key]

    def calls_for_task(self, task: str) -> list[Call]:
        return [call for call in self.calls if call.task == task]

    def model_for(self, agent_key: str) -> FakeChatModel:
        return FakeChatModel(agent_key=agent_key, board=self)

    def reply(self, call: Call) -> Answer | Awaitable[Answer]:
        """What the call's script (else the generic reply) answers it."""
        reply: Reply | None = None
        for queue in (f"task:{call.task}", f"agent:{call.agent_key}"):
            if self.scripts.get(queue):
                reply = self.scripts[queue].pop(0)
                break
        if reply is None:
            reply = self.generic_reply
        return reply(call) if callable(reply) else reply

    def answered(self, call: Call, answer: Answer) -> AIMessage:
        """The call's reply, recorded as it ends."""
        call.reply = AIMessage(content=answer) if isinstance(answer, str) else answer
        call.ended = time.monotonic()
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(call.to_json()) + "\n")
        return call.reply

    def answer(self, call: Call) -> AIMessage:
        """The reply to a call (recorded when it started) made outside an event loop."""
        answer = self.reply(call)
        assert not inspect.isawaitable(answer), "an async reply answers async calls only"
        return self.answered(call, answer)

    async def held(self) -> None:
        """Wait for `hold`, if given, in the event loop: a timeout or the run's deadline
        cancels the wait as it would a request."""
        if self.hold is None:
            return
        self.arrived.set()
        for _ in range(6000):  # a minute, then the call goes on: a broken test does not hang
            if self.hold.is_set():
                return
            await asyncio.sleep(0.01)

    def generic_reply(self, call: Call) -> AIMessage:
        uncalled = [n for n in call.tools if n.startswith(ASK_PREFIX)]
        uncalled = [n for n in uncalled if n not in call.called_tools()]
        if uncalled:
            calls = [
                {"name": n, "args": {"task": f"{call.agent_key} asks: {call.human}"}, "id": _id(n)}
                for n in uncalled
            ]
            return AIMessage(content="", tool_calls=calls)
        name = call.structured_tool()
        if name is not None:
            return tool_call(name, **sample(call.tools[name], self.list_length))
        return AIMessage(content=f"{call.agent_key} has done the task {call.task}.")


class FakeChatModel(BaseChatModel):
    """A chat model that answers from its board; never touches the network."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    agent_key: str
    board: FakeBoard = Field(exclude=True)
    bound_tools: dict[str, dict[str, Any]] = Field(default_factory=dict)
    tool_choice: Any = None

    @property
    def _llm_type(self) -> str:
        return "envelope-fake"

    def bind_tools(  # type: ignore[override]
        self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any
    ) -> FakeChatModel:
        """A copy that knows the tools (create_agent binds them before every call)."""
        schemas = [convert_to_openai_tool(tool)["function"] for tool in tools]
        bound = {schema["name"]: schema.get("parameters", {}) for schema in schemas}
        return self.model_copy(update={"bound_tools": bound, "tool_choice": tool_choice})

    def _call(self, messages: list[BaseMessage], metadata: Mapping[str, Any]) -> Call:
        return Call(
            agent_key=self.agent_key,
            task=metadata.get(TASK_KEY),
            messages=list(messages),
            tools=dict(self.bound_tools),
            tool_choice=self.tool_choice,
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        call = self._call(messages, run_manager.metadata if run_manager else {})
        self.board.calls.append(call)
        if self.board.hold is not None:
            self.board.arrived.set()
            self.board.hold.wait(timeout=60)
        return ChatResult(generations=[ChatGeneration(message=self.board.answer(call))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        call = self._call(messages, run_manager.metadata if run_manager else {})
        self.board.calls.append(call)
        await self.board.held()
        answer = self.board.reply(call)
        if inspect.isawaitable(answer):
            answer = await answer
        return ChatResult(generations=[ChatGeneration(message=self.board.answered(call, answer))])


_process_board: FakeBoard | None = None


def model_from_env(agent_key: str) -> FakeChatModel:
    """ENVELOPE_MODEL_FACTORY for a runner started in a subprocess by the tests.

    Generic answers only; every call is logged to the file named by FAKE_LLM_LOG.
    """
    global _process_board
    if _process_board is None:
        _process_board = FakeBoard(
            list_length=int(os.environ.get("FAKE_LLM_LIST_LENGTH", "2")),
            log_path=os.environ["FAKE_LLM_LOG"],
        )
    return _process_board.model_for(agent_key)
