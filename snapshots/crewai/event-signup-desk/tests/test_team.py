"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline: its agents and their tools,
the rules its workspace documents' tools enforce,
and the checks of its inputs.
And the whole team runs offline, against scripted models that never reach a network:
every agent.
The runtime library, envelope-runtime, has its own tests. Run these with `uv run pytest`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from crewai import BaseLLM
from envelope_runtime.crewai.testing import run_offline
from pydantic import ValidationError

from event_signup_desk import crew, main, models, team

# agents[]: key -> CrewAI role (config/agents.yaml)
ROLES: dict[str, str] = {
    # agents[0] screener
    "screener": "Signup Screener",
    # agents[1] brief-writer
    "brief-writer": "Speaker Brief Writer",
}

# agents[].accessPolicy / allowedHosts: who holds the http_request tool (a crew's manager
# holds no tool: a worker makes its requests)
HTTP_AGENTS: tuple[str, ...] = ()

# agents[].reportsToKey: who runs a sub-team of their own (the delegate_to_team tool)
SUB_TEAM_AGENTS: tuple[str, ...] = ()

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("event_name",)

# workspace[]: each document -> the agents with its tools (list, read, write)
WORKSPACE_AGENTS: dict[str, tuple[str, ...]] = {
    # workspace[0] attendees
    "attendees": ("screener",),
    # workspace[1] speaker-queue
    "speaker-queue": ("brief-writer",),
}

# workspace[].columns: per document a column people own (owner "human")
HUMAN_COLUMNS: dict[str, str] = {
    # workspace[0] attendees
    "attendees": "organiser_note",
    # workspace[1] speaker-queue
    "speaker-queue": "talk_id",
}

# workspace[].statusValues: per document a status column agents write, and its values
STATUS_VALUES: dict[str, tuple[str, tuple[str, ...]]] = {
    # workspace[0] attendees
    "attendees": ("status", ("pending", "confirmed", "incomplete", "declined")),
    # workspace[1] speaker-queue
    "speaker-queue": ("status", ("proposed", "approved", "briefed", "rejected")),
}


class _NoModel(BaseLLM):
    """The models of these tests: none is ever called."""

    def call(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("a model was called")


@pytest.fixture
def crews(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The team's crew class, with models that are never called and test values for the
    secrets and variables."""
    monkeypatch.setattr(models, "llm_for", lambda key: _NoModel(model=f"none/{key}"))
    for name in (*team.SECRETS, *team.VARIABLES):
        monkeypatch.setenv(name, f"test-{name.lower()}")
    return crew.TeamCrew()


def test_each_agent_has_its_role(crews: Any) -> None:
    roles = {key: crews.agents_config[spec.method]["role"] for key, spec in team.AGENTS.items()}
    assert roles == ROLES


def test_each_agent_holds_the_tools_the_definition_gives_it(crews: Any) -> None:
    for key, spec in team.AGENTS.items():
        names = {tool.name for tool in getattr(crews, spec.method)().tools}
        assert ("http_request" in names) == (key in HTTP_AGENTS), key
        assert ("delegate_to_team" in names) == (key in SUB_TEAM_AGENTS), key


def _tool_ident(document: str) -> str:
    return document.replace("-", "_")


def _workspace_tools(crews: Any, agent_key: str) -> dict[str, Any]:
    """The tools the agent's workspace reads and writes go through: its own, or for the
    crew's manager (CrewAI allows it no tools of its own) its Requests worker's."""
    if getattr(crews, "managing", None) == agent_key:
        workers = crews.crew().agents
        holder = next(a for a in workers if a.role == f"{ROLES[agent_key]} Requests")
        return {tool.name: tool for tool in holder.tools}
    agent = getattr(crews, team.AGENTS[agent_key].method)()
    return {tool.name: tool for tool in agent.tools}


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Any:
    """A workspace store of the test's own (ENVELOPE_WORKSPACE_DB)."""
    monkeypatch.setenv("ENVELOPE_WORKSPACE_DB", str(tmp_path / "workspace.sqlite3"))
    return tmp_path / "workspace.sqlite3"


def _a_value(document: str, column: str) -> Any:
    """A value of the column's type, so only the store's rules can refuse it."""
    kind = team.WORKSPACE[document].column(column)
    assert kind is not None, column
    return {"string": "set by the test", "number": 1, "boolean": True}[kind.type]


def test_each_document_s_agents_hold_its_tools(crews: Any) -> None:
    assert {doc: spec.agents for doc, spec in team.WORKSPACE.items()} == WORKSPACE_AGENTS
    for document, agents in WORKSPACE_AGENTS.items():
        ident = _tool_ident(document)
        for key in agents:
            names = set(_workspace_tools(crews, key))
            expected = {f"list_{ident}_rows", f"read_{ident}_row", f"write_{ident}_rows"}
            assert expected <= names, (document, key)


def test_an_agent_s_write_of_a_column_people_own_is_refused(crews: Any, store: Any) -> None:
    for document, column in HUMAN_COLUMNS.items():
        ident = _tool_ident(document)
        for key in WORKSPACE_AGENTS[document]:
            tools = _workspace_tools(crews, key)
            row = {"id": "test-row", "data": {column: _a_value(document, column)}}

            answer = json.loads(tools[f"write_{ident}_rows"].run(rows=[row]))

            assert [r["outcome"] for r in answer] == ["refused"], (document, key, answer)
            assert "written by people only" in answer[0]["message"], answer
            assert json.loads(tools[f"list_{ident}_rows"].run()) == [], (document, key)


def test_a_status_the_definition_does_not_declare_is_refused(crews: Any, store: Any) -> None:
    for document, (column, values) in STATUS_VALUES.items():
        ident = _tool_ident(document)
        undeclared = "-".join(("not", *values))
        for key in WORKSPACE_AGENTS[document]:
            tools = _workspace_tools(crews, key)
            write = tools[f"write_{ident}_rows"]

            # a person's row (people may own the id column), changed with the version read
            [person] = main.COMMANDS.workspace().write(
                document, [{"id": "t2", "data": {}}], "human"
            )
            refused = json.loads(write.run(rows=[{"id": "t1", "data": {column: undeclared}}]))
            row = {"id": "t2", "version": person.version, "data": {column: values[0]}}
            written = json.loads(write.run(rows=[row]))

            assert [r["outcome"] for r in refused] == ["refused"], (document, key, refused)
            assert "is not a status" in refused[0]["message"], refused
            assert [r["outcome"] for r in written] == ["written"], (document, key, written)
            rows = json.loads(tools[f"list_{ident}_rows"].run())
            assert [r["id"] for r in rows] == ["t2"], rows
            assert json.loads(tools[f"read_{ident}_row"].run(id="t2"))["data"][column] == values[0]


def test_a_run_without_inputs_is_refused_naming_each_required_one() -> None:
    with pytest.raises(ValidationError) as refused:
        team.TeamInputs.model_validate({})

    missing = [error["loc"][0] for error in refused.value.errors() if error["type"] == "missing"]
    assert missing == list(REQUIRED_INPUTS)


# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.screened
    "screened",
)


def test_the_whole_team_runs_offline(tmp_path: Any) -> None:
    """The team's console script runs the team from inputs its TeamInputs accept to its
    result (envelope-runtime's run_offline: scripted models, never a network).
    The manager delegates to each agent (CrewAI's delegation tools).
    """
    run = run_offline(crew.TeamCrew.package, tmp_path)

    assert run.codes[-1] == 0, run.output
    assert tuple(run.output) == OUTPUTS
    team.TeamResult.model_validate(run.output)
    assert run.codes == [0]
    assert run.agents() == set(ROLES)
