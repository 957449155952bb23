"""The team's agents: one LangChain `create_agent` agent per definition agent, with its
rendered prompt as system prompt, its identifier as name, its own chat model (the
`model_for` seam, chosen at each model call) and its tools (`http_request` with egress, its
connection packs' and workspace documents' tools; hierarchy.py adds `ask_<report>`).

A pipeline step's agent graph is compiled once per node (`task_graph`), so its conversation
is checkpointed in the thread under the step's node, without secret values and without the
rendered prompt (`AgentSetup`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NotRequired, TypeVar, cast

from langchain.agents import AgentState, create_agent
from langchain.agents.middleware import (
    AgentMiddleware,
    ModelRequest,
    ModelResponse,
    ModelRetryMiddleware,
    ToolCallRequest,
    hook_config,
)
from langchain.agents.structured_output import ToolStrategy
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command
from pydantic import BaseModel

from .. import redaction
from ..team_package import TeamPackage
from . import llms, prompts

AgentGraph = CompiledStateGraph[Any, Any, Any, Any]
T = TypeVar("T")

ASK_PREFIX = "ask_"

ANSWER_MISSES = 2
"""Replies without a usable structured answer after which a conversation ends (a model that
ignores tool_choice would loop until the recursion limit); the node then asks once more."""


def roots(package: TeamPackage) -> list[str]:
    """Agents without a manager, in definition order; the first is the entry agent."""
    return [key for key, spec in package.team.AGENTS.items() if spec.reports_to is None]


def entry_agent(package: TeamPackage) -> str:
    return roots(package)[0]


def reports_of(package: TeamPackage, agent_key: str) -> list[str]:
    return [key for key, spec in package.team.AGENTS.items() if spec.reports_to == agent_key]


def manager_of(package: TeamPackage, agent_key: str) -> str:
    """Who an agent's work escalates to: its manager, else the entry agent."""
    return package.team.AGENTS[agent_key].reports_to or entry_agent(package)


def self_escalation(package: TeamPackage, step: str) -> str | None:
    """Why a gate after `step` halts instead of escalating: the escalation would go to the
    step's own agent (the entry agent), and no agent decides on its own work."""
    agent = package.team.PIPELINE[step].agent_key
    if manager_of(package, agent) != agent:
        return None
    return (
        f"the escalation would go to {agent}, the agent of step {step} itself (it reports to "
        "nobody and is the first root), and nobody else can decide: run halted, no agent "
        "approves its own work"
    )


def ask_tool_name(package: TeamPackage, agent_key: str) -> str:
    return f"{ASK_PREFIX}{package.team.AGENTS[agent_key].name}"


def run_config(package: TeamPackage, task: str) -> RunnableConfig:
    """Every agent invocation's: the recursion limit, and the task in metadata (tracing)."""
    limit = package.team.RECURSION_LIMIT
    return {"recursion_limit": limit, "metadata": {"envelope_task": task}}


def answer_text(result: Mapping[str, Any]) -> str:
    messages = result.get("messages") or []
    last = messages[-1] if messages else None
    return last.text if isinstance(last, AIMessage) else ""


class AnswerBudget(AgentMiddleware):
    def __init__(self, answer_tool: str) -> None:
        super().__init__()
        self.answer_tool = answer_tool

    def _misses(self, state: Mapping[str, Any]) -> int:
        return sum(
            1
            for m in state.get("messages") or []
            if (isinstance(m, AIMessage) and not m.tool_calls)
            or (
                isinstance(m, ToolMessage)
                and m.name == self.answer_tool
                and not str(m.content).startswith("Returning structured response")
            )
        )

    @hook_config(can_jump_to=["end"])
    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if state.get("structured_response") is not None:
            return None
        # No I/O: the async agent runs this sync hook as is (RunnableCallable without afunc).
        return {"jump_to": "end"} if self._misses(state) >= ANSWER_MISSES else None


class PromptState(AgentState[Any]):
    inputs: NotRequired[dict[str, Any]]  # what `{{NAME}}` in the prompt is rendered with


def chosen_per_call() -> BaseChatModel:
    """create_agent's model when the graph is built: LangChain's configurable chat model,
    which imports no provider and needs no API key; `AgentSetup` puts the agent's own model
    in its place at every call (before anything binds it)."""
    return cast(BaseChatModel, init_chat_model(configurable_fields="any"))


class AgentSetup(AgentMiddleware[PromptState, Any]):
    """Every model call: the agent's chat model and its rendered prompt, never stored (no
    secret value in a checkpoint); the reply redacted before it is."""

    state_schema = PromptState

    def __init__(self, agents: TeamAgents, agent_key: str) -> None:
        super().__init__()
        self.agents = agents
        self.agent_key = agent_key

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        # A provider's error may echo the prompt, {{SECRET}} filled in (secrets_redacted).
        return await secrets_redacted(self.agents.package, self._call(request, handler))

    async def _call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        package = self.agents.package
        prompt = prompts.system_prompt(package, self.agent_key, request.state.get("inputs") or {})
        response = await handler(
            request.override(
                model=self.agents.model(self.agent_key),
                system_message=SystemMessage(content=prompt) if prompt else None,
            )
        )
        # A structured answer is stored as plain data (TeamAgents.ask gives it its type back).
        secrets = redaction.secret_values(package.team.SECRETS)
        answer = response.structured_response
        if isinstance(answer, BaseModel):
            answer = answer.model_dump(mode="json", by_alias=True)
        messages = [redacted(package, message, secrets) for message in response.result]
        return ModelResponse(result=messages, structured_response=redaction.redact(answer, secrets))


class ToolErrors(AgentMiddleware):
    """A tool's exception re-raised without secret values (secrets_redacted): ToolNode
    re-raises all but argument errors. Only for agents with tools: a tool-call hook gives
    create_agent's graph a tools node."""

    def __init__(self, package: TeamPackage) -> None:
        super().__init__()
        self.package = package

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        return await secrets_redacted(self.package, handler(request))


def model_retry() -> ModelRetryMiddleware[Any, Any]:
    """The one retry of a model call (llms.transient, llms.MODEL_ATTEMPTS); last in an agent's
    middleware, so it wraps the request alone, not the prompt and the redaction."""
    return ModelRetryMiddleware(
        max_retries=llms.MODEL_ATTEMPTS - 1,
        retry_on=llms.transient,
        on_failure="error",
        initial_delay=llms.RETRY_DELAY_S,
        backoff_factor=2.0,
        max_delay=8 * llms.RETRY_DELAY_S,
    )


async def secrets_redacted(package: TeamPackage, work: Awaitable[T]) -> T:
    """`work`'s result; an exception it raises leaves without the team's secret values
    (redacted_errors.without_secrets, loaded on an error only): LangGraph checkpoints a
    failed task's exception (its repr, the `__error__` write) in every namespace it passes
    through."""
    try:
        return await work
    except Exception as error:
        from .redacted_errors import without_secrets

        safe = without_secrets(error, redaction.secret_values(package.team.SECRETS))
        if safe is error:
            raise
    # Raised here, not in the except block, where the raw error would become its __context__.
    raise safe


def redacted(package: TeamPackage, message: BaseMessage, secrets: Sequence[str]) -> BaseMessage:
    """A message without secret values: in a reply's tool-call arguments each written as its
    `{{NAME}}`, which http_request fills in again, so the call does what the model asked."""
    if not secrets:
        return message
    update: dict[str, Any] = {
        "content": redaction.redact(message.content, secrets),
        "additional_kwargs": redaction.redact(message.additional_kwargs, secrets),
    }
    if isinstance(message, AIMessage):
        update["tool_calls"] = [
            {**call, "args": as_placeholders(package, call["args"])} for call in message.tool_calls
        ]
        update["invalid_tool_calls"] = redaction.redact(message.invalid_tool_calls, secrets)
    return message.model_copy(update=update)


def as_placeholders(package: TeamPackage, data: Any) -> Any:
    named = [(v, n) for n in package.team.SECRETS for v in redaction.secret_values([n])]
    named.sort(key=lambda pair: len(pair[0]), reverse=True)  # a longer one first

    def fill(text: str) -> str:
        for value, name in named:
            if len(value) >= redaction.MIN_LENGTH:
                text = text.replace(value, f"{{{{{name}}}}}")
        return text

    return redaction.replace_text(data, fill)


CHOSEN_MODELS_KEPT = 16  # chat models kept beyond one per agent (runs' contexts choose them)


class TeamAgents:
    def __init__(self, package: TeamPackage, model_for: llms.ModelFactory) -> None:
        self.package = package
        self.model_cache_size = len(package.models.MODELS) + CHOSEN_MODELS_KEPT
        # One model per (agent, model its run's context chose): the graph lives as long as the
        # server, so only the model_cache_size last used are kept.
        self._models = lru_cache(self.model_cache_size)(lambda key, _chosen: model_for(key))

    def model(self, agent_key: str) -> BaseChatModel:
        """The agent's chat model for this run's context (llms.chosen_model)."""
        return self._models(agent_key, llms.chosen_model(self.package, agent_key))

    def tools(self, agent_key: str) -> list[BaseTool]:
        """Its http_request (egress), connection packs' and workspace documents' tools, each
        module imported only by a team that has them."""
        team = self.package.team
        found: list[BaseTool] = []
        if agent_key in team.POLICIES:
            from .tools import http_tool

            found.append(http_tool(self.package, agent_key))
        if getattr(team, "CONNECTION_AGENTS", {}).get(agent_key):
            from .connection_tools import connection_tools

            found.extend(connection_tools(self.package, agent_key))
        if hasattr(team, "WORKSPACE"):
            from .workspace_store import workspace_tools

            found.extend(workspace_tools(self.package, agent_key))
        return found

    def mcp_tools(self, agent_key: str) -> list[AgentMiddleware[Any, Any]]:
        """Its MCP servers' tools (connection_tools.McpTools), listed on its first model call."""
        team = self.package.team
        packs = getattr(team, "CONNECTION_AGENTS", {}).get(agent_key, ())
        if not any(provider in getattr(team, "MCP_SERVERS", {}) for provider in packs):
            return []
        from .connection_tools import McpTools

        return [McpTools(self.package, agent_key)]

    def task_graph(
        self, agent_key: str, response_format: type[BaseModel] | None = None
    ) -> AgentGraph:
        """The agent's graph for one kind of task (a step, an escalation), compiled once; its
        conversation is checkpointed under the node that runs it."""
        tools = self.tools(agent_key)
        mcp = self.mcp_tools(agent_key)
        middleware: list[AgentMiddleware[Any, Any]] = [AgentSetup(self, agent_key)]
        if tools or mcp:
            middleware.append(ToolErrors(self.package))  # around the MCP tools' hook too
        middleware += mcp
        if response_format is not None:
            middleware.append(AnswerBudget(response_format.__name__))
        middleware.append(model_retry())
        return create_agent(
            chosen_per_call(),
            tools,
            response_format=ToolStrategy(response_format) if response_format else None,
            middleware=middleware,
            name=self.package.team.AGENTS[agent_key].name,
        )

    async def ask(
        self,
        agent_key: str,
        inputs: Mapping[str, Any],
        task: str,
        task_name: str,
        response_format: type[BaseModel] | None = None,
        graph: AgentGraph | None = None,
        history: Sequence[AnyMessage] = (),
    ) -> dict[str, Any]:
        """One task through the agent's `graph` (default: a task_graph for this call); its
        final state. With `history` (an earlier conversation), `task` is its next message."""
        if graph is None:
            graph = self.task_graph(agent_key, response_format)
        messages = [*history, HumanMessage(content=task)]
        start = {"messages": messages, "inputs": dict(inputs)}
        result: dict[str, Any] = await graph.ainvoke(start, run_config(self.package, task_name))
        answer = result.get("structured_response")
        if response_format is not None and isinstance(answer, dict):
            result["structured_response"] = response_format.model_validate(answer)
        return result
