"""The workspace documents of a CrewAI export (workspace_tools.py, the runner's `workspace` and
`watch`): the agents' tools and people's commands share one store, and `watch --once` runs
the team once per status change with the triggering row in its task. The store's own rules
are python-common's (python/envelope-runtime/tests/workspace/); everything here derives
from team.WORKSPACE."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import crew, main, team

WORKSPACE: dict[str, Any] = getattr(team, "WORKSPACE", {})
pytestmark = pytest.mark.skipif(not WORKSPACE, reason="the team has no workspace documents")


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "store" / "workspace.sqlite3"
    monkeypatch.setenv("ENVELOPE_WORKSPACE_DB", str(path))
    return path


def _holder_tools(team_crew: Any, agent_key: str) -> dict[str, Any]:
    """The tools through which the agent works on its documents, in the crew of a run: its
    own, or the crew's manager's Requests worker's (CrewAI allows a manager no tools)."""
    role = helpers.roles()[agent_key]
    agents = [*team_crew.agents, *([team_crew.manager_agent] if team_crew.manager_agent else [])]
    for wanted in (f"{role} Requests", role):
        for agent in agents:
            if agent.role == wanted and agent.tools:
                return {tool.name: tool for tool in agent.tools}
    return {}


def _writable(spec: Any) -> Any:
    """A string column agents write that is neither the id nor a status column, if any."""
    return next(
        (
            c
            for c in spec.columns
            if c.owner != "human"
            and c.type == "string"
            and not c.id
            and c.name not in spec.status_columns
        ),
        None,
    )


def test_a_row_an_agent_writes_is_what_people_s_commands_show(
    team_env: dict[str, str],
    fake_models: FakeModels,
    store: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    team_crew = crew.TeamCrew(helpers.valid_inputs()).crew()
    checked = 0
    for name, spec in WORKSPACE.items():
        column = _writable(spec)
        reached = [k for k in spec.agents if _holder_tools(team_crew, k)]
        if column is None or not reached:
            continue
        ident = name.replace("-", "_")
        tools = _holder_tools(team_crew, reached[0])
        data = {column.name: f"written by {reached[0]}"}
        row: dict[str, Any] = {"id": "r1", "data": data}
        people_create = spec.id_column is not None and spec.column(spec.id_column).owner == "human"
        if people_create:  # agents create no row whose id column is people's: a person does
            assert main.main(["workspace", "edit", name, "r1", f"{spec.id_column}=r1"]) == 0
            row["version"] = 1

        answer = json.loads(tools[f"write_{ident}_rows"].run(rows=[row]))
        assert [r["outcome"] for r in answer] == ["written"], answer
        capsys.readouterr()
        assert main.main(["workspace", "show", name, "r1", "--show-pii"]) == 0

        shown = json.loads(capsys.readouterr().out)
        assert shown["data"][column.name] == f"written by {reached[0]}"
        assert shown["version"] == (2 if people_create else 1)
        checked += 1
    assert store.exists() == bool(checked)
    if not checked:
        pytest.skip("no document has a column its agents write besides the id and status")


def _run_trigger() -> tuple[str, Any] | None:
    for name, spec in WORKSPACE.items():
        for trigger in spec.triggers:
            if trigger.action == "run":
                return name, trigger
    return None


def test_watch_once_runs_the_team_once_with_the_row_that_fired(
    team_env: dict[str, str],
    fake_models: FakeModels,
    store: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    found = _run_trigger()
    if found is None:
        pytest.skip("no workspace trigger runs the team")
    name, trigger = found
    if team.MODE == "pipeline":
        helpers.approve_everything(monkeypatch)
    assert main.main(["workspace", "edit", name, "w1", f"{trigger.column}={trigger.status}"]) == 0
    watch = ["watch", "--once", "--", *helpers.run_argv(interactive=True)]

    assert main.main(watch) == 0, capsys.readouterr().err
    first = list(fake_models.calls)
    assert main.main(watch) == 0, capsys.readouterr().err

    assert first, "watch ran nothing"
    fired = [c for c in first if "Workspace rows that triggered this run" in c.text()]
    assert fired, [c.text()[:300] for c in first]
    text = fired[0].text()
    start = text.index("Workspace rows that triggered this run (JSON):\n")
    row, _ = json.JSONDecoder().raw_decode(text, text.index("[", start))
    assert [(r["document"], r["row"]["id"]) for r in row] == [(name, "w1")]
    assert row[0]["trigger"] == {"column": trigger.column, "status": trigger.status}
    assert fake_models.calls == first, "the second watch ran the team again"
