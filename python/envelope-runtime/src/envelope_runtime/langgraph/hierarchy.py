"""hierarchy mode: the team as one graph, and its `team` node.

Each agent is compiled once, in `build_graph`, into a small graph of its own
(`HierarchyAgents.unit`), so the whole team is part of the graph LangGraph draws
(`get_graph(xray=True)`) and each agent's conversation is checkpointed in the thread, in
that agent's namespace (a subgraph compiled with `checkpointer=None` uses the parent's):

    START -> <agent> -> call-tools (http_request) -> <agent> -> ... -> END
                     -> ask-<report> (the report's own graph, recursively) -> <agent>

`<agent>` is the `create_agent` graph; a reply that calls tools ends it there, and its
graph runs the calls: `http_request` in `call-tools`, each `ask_<report>` in the report's
node, which gives the report the task as a new conversation and returns its answer as the
tool result: agents as tools, the supervisor pattern of LangChain's multi-agent guide.
Trees of any depth work the same way. The `team` node runs the entry agent's graph on the
team's task.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, NotRequired

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ToolCallRequest, hook_config
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode
from langgraph.types import Command, Send
from pydantic import BaseModel, Field, ValidationError
from typing_extensions import TypedDict

from ..team_package import TeamPackage
from . import agents, llms, prompts
from .agents import (
    AgentGraph,
    AgentSetup,
    AnswerBudget,
    TeamAgents,
    ToolErrors,
    answer_text,
    ask_tool_name,
    chosen_per_call,
    model_retry,
    run_config,
)
from .nodes import TEAM_ANSWER, Node, State, TeamNodes, Update, answer_json, as_json


class AskInput(BaseModel):
    task: str = Field(
        description="The task, with everything needed to do it: they cannot see your conversation."
    )


class UnitState(TypedDict):
    """The state of one agent's graph: its conversation and the run's inputs (its prompt's)."""

    messages: Annotated[list[AnyMessage], add_messages]
    inputs: NotRequired[dict[str, Any]]
    structured_response: NotRequired[Any]


class Ask(TypedDict):
    """What a manager's `ask_<report>` call sends to the report's node (a `Send`)."""

    task: str
    call_id: str
    inputs: dict[str, Any]


class HandOff(AgentMiddleware):
    """A manager's reply that asks a report ends its `create_agent` graph: the agent's own
    graph (HierarchyAgents.unit) runs that reply's tool calls, each ask in the report's node."""

    def __init__(self, package: TeamPackage, manager_key: str) -> None:
        super().__init__()
        self.package = package
        self.manager_key = manager_key

    @hook_config(can_jump_to=["end"])
    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return {"jump_to": "end"} if asks(self.package, self.manager_key, state) else None


def asked(package: TeamPackage, manager_key: str, tool_name: str) -> str | None:
    """The report of `manager_key` an `ask_<name>` tool asks (None for any other tool)."""
    reports = agents.reports_of(package, manager_key)
    return next((k for k in reports if ask_tool_name(package, k) == tool_name), None)


def asks(package: TeamPackage, manager_key: str, state: Mapping[str, Any]) -> bool:
    """Whether the manager's last reply calls one of its ask tools."""
    last = (state.get("messages") or [None])[-1]
    calls = last.tool_calls if isinstance(last, AIMessage) else []
    return any(asked(package, manager_key, call["name"]) for call in calls)


TOOLS_NODE = "call-tools"
"""A manager's node that runs the other tool calls of a reply that asks a report. Node
names with a `-` never collide with an agent's identifier (`[a-z0-9_]`): the agent's own
node is named by its identifier, its subtree in its manager's graph `ask-<identifier>`."""


DEADLINE_GRACE_S = 5.0


def subtree_timeout(package: TeamPackage) -> float:
    """The node timeout of a node that holds agents' graphs (the team node, a report's
    node): timeout.runMs and a grace. The run's deadline itself ends the work in time and
    halts the run (nodes.TeamNodes); this only stops a node that would outlive it."""
    return package.team.RUN_TIMEOUT_MS / 1000 + DEADLINE_GRACE_S


def report_node(package: TeamPackage, report_key: str) -> str:
    """The node of a report (its graph) in its manager's graph."""
    return f"ask-{package.team.AGENTS[report_key].name}"


class HierarchyAgents(TeamAgents):
    """TeamAgents that compile each agent, with its reports, into a graph of its own."""

    def unit(self, agent_key: str, response_format: type[BaseModel] | None = None) -> AgentGraph:
        """The graph of one agent and, through its reports' nodes, of everyone below it,
        compiled once (hierarchy mode)."""
        package = self.package
        spec = package.team.AGENTS[agent_key]
        reports = agents.reports_of(package, agent_key)
        mcp = self.mcp_tools(agent_key)
        own_tools = self.tools(agent_key)
        middleware: list[AgentMiddleware[Any, Any]] = [AgentSetup(self, agent_key)]
        if own_tools or mcp:  # the ask tools never run in the agent's own tools node
            middleware.append(ToolErrors(package))
        middleware += mcp
        if reports:
            middleware.append(HandOff(package, agent_key))
        if response_format is not None:
            middleware.append(AnswerBudget(response_format.__name__))
        middleware.append(model_retry())
        # The ask tools are also there for calls whose arguments do not fit (route): the
        # tool node answers those with the validation error, as for any other tool.
        agent_tools = [*own_tools, *(self.ask_tool(report) for report in reports)]
        agent = create_agent(
            chosen_per_call(),
            agent_tools,
            response_format=ToolStrategy(response_format) if response_format else None,
            middleware=middleware,
            name=spec.name,
        )
        builder = StateGraph(UnitState)
        # The agent's conversation: room for its model's timeout per request, MODEL_ATTEMPTS
        # requests (llms.node_timeout). Never retried as a whole (its model calls retry
        # themselves, agents.model_retry): it holds calls that completed.
        timeout = llms.node_timeout(package.models.MODELS[agent_key].timeout_s)
        builder.add_node(spec.name, agent, timeout=timeout)
        builder.add_edge(START, spec.name)
        if not reports:
            builder.add_edge(spec.name, END)
            return builder.compile(name=spec.name)
        # Its MCP tools are not in agent_tools (listed on first use): McpTools runs them.
        calls = ToolNode(agent_tools, awrap_tool_call=tool_calls(package, mcp[0] if mcp else None))
        builder.add_node(TOOLS_NODE, calls)
        builder.add_edge(TOOLS_NODE, spec.name)
        for report in reports:
            node = report_node(package, report)
            builder.add_node(node, self.ask_node(report), timeout=subtree_timeout(package))
            builder.add_edge(node, spec.name)
        ends = [TOOLS_NODE, *(report_node(package, report) for report in reports), END]
        builder.add_conditional_edges(spec.name, router(package, agent_key), ends)
        return builder.compile(name=spec.name)

    def ask_node(self, report_key: str) -> Callable[[Ask], Awaitable[dict[str, Any]]]:
        """The node of one report: its graph on the task it was asked, as a new
        conversation; the answer goes back to the manager as the ask tool's result."""
        graph = self.unit(report_key)
        name = ask_tool_name(self.package, report_key)
        config = run_config(self.package, f"ask:{report_key}")

        async def ask(request: Ask) -> dict[str, Any]:
            task = HumanMessage(content=request["task"])
            start = {"messages": [task], "inputs": request["inputs"]}
            result = await graph.ainvoke(start, config)
            answer = ToolMessage(answer_text(result), name=name, tool_call_id=request["call_id"])
            return {"messages": [answer]}

        return ask

    def ask_tool(self, report_key: str) -> BaseTool:
        """Agent-as-tool: `ask_<report>`; the manager's graph runs the call in the report's
        node (HandOff), never through this tool's own function."""
        spec = self.package.team.AGENTS[report_key]
        tool_name = ask_tool_name(self.package, report_key)

        async def ask(task: str) -> str:
            raise RuntimeError(f"{tool_name} runs in the node of {spec.name}")

        return StructuredTool.from_function(
            coroutine=ask,
            name=tool_name,
            description=f"Delegate a task to your report {spec.description} Returns the answer.",
            args_schema=AskInput,
        )


ToolCall = Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]]


def tool_calls(
    package: TeamPackage, mcp: AgentMiddleware[Any, Any] | None
) -> Callable[[ToolCallRequest, ToolCall], Awaitable[ToolMessage | Command[Any]]]:
    """The call-tools node's hook: its MCP tools' (when it has some), within ToolErrors',
    as in the agent's own tools node."""
    errors = ToolErrors(package)

    async def call(request: ToolCallRequest, execute: ToolCall) -> ToolMessage | Command[Any]:
        if mcp is None:
            return await errors.awrap_tool_call(request, execute)
        return await errors.awrap_tool_call(request, lambda r: mcp.awrap_tool_call(r, execute))

    return call


def router(package: TeamPackage, manager_key: str) -> Callable[[UnitState], list[Send] | str]:
    """After a manager's model call: a reply that asks reports goes to their nodes (and its
    other tool calls, or an ask whose arguments do not fit, to TOOLS_NODE), all at once;
    anything else ends its graph."""

    def route(state: UnitState) -> list[Send] | str:
        if not asks(package, manager_key, state):
            return END
        last = state["messages"][-1]
        assert isinstance(last, AIMessage)
        sends: list[Send] = []
        for call in last.tool_calls:
            report = asked(package, manager_key, call["name"])
            try:
                task = AskInput.model_validate(call.get("args") or {}).task if report else None
            except ValidationError:
                task = None
            if report is None or task is None:
                context = {"__type": "tool_call_with_context", "tool_call": call, "state": state}
                sends.append(Send(TOOLS_NODE, context))
                continue
            ask = Ask(task=task, call_id=call["id"] or "", inputs=state.get("inputs") or {})
            sends.append(Send(report_node(package, report), ask))
        return sends

    return route


class HierarchyNodes(TeamNodes):
    """The node functions of a hierarchy team's graph: prepare, team, finalize."""

    agents_class = HierarchyAgents
    agents: HierarchyAgents

    def team(self) -> Node:
        """hierarchy: the node that runs the entry agent's graph (compiled here, once) on
        the team's task; its reports are nodes of that graph, theirs of theirs."""
        entry = self.agents.unit(agents.entry_agent(self.package), self.team_result)

        async def run_team(state: State) -> Update | Command[str]:
            return await self._within_deadline(state, lambda: self._team(entry, state))

        return run_team

    def team_timeout(self) -> float:
        """The team node's limit: it holds the whole run (subtree_timeout)."""
        return subtree_timeout(self.package)

    async def _team(self, entry: AgentGraph, state: State) -> Update:
        team = self.package.team
        result_model = self.team_result
        inputs = state["inputs"]
        task = (
            f"Handle this run of the {team.NAME} team.\n\n{team.DESCRIPTION}\n\n"
            f"Run inputs (JSON):\n{as_json(inputs)}{prompts.triggered_text(self.package)}\n\n"
            f"Finish by calling {result_model.__name__} with the team's result."
        )
        agent_key = agents.entry_agent(self.package)
        result = await self._ask(agent_key, inputs, task, TEAM_ANSWER, result_model, entry)
        answer = self._structured(result, result_model, "the team")
        return {"answers": {TEAM_ANSWER: answer_json(self.package, answer)}}
