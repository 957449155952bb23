"""The hierarchy (agents[].reportsToKey) as CrewAI crews: managers, workers and sub-teams.

Emitted for teams without a pipeline.
"""

from __future__ import annotations

import json

import helpers
import pytest
from crewai import Process
from fake_llm import FakeModels, final
from project import TEAM, crew, delegation, main, team

if team.MODE != "hierarchy":
    pytest.skip("the team runs as a pipeline", allow_module_level=True)

MID_LEVEL = [key for key in team.AGENTS if delegation.has_sub_team(TEAM, key)]


def _tool_names(agent: object) -> list[str]:
    return [tool.name for tool in getattr(agent, "tools", None) or []]


def test_the_first_root_manages_the_run_without_tools_of_its_own(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    roles = helpers.roles()
    team_crew = crew.TeamCrew(helpers.valid_inputs()).crew()
    top = delegation.top_manager(TEAM)
    if top is None:  # one agent: it does the run itself
        assert team_crew.process == Process.sequential
        assert [agent.role for agent in team_crew.agents] == [roles[delegation.roots(TEAM)[0]]]
        return

    manager = team_crew.manager_agent
    assert team_crew.process == Process.hierarchical
    assert manager is not None and manager.role == roles[top]
    assert manager.allow_delegation and _tool_names(manager) == []
    assert manager not in team_crew.agents
    expected = [roles[key] for key in delegation.workers_of(TEAM, top)]
    # The manager's HTTP tool, connection pack tools and workspace tools are held by its
    # Requests worker.
    own_documents = [doc for doc in getattr(team, "WORKSPACE", {}).values() if top in doc.agents]
    own_packs = getattr(team, "CONNECTION_AGENTS", {}).get(top, ())
    if top in team.EGRESS or own_documents or own_packs:
        expected.append(f"{roles[top]} Requests")
    assert [agent.role for agent in team_crew.agents] == expected
    if own_packs:
        requests = next(a for a in team_crew.agents if a.role == f"{roles[top]} Requests")
        pack_tools = [op.tool for p in own_packs for op in team.CONNECTIONS[p].operations]
        assert set(pack_tools) <= set(_tool_names(requests))
    assert len(set(expected)) == len(expected), "delegation needs unique roles"
    for key in delegation.workers_of(TEAM, top):
        worker = next(agent for agent in team_crew.agents if agent.role == roles[key])
        assert (delegation.SUB_TEAM_TOOL in _tool_names(worker)) == bool(
            delegation.reports_of(TEAM, key)
        ), key
        assert not worker.allow_delegation


@pytest.mark.parametrize("manager_key", MID_LEVEL or [None])
def test_a_sub_team_crew_has_its_manager_without_tools_and_its_reports(
    manager_key: str | None, team_env: dict[str, str], fake_models: FakeModels
) -> None:
    if manager_key is None:
        pytest.skip("no mid-level manager in this hierarchy")
    roles = helpers.roles()
    sub_team = crew.TeamCrew(helpers.valid_inputs(), managing=manager_key)
    work = sub_team.team_task()

    sub_crew = sub_team._hierarchical_crew(manager_key, [work])

    assert sub_crew.process == Process.hierarchical
    assert sub_crew.manager_agent is not None
    assert sub_crew.manager_agent.role == roles[manager_key]
    assert _tool_names(sub_crew.manager_agent) == []
    expected = [roles[key] for key in delegation.reports_of(TEAM, manager_key)]
    assert [agent.role for agent in sub_crew.agents] == expected


@pytest.mark.parametrize("manager_key", MID_LEVEL or [None])
def test_delegating_to_a_mid_level_manager_runs_its_sub_team(
    manager_key: str | None,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if manager_key is None:
        pytest.skip("no mid-level manager in this hierarchy")
    report = delegation.reports_of(TEAM, manager_key)[0]
    task = f"TASK-FOR-{report}: check the quarterly numbers"
    answer = f"ANSWER-FROM-{report}: the numbers add up"
    path = helpers.path_to(report)
    helpers.drive(fake_models, report, task, final(answer))
    for upper in path[1:-1]:  # mid-level managers hand the answer back up, twice each:
        fake_models.script(upper, helpers.relay(answer), helpers.relay(answer))

    code = main.main(helpers.run_argv())

    out = capsys.readouterr()
    assert code == 0, out.err
    team.TeamResult.model_validate(json.loads(out.out))
    # The report got the task through every level of the hierarchy...
    assert task in fake_models.calls_of(report)[0].content("user")
    for upper in path[1:-1]:
        as_manager = [c for c in fake_models.calls_of(upper) if c.task == f"team:{upper}"]
        assert as_manager, f"{upper} did not manage its sub-team"
        system = as_manager[0].content("system")
        coworkers = ", ".join(fake_models.roles[key] for key in delegation.reports_of(TEAM, upper))
        assert (
            f"Delegate a specific task to one of the following coworkers: {coworkers}\n" in system
        )
        assert delegation.SUB_TEAM_TOOL not in system and "http_request" not in system
    # ...and its answer came back up to the top manager.
    top_calls = fake_models.calls_of(path[0])
    assert answer in top_calls[-1].text()


def test_a_manager_is_bounded_by_run_ms_only_or_by_what_crew_py_sets(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    top = delegation.top_manager(TEAM)
    if top is None:
        pytest.skip("one agent: it manages no one")
    team_crew = crew.TeamCrew(helpers.valid_inputs())
    assert team_crew.crew().manager_agent.max_execution_time is None
    # a limit the developer gives the manager's @agent in crew.py stays
    agent = getattr(crew.TeamCrew(helpers.valid_inputs()), team.AGENTS[top].method)()
    agent.max_execution_time = 600
    assert team_crew._prepared(top, agent).max_execution_time == 600


def test_tools_agents_yaml_gives_the_manager_are_refused_by_name(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    top = delegation.top_manager(TEAM)
    if top is None:
        pytest.skip("one agent: it manages no one")
    team_crew = crew.TeamCrew(helpers.valid_inputs())
    method = team.AGENTS[top].method
    team_crew.agents_config = {**team_crew.agents_config}
    team_crew.agents_config[method] = {**team_crew.agents_config[method], "tools": ["a tool"]}
    with pytest.raises(
        ValueError, match=f"config/agents.yaml: {method}: tools: the crew's manager"
    ):
        team_crew.tools_of(top)
