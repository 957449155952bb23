"""A pipeline's runs in the database DATABASE_URL names (state.RunStore over
envelope_runtime.database.RunTable), on SQLite and, when ENVELOPE_TEST_DATABASE_URL names a
server, on a PostgreSQL database of its own: what a file held is in a row, redacted alike,
CrewAI's pending-feedback context included; no file is written; `sweep` and `workspace delete
--purge-runs` (StoredRuns) find and remove runs there. The workspace's backend is tested by
tests/workspace/ on the same databases; processes on PostgreSQL by test/realpath."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest

sqlalchemy = pytest.importorskip("sqlalchemy")

from crewai.flow.async_feedback.types import PendingFeedbackContext  # noqa: E402

from envelope_runtime import database  # noqa: E402
from envelope_runtime.crewai.state import RunState, RunStore, StepOutput  # noqa: E402
from envelope_runtime.crewai.workspace_store import StoredRuns  # noqa: E402

SECRET = "s3cret-value-for-tests"


@pytest.fixture(scope="module")
def postgres_server():
    server = os.environ.get("ENVELOPE_TEST_DATABASE_URL")
    if not server:
        pytest.skip("no ENVELOPE_TEST_DATABASE_URL: PostgreSQL is not tested here")
    url = sqlalchemy.make_url(server).set(drivername="postgresql+psycopg")
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    name = f"envelope_runs_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    # As a host gives it: libpq's form, which the library maps to psycopg 3; with a password
    # (the test server trusts local connections, so any will do) that no message may show.
    given = sqlalchemy.make_url(server).set(database=name, password="hunter22")
    yield given.render_as_string(hide_password=False)
    for engine in database._ENGINES.values():
        engine.dispose()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def url(request, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    given = (
        f"sqlite:///{tmp_path / 'runs.db'}"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_server")
    )
    monkeypatch.setenv("DATABASE_URL", given)
    return given


def paused_run() -> RunState:
    run = RunState(id=f"20260101T000000Z-{uuid.uuid4().hex[:6]}", team="t", status="pending")
    run.outputs["draft"] = StepOutput(text=f"the key is {SECRET}", records=[{"k": SECRET}])
    return run


def context_of(run: RunState) -> PendingFeedbackContext:
    return PendingFeedbackContext(
        flow_id=run.id,
        flow_class="team.flow.TeamFlow",
        method_name="review_gate",
        method_output=[{"record": "r1", "k": SECRET}],
        message="decide",
        metadata={"gate": "gate"},
    )


def test_a_paused_run_is_a_redacted_row_and_no_file(url: str, tmp_path: Path) -> None:
    run = paused_run()
    RunStore(tmp_path / "runs", [SECRET]).save_pending_feedback(run.id, context_of(run), run)
    # Another process (another store, another directory) sharing only the URL.
    other = RunStore(tmp_path / "elsewhere", [SECRET])
    state, context = other.load_pending_feedback(run.id)
    assert state["outputs"]["draft"]["text"] == "the key is [redacted]"
    assert context.metadata == {"gate": "gate"} and context.method_name == "review_gate"
    assert SECRET not in other.text(run.id)
    assert json.loads(other.text(run.id))["pending"]["method_output"] == [
        {"record": "r1", "k": "[redacted]"}
    ]
    assert other.load(run.id).status == "pending"
    assert [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix == ".json"] == []
    assert run.id in other.run_ids()
    assert other.where(run.id).startswith(f"run {run.id} in the database at ")
    assert "hunter22" not in other.where(run.id)

    other.clear_pending_feedback(run.id)
    assert other.load_pending_feedback(run.id) is None
    assert other.load(run.id).outputs["draft"].text == "the key is [redacted]"
    with pytest.raises(FileNotFoundError, match="no such run"):
        other.load("20260101T000000Z-absent")


def test_workspace_delete_finds_and_purges_runs_in_the_database(url: str, tmp_path: Path) -> None:
    kept, holding = paused_run(), paused_run()
    holding.inputs = {"email": "ada@example.com"}
    store = RunStore(tmp_path / "runs")
    for run in (kept, holding):
        store.save_state(run.id, "runner", run)
    runs = StoredRuns(tmp_path / "runs")
    assert runs.where.startswith("the database at ")
    found = runs.holding(["ada@example.com"])
    assert found == [f"run {holding.id}"]
    runs.purge(found)
    assert store.load_state(holding.id) is None
    assert store.load_state(kept.id) is not None


def test_sweep_reads_the_database_a_dotenv_names(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sweep` (run from cron, where `.env` holds the settings) looks through the database
    DATABASE_URL names there, not the state directory: a run it cannot read is named by
    its place in the database and skipped."""
    from project import TEAM

    from envelope_runtime.crewai.flow_resume import sweep_runs

    run_id = f"20260101T000000Z-{uuid.uuid4().hex[:6]}"
    database.RunTable(url).write(run_id, "not json")
    monkeypatch.delenv("DATABASE_URL")
    (tmp_path / ".env").write_text(f"DATABASE_URL={url}\n", encoding="utf-8")
    try:
        assert sweep_runs(TEAM, []) == 0
    finally:
        os.environ.pop("DATABASE_URL", None)  # load_dotenv set it for this process
    assert f"run {run_id} in the database at " in capsys.readouterr().err
    database.RunTable(url).remove(run_id)


def test_of_two_processes_resuming_one_run_only_one_goes_on(url: str, tmp_path: Path) -> None:
    run = paused_run()
    RunStore(tmp_path / "a").save_pending_feedback(run.id, context_of(run), run)
    from envelope_runtime.crewai.flow_resume import ClaimingStore

    first, second = ClaimingStore(tmp_path / "a"), ClaimingStore(tmp_path / "b")
    assert first.load(run.id).status == second.load(run.id).status == "pending"
    assert first.claim(run.id)
    assert not second.claim(run.id)  # it read the run before the first took it
    assert second.load(run.id).status == "running"
    assert second.load_pending_feedback(run.id) is not None  # CrewAI's context, for the first


def test_workspace_delete_purges_the_runs_of_a_value_json_escapes(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _purges_escaped_values(tmp_path, capsys)


def test_workspace_delete_purges_the_file_runs_of_a_value_json_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _purges_escaped_values(tmp_path, capsys)


def _purges_escaped_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A value with a quote and a backslash is escaped where it is stored, once in a run's
    JSON, twice where an agent's answer quoting a tool's JSON is kept in it (a run's step
    output, CrewAI's record of the kickoff's task outputs): every run holding it is found."""
    from crewai.memory.storage.kickoff_task_outputs_storage import (
        KickoffTaskOutputsSQLiteStorage,
    )

    from envelope_runtime import workspace as ws_module

    value = 'Ann "the Boss" O\\Neil'
    spec = ws_module.DocumentSpec(
        "people",
        (ws_module.Column("key", "human", id=True), ws_module.Column("name", "human", pii=True)),
    )
    ws = ws_module.Workspace({"people": spec}, ws_module.SqliteBackend(tmp_path / "ws.sqlite"))
    ws.write("people", [{"data": {"key": "p1", "name": value}}], "human")
    read = json.dumps({"rows": [{"id": "p1", "data": {"key": "p1", "name": value}}]})
    kept, given, answered = paused_run(), paused_run(), paused_run()
    given.inputs = {"name": value}
    answered.outputs["draft"] = StepOutput(text=f"I read {read}")
    store = RunStore(tmp_path / "runs")
    for run in (kept, given, answered):
        store.save_state(run.id, "runner", run)
    task = type("Task", (), {"id": "t1", "key": "k1", "expected_output": "rows"})()
    kickoff = KickoffTaskOutputsSQLiteStorage()
    kickoff.add(task, {"raw": f"I read {read}", "agent": "a"}, 0)
    runs = StoredRuns(tmp_path / "runs")
    assert sorted(runs.holding(ws_module.pii_needles(spec, ws.row("people", "p1")))) == sorted(
        [f"run {given.id}", f"run {answered.id}", "kickoff task t1"]
    )
    argv = ["delete", "people", "p1", "--purge-runs"]
    assert ws_module.workspace_command(argv, ws, "t", runs) == 0
    assert "deleted 3 stored runs" in capsys.readouterr().out
    left = store.run_ids()  # PostgreSQL's database holds the module's other tests' runs too
    assert kept.id in left and given.id not in left and answered.id not in left
    assert kickoff.load() in (None, [])


@pytest.mark.parametrize("swept, code", [(False, 2), (True, 0)])
def test_resume_does_nothing_when_another_process_took_the_run_meanwhile(
    url: str,
    tmp_path: Path,
    team_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    swept: bool,
    code: int,
) -> None:
    """`sweep` from cron on two machines, or two reviewers: both read the waiting run; the
    one whose claim comes second runs nothing (an error for a person, not for sweep)."""
    from project import PIPELINE, TEAM

    if not PIPELINE:
        pytest.skip("a hierarchy team's runs are crews: there is no paused flow to resume")

    from envelope_runtime.crewai import flow_resume

    run = paused_run()
    RunStore(tmp_path / "runs").save_pending_feedback(run.id, context_of(run), run)
    load = RunStore.load

    def read_then_lose(self: RunStore, run_id: str) -> RunState:
        loaded = load(self, run_id)
        other = flow_resume.ClaimingStore(tmp_path / "elsewhere")
        load(other, run_id)
        assert other.claim(run_id)
        return loaded

    ran: list[str] = []

    def run_flow(*args: Any) -> int:
        refused: int | None = args[-1]()  # the claim: _run_flow's first step
        if refused is None:
            ran.append("ran")
        return refused or 0

    monkeypatch.setattr(RunStore, "load", read_then_lose)
    monkeypatch.setattr(flow_resume, "_run_flow", run_flow)
    argv = [run.id, "--no-interactive", "--state-dir", str(tmp_path / "runs")]
    assert flow_resume.resume_run(TEAM, argv, swept=swept) == code
    assert ran == []
    assert "resumed by another process meanwhile" in capsys.readouterr().err


def test_a_database_error_shows_no_row_values(tmp_path: Path) -> None:
    """SQLAlchemy's errors quote a statement's parameters: a failed write would put a row's
    values (PII the workspace masks) in the message an agent's tool answer or a log shows."""
    backend = database.SqlBackend(f"sqlite:///{tmp_path / 'rows.db'}")
    database.ROWS.drop(backend.engine)  # any failure of the statement will do
    record = {"id": "ada@example.com", "version": 1, "phone": "+44 20 7946 0958"}
    with pytest.raises(sqlalchemy.exc.DBAPIError) as raised:
        backend.put("leads", "ada@example.com", record, 0)
    assert "envelope_workspace_rows" in str(raised.value)
    assert "ada@example.com" not in str(raised.value)
    assert "7946" not in str(raised.value)


def test_a_forced_resume_that_loses_the_claim_does_not_say_it_goes_on(
    url: str,
    tmp_path: Path,
    team_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`resume --force` of a run left running that another process claims first: only the
    refusal is said, not that the run goes on here (said once the claim succeeds)."""
    from project import PIPELINE, TEAM

    if not PIPELINE:
        pytest.skip("a hierarchy team's runs are crews: there is no paused flow to resume")

    from envelope_runtime.crewai import flow_resume

    run = paused_run()
    RunStore(tmp_path / "runs").save_pending_feedback(run.id, context_of(run), run)
    run.status = "running"  # left running by a process that is gone
    RunStore(tmp_path / "runs").save_state(run.id, "runner", run)
    load = RunStore.load

    def read_then_lose(self: RunStore, run_id: str) -> RunState:
        loaded = load(self, run_id)
        other = flow_resume.ClaimingStore(tmp_path / "elsewhere")
        load(other, run_id)
        assert other.claim(run_id, "taken over by another machine")
        return loaded

    monkeypatch.setattr(RunStore, "load", read_then_lose)
    monkeypatch.setattr(flow_resume, "_run_flow", lambda *args: args[-1]() or 0)
    argv = [run.id, "--no-interactive", "--force", "--state-dir", str(tmp_path / "runs")]
    assert flow_resume.resume_run(TEAM, argv) == 2
    err = capsys.readouterr().err
    assert "resumed by another process meanwhile" in err
    assert "goes on here" not in err
