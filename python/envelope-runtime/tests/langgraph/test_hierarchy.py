"""The hierarchy (agents[].reportsToKey): the entry agent runs the team and asks its reports
through `ask_<report>` tools; a report with reports of its own asks them the same way.

Skipped for teams that run as a pipeline.
"""

from __future__ import annotations

import helpers
import pytest
from fakes import Call, FakeBoard, Reply, tool_call
from langchain_core.messages import AIMessage
from langgraph.graph import END, START
from project import TEAM, agents, nodes, state, team, workspace_store

from envelope_runtime.connections import mcp_tool_name

pytestmark = pytest.mark.anyio

if team.MODE != "hierarchy":
    pytest.skip("the team runs as a pipeline", allow_module_level=True)

MID_LEVEL = [
    key for key in team.AGENTS if agents.reports_of(TEAM, key) and team.AGENTS[key].reports_to
]
"""Managers that have a manager: the middle of a tree of three levels or more."""


def test_the_graph_is_prepare_team_finalize() -> None:
    names, plain, routed = helpers.topology(helpers.build(FakeBoard()))

    assert names == {START, "prepare", nodes.TEAM_ANSWER, "finalize", END}
    assert plain == {
        ("prepare", nodes.TEAM_ANSWER),
        (nodes.TEAM_ANSWER, "finalize"),
        ("finalize", END),
    }
    assert routed == {(START, "prepare")}  # nodes.new_run: refused on an unfinished thread


def test_the_first_root_is_the_entry_agent_and_other_roots_report_to_it() -> None:
    definition = helpers.definition()["agents"]
    first_root = next(a["key"] for a in definition if not a.get("reportsToKey"))
    assert agents.entry_agent(TEAM) == first_root
    assert agents.roots(TEAM) == [first_root]
    for agent in definition:
        manager = team.AGENTS[agent["key"]].reports_to
        if agent["key"] == first_root:
            assert manager is None
        else:
            assert manager == agent.get("reportsToKey", first_root), agent["key"]


def _expected_tools(agent_key: str) -> set[str]:
    found = {agents.ask_tool_name(TEAM, report) for report in agents.reports_of(TEAM, agent_key)}
    if agent_key in team.POLICIES:
        found.add("http_request")
    for provider in getattr(team, "CONNECTION_AGENTS", {}).get(agent_key, ()):
        if provider in team.CONNECTIONS:
            found.update(operation.tool for operation in team.CONNECTIONS[provider].operations)
        else:  # an MCP pack: the tool the fake server lists (mcp_fake.py)
            found.add(mcp_tool_name(team.MCP_SERVERS[provider], "search", set()))
    if hasattr(team, "WORKSPACE"):
        found.update(tool.name for tool in workspace_store.workspace_tools(TEAM, agent_key))
    if agent_key == agents.entry_agent(TEAM):
        found.add(state.TeamResult.__name__)
    return found


async def test_each_agent_has_its_reports_as_tools(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    await helpers.run_to_end(helpers.build(board))

    for agent_key in team.AGENTS:
        calls = board.calls_of(agent_key)
        assert calls, f"{agent_key} was never asked"
        for call in calls:
            assert set(call.tools) == _expected_tools(agent_key), agent_key


def _sent(board: FakeBoard, manager: str, report: str) -> list[str]:
    """The tasks `manager` gave `report` through its ask tool."""
    return [
        request["args"]["task"]
        for call in board.calls_of(manager)
        if call.reply is not None
        for request in call.reply.tool_calls
        if request["name"] == agents.ask_tool_name(TEAM, report)
    ]


def _seen(board: FakeBoard, agent_key: str) -> str:
    """Every tool result an agent's model saw."""
    return "\n".join(m.text for call in board.calls_of(agent_key) for m in call.tool_results())


async def test_every_report_gets_its_task_and_its_answer_reaches_its_manager(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    snapshot = await helpers.run_to_end(helpers.build(board))

    state.TeamResult.model_validate(snapshot.values["result"])
    for agent_key, spec in team.AGENTS.items():
        if spec.reports_to is None:
            continue
        calls = board.calls_for_task(f"ask:{agent_key}")
        assert calls and {call.agent_key for call in calls} == {agent_key}, agent_key
        assert [calls[0].human] == _sent(board, spec.reports_to, agent_key), agent_key
        final = calls[-1].reply
        assert final is not None and final.text, agent_key
        assert final.text in _seen(board, spec.reports_to), agent_key


def _relay(marker: str) -> Reply:
    """A manager's reply passing on the tool result that holds `marker`."""

    def reply(call: Call) -> str:
        found = [m.text for m in call.tool_results() if marker in m.text]
        return found[-1] if found else f"{marker} not found"

    return reply


@pytest.mark.parametrize("manager_key", MID_LEVEL or [None])
async def test_a_mid_level_manager_asks_its_own_reports(
    manager_key: str | None, team_env: dict[str, str], board: FakeBoard
) -> None:
    if manager_key is None:
        pytest.skip("no mid-level manager in this hierarchy (two levels at most)")
    report = agents.reports_of(TEAM, manager_key)[0]
    path = helpers.path_to(report)
    task = f"TASK-FOR-{report}: check the quarterly numbers"
    answer = f"ANSWER-FROM-{report}: the numbers add up"
    # Each manager on the way hands the task down through its ask tool; the ones in the
    # middle pass the answer back up.
    board.script(path[0], tool_call(agents.ask_tool_name(TEAM, path[1]), task=task))
    for upper, lower in zip(path[1:-1], path[2:], strict=True):
        board.script(upper, tool_call(agents.ask_tool_name(TEAM, lower), task=task), _relay(answer))
    board.script(report, answer)

    snapshot = await helpers.run_to_end(helpers.build(board))

    assert snapshot.values["result"] is not None
    assert [call.human for call in board.calls_of(report)] == [task]
    assert [call.task for call in board.calls_of(report)] == [f"ask:{report}"]
    for upper in path[:-1]:
        assert answer in _seen(board, upper), upper


async def test_the_result_is_the_entry_agents_team_result(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    snapshot = await helpers.run_to_end(helpers.build(board))

    final = board.calls_for_task(nodes.TEAM_ANSWER)[-1]
    assert final.agent_key == agents.entry_agent(TEAM)
    assert final.reply is not None
    (answered,) = final.reply.tool_calls
    assert answered["name"] == state.TeamResult.__name__
    expected = state.TeamResult.model_validate(answered["args"])
    assert snapshot.values["result"] == expected.model_dump(mode="json", by_alias=True)


async def test_an_ask_without_a_task_or_an_unknown_tool_is_answered_with_an_error(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    # Run by the manager's own graph (not by the tool): arguments that do not fit and tool
    # names it does not have come back to the model as errors, and the run goes on.
    entry = agents.entry_agent(TEAM)
    # A team of one agent has no ask tool: its unknown tool is still answered so.
    reports = agents.reports_of(TEAM, entry)[:1]
    no_task = [
        {"name": agents.ask_tool_name(TEAM, report), "args": {}, "id": "call_no_task"}
        for report in reports
    ]
    unknown = {"name": "ask_nobody_here", "args": {"task": "x"}, "id": "call_unknown"}
    board.script(entry, AIMessage(content="", tool_calls=[*no_task, unknown]))

    snapshot = await helpers.run_to_end(helpers.build(board))

    assert snapshot.values["result"] is not None
    seen = {m.tool_call_id: m for m in board.calls_of(entry)[1].tool_results()}
    if reports:
        assert seen["call_no_task"].status == "error" and "task" in seen["call_no_task"].text
    assert seen["call_unknown"].status == "error"
    assert "ask_nobody_here" in seen["call_unknown"].text


async def test_each_agents_conversation_is_in_its_checkpoints(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    # Each agent's graph is a subgraph of the team's: its messages are checkpointed in the
    # thread, in the agent's own namespace.
    conversations = await helpers.checkpointed_conversations(board)

    for agent_key in team.AGENTS:
        calls = board.calls_of(agent_key)
        assert calls, f"{agent_key} was never asked"
        assert calls[0].human in conversations.get(helpers.agent_nodes(agent_key), []), agent_key
