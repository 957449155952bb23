"""A stand-in for the model, built on CrewAI's BaseLLM, that answers any team offline.

Unscripted calls get a generic answer: when the task wants structured output (CrewAI
passes `response_model`, the task has `output_pydantic`, or the prompt carries an
OpenAPI schema), a valid instance synthesized from the JSON schema; otherwise a line of
text. Tests script specific replies per agent (key or CrewAI role) or per task name.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from common_helpers import sample as sample
from crewai import BaseLLM
from pydantic import BaseModel, Field

SCHEMA_MARKER = "following OpenAPI schema: "


def final(answer: str | dict[str, Any] | list[Any]) -> str:
    """A ReAct reply that ends the task with `answer` (dicts and lists become JSON)."""
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return f"Thought: I now know the final answer\nFinal Answer: {text}"


def act(tool: str, **arguments: Any) -> str:
    """A ReAct reply that calls a tool."""
    payload = json.dumps(arguments)
    return f"Thought: I will use a tool\nAction: {tool}\nAction Input: {payload}"


def delegate(coworker: str, task: str, context: str = "") -> str:
    """A hierarchical manager's delegation, as CrewAI's delegation tool expects it."""
    return act("delegate_work_to_coworker", task=task, context=context, coworker=coworker)


def schema_in_prompt(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The JSON schema CrewAI put into the prompt, if any (the last one wins)."""
    for message in reversed(messages):
        content = str(message.get("content", ""))
        start = content.rfind(SCHEMA_MARKER)
        if start < 0:
            continue
        found, _ = json.JSONDecoder().raw_decode(content[start + len(SCHEMA_MARKER) :])
        if isinstance(found, dict) and "json_schema" in found:
            found = found["json_schema"]["schema"]
        return found  # type: ignore[no-any-return]
    return None


@dataclass
class Call:
    """One model call: who made it, for which task, and what the model saw."""

    agent_key: str
    role: str
    task: str | None
    messages: list[dict[str, Any]]
    schema: dict[str, Any] | None
    native: bool
    ended: float = 0.0

    def text(self) -> str:
        return "\n".join(str(message.get("content", "")) for message in self.messages)

    def content(self, role: str) -> str:
        return next(str(m["content"]) for m in self.messages if m.get("role") == role)


Reply = str | Callable[[Call], str]


class FakeModels:
    """Scripts and the record of every call, shared by all fakes of a test."""

    def __init__(
        self,
        roles: Mapping[str, str],
        native: bool = False,
        list_length: int = 2,
        log_path: str | None = None,
    ) -> None:
        self.roles = dict(roles)
        """Agent key -> CrewAI role (agents[].name)."""
        self.native = native
        """True: the fakes claim native function calling, as real providers do."""
        self.list_length = list_length
        """Items in every synthesized list (e.g. the records a gate reviews)."""
        self.hold: threading.Event | None = None
        """When given, every call waits until it is set (at most a minute): a call under way
        for as long as the test wants, whatever the machine's speed."""
        self.arrived = threading.Event()
        """Set when a call begins to wait for `hold`."""
        self.log_path = log_path
        """When set, every call is also appended to this file as a JSON line."""
        self.scripts: dict[str, list[Reply]] = {}
        self.calls: list[Call] = []
        self.lock = threading.Lock()

    def _role(self, who: str) -> str:
        return self.roles.get(who, who)

    def script(self, who: str, *replies: Reply) -> None:
        """Replies, in order, for an agent (its key or any CrewAI role, e.g. "X Requests")."""
        self.scripts.setdefault(f"role:{self._role(who)}", []).extend(replies)

    def script_task(self, task_name: str, *replies: Reply) -> None:
        """Replies, in order, for the calls made for a named task (e.g. a pipeline step)."""
        self.scripts.setdefault(f"task:{task_name}", []).extend(replies)

    def calls_of(self, who: str) -> list[Call]:
        """Calls of one agent (by key: the agent itself, not its Requests delegate) or role."""
        role = self._role(who)
        with self.lock:
            return [call for call in self.calls if call.role == role]

    def calls_for_task(self, task_name: str) -> list[Call]:
        with self.lock:
            return [call for call in self.calls if call.task == task_name]

    def answer(self, call: Call) -> str:
        with self.lock:
            self.calls.append(call)
            reply: Reply | None = None
            for queue in (f"task:{call.task}", f"role:{call.role}"):
                if self.scripts.get(queue):
                    reply = self.scripts[queue].pop(0)
                    break
        if self.hold is not None:
            self.arrived.set()
            self.hold.wait(timeout=60)
        text = self.generic_reply(call) if reply is None else reply
        text = text(call) if callable(text) else text
        call.ended = time.monotonic()
        if self.log_path:
            with self.lock, open(self.log_path, "a", encoding="utf-8") as log:
                record = {"agent_key": call.agent_key, "role": call.role, "task": call.task}
                log.write(json.dumps({**record, "messages": call.messages}) + "\n")
        return text

    def generic_reply(self, call: Call) -> str:
        if call.schema is not None:
            answer = json.dumps(sample(call.schema, self.list_length))
        else:
            answer = f"{call.role} has done the task {call.task or '(delegated)'}."
        return answer if call.native else final(answer)

    def llm_for(self, agent_key: str) -> FakeLLM:
        return FakeLLM(model=f"fake/{agent_key}", agent_key=agent_key, board=self)


class FakeLLM(BaseLLM):
    """Answers from its board; never touches the network."""

    agent_key: str
    board: Any = Field(exclude=True)

    def call(
        self,
        messages: str | list[Any],
        tools: list[dict[str, Any]] | None = None,
        callbacks: list[Any] | None = None,
        available_functions: dict[str, Any] | None = None,
        from_task: Any | None = None,
        from_agent: Any | None = None,
        response_model: type[BaseModel] | None = None,
    ) -> str:
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        model = response_model or getattr(from_task, "output_pydantic", None)
        schema = model.model_json_schema() if model is not None else schema_in_prompt(messages)
        call = Call(
            agent_key=self.agent_key,
            role=str(from_agent.role)
            if from_agent is not None
            else self.board._role(self.agent_key),
            task=getattr(from_task, "name", None),
            messages=[dict(message) for message in messages],
            schema=schema,
            native=self.board.native,
        )
        return self.board.answer(call)  # type: ignore[no-any-return]

    async def acall(
        self,
        messages: str | list[Any],
        tools: list[dict[str, Any]] | None = None,
        callbacks: list[Any] | None = None,
        available_functions: dict[str, Any] | None = None,
        from_task: Any | None = None,
        from_agent: Any | None = None,
        response_model: type[BaseModel] | None = None,
    ) -> str:
        return self.call(
            messages, tools, callbacks, available_functions, from_task, from_agent, response_model
        )

    def supports_function_calling(self) -> bool:
        return bool(self.board.native)

    def get_context_window_size(self) -> int:
        return 200_000


_process_board: FakeModels | None = None


def llm_from_env(agent_key: str, spec: object) -> FakeLLM:
    """ENVELOPE_MODEL_FACTORY for a runner started in a subprocess by the tests.

    Unscripted answers only; every call is logged to the file named by FAKE_LLM_LOG.
    """
    global _process_board
    if _process_board is None:
        _process_board = FakeModels(
            roles={},
            list_length=int(os.environ.get("FAKE_LLM_LIST_LENGTH", "2")),
            log_path=os.environ["FAKE_LLM_LOG"],
        )
    return _process_board.llm_for(agent_key)
