"""SIGTERM is the runner's from before a run is saved `running` until what became of it is
saved, and through a resume's setup and a sweep's loop: never CrewAI telemetry's handler,
whose SystemExit(0) ends the process with exit 0 and leaves the run `running`. Delivered
in-process, at the moment named, over a handler that does what telemetry's does (the tests
turn telemetry off, so its own is not set). Ctrl-C at those moments ends them alike (130).

Skipped for teams that are not pipelines (the sweep and resume cases: without gates).
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import TEAM, main, runtime, state, team

if team.MODE != "pipeline":
    pytest.skip("the team is not a pipeline", allow_module_level=True)

from envelope_runtime.crewai import flow_resume  # noqa: E402
from envelope_runtime.crewai.flow_runner import (  # noqa: E402
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    INTERRUPTED,
    TERMINATED,
)

gated = pytest.mark.skipif(not team.GATES, reason="the team has no gates")


def _saved(run_id: str) -> dict[str, Any]:
    path = Path(".envelope-runs") / f"{run_id}.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _telemetrys_handler() -> Iterator[None]:
    def exit_0(signum: int, frame: object) -> None:
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, exit_0)
    yield
    signal.signal(signal.SIGTERM, previous)


def _pending(capsys: pytest.CaptureFixture[str]) -> str:
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    return json.loads(out.out)["run_id"]  # type: ignore[no-any-return]


def _only_run() -> str:
    (path,) = Path(".envelope-runs").glob("*.json")
    return path.stem


def _terminate() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def _stop(stop: str) -> None:
    """SIGTERM delivered here, or Ctrl-C (Python's SIGINT handler raises KeyboardInterrupt)."""
    if stop == "ctrl-c":
        raise KeyboardInterrupt
    _terminate()


_EXIT = {"sigterm": EXIT_TERMINATED, "ctrl-c": EXIT_INTERRUPTED}
_MESSAGE = {"sigterm": TERMINATED, "ctrl-c": INTERRUPTED}


@pytest.fixture(params=["sigterm", "ctrl-c"])
def stop(request: pytest.FixtureRequest) -> str:
    """How the process is stopped: SIGTERM (docker stop, systemd) or Ctrl-C."""
    return str(request.param)


def _two_runs_past_their_deadline(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> set[str]:
    """Two paused runs whose gates' timeout (1h, halt) has passed: a sweep resumes both."""
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour="halt")
        monkeypatch.setitem(team.GATES, name, timed)
    runs = {_pending(capsys), _pending(capsys)}
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    return runs


def _main(argv: list[str]) -> int:
    try:
        return main.main(argv)  # type: ignore[no-any-return]
    except KeyboardInterrupt:  # not pytest's to take as the session's Ctrl-C
        pytest.fail("Ctrl-C escaped the runner")


def test_sigterm_as_the_run_is_saved_running_saves_it_terminated_and_a_second_waits(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    save = state.RunStore.save_state
    sent: list[str] = []

    def saving(store: Any, run_id: str, method: str, data: Any) -> None:
        save(store, run_id, method, data)
        # Once as it is saved running, again as it is saved stopped (ignored: it is saved).
        if method == "runner" and data.status in ("running", "failed"):
            sent.append(data.status)
            _terminate()

    monkeypatch.setattr(state.RunStore, "save_state", saving)

    code = main.main(helpers.run_argv())

    err = capsys.readouterr().err
    assert code == EXIT_TERMINATED, err
    assert sent == ["running", "failed"]
    saved = _saved(_only_run())
    assert (saved["status"], saved["message"]) == ("failed", TERMINATED)
    assert "continue from the last finished step" in err


@gated
def test_a_stop_in_a_resumes_setup_ends_it_the_run_still_waiting(
    stop: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_id = _pending(capsys)
    monkeypatch.setattr(flow_resume.ClaimingStore, "claim", lambda *_: _stop(stop) or True)

    code = _main(["resume", run_id, "--no-interactive"])

    err = capsys.readouterr().err
    assert code == _EXIT[stop], err
    assert f"Run {run_id} not resumed: {_MESSAGE[stop]}; it is as it was" in err
    assert _saved(run_id)["status"] == "pending"


@gated
def test_a_stop_between_two_runs_of_a_sweep_ends_it(
    stop: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    runs = _two_runs_past_their_deadline(monkeypatch, capsys)
    resumed: list[str] = []
    stopped: list[str] = []
    printed = print

    def resume(package: Any, argv: list[str], *, swept: bool = False) -> int:
        resumed.append(argv[0])
        return runtime.EXIT_OK

    def announced(*args: Any, **kwargs: Any) -> None:
        printed(*args, **kwargs)
        if resumed and not stopped:  # as the next run is named, after one is done
            stopped.append(stop)
            _stop(stop)

    monkeypatch.setattr(flow_resume, "resume_run", resume)
    monkeypatch.setattr(flow_resume, "print", announced, raising=False)

    try:
        code = flow_resume.sweep_runs(TEAM, [])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped the sweep")

    err = capsys.readouterr().err
    assert code == _EXIT[stop], err
    (left,) = runs - set(resumed)
    assert f"Sweep stopped: {_MESSAGE[stop]}; runs not resumed (as they were): {left}" in err
    assert {_saved(run_id)["status"] for run_id in runs} == {"pending"}


@gated
def test_a_stop_in_a_resume_ends_a_sweep_naming_the_runs_left(
    stop: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The resume says what became of its run; the sweep names the runs it did not resume,
    or none left after its last one."""
    runs = _two_runs_past_their_deadline(monkeypatch, capsys)
    resumed: list[str] = []

    def resume(package: Any, argv: list[str], *, swept: bool = False) -> int:
        resumed.append(argv[0])
        return _EXIT[stop]  # stopped in it

    monkeypatch.setattr(flow_resume, "resume_run", resume)
    code = flow_resume.sweep_runs(TEAM, [])
    (left,) = runs - set(resumed)
    expected = f"Sweep stopped: {_MESSAGE[stop]}; runs not resumed (as they were): {left}"
    assert code == _EXIT[stop]
    assert expected in capsys.readouterr().err

    # The other run, now the only one due: stopped in its resume, none is left.
    monkeypatch.setattr(state.RunStore, "run_ids", lambda store: [left])
    assert flow_resume.sweep_runs(TEAM, []) == _EXIT[stop]
    assert "runs not resumed (as they were): none left" in capsys.readouterr().err


def _resumed_stopped_as_saved(
    stop: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    say: bool = False,
) -> tuple[str, int, str]:
    """A paused run resumed (it pauses again), stopped as its outcome is saved (before the
    save: Ctrl-C and SIGTERM sent again as it is saved stopped), or once saved, as it is
    said (`say`): the run id, the exit code, stderr."""
    from envelope_runtime.crewai import flow_runner

    run_id = _pending(capsys)
    save, printed = state.RunStore.save_state, print
    stops: list[str] = []

    def saving(store: Any, flow_uuid: str, method_name: str, state_data: Any) -> None:
        method, data = method_name, state_data
        if method == "runner" and data.status != "running" and not say:
            if stops:  # saved stopped: what comes now waits until it is saved
                os.kill(os.getpid(), signal.SIGINT)
                _terminate()
            else:
                stops.append(stop)
                _stop(stop)
        save(store, flow_uuid, method, data)

    def saying(*args: Any, **kwargs: Any) -> None:
        if not stops:
            stops.append(stop)
            _stop(stop)
        printed(*args, **kwargs)

    monkeypatch.setattr(state.RunStore, "save_state", saving)
    if say:
        monkeypatch.setattr(flow_runner, "print", saying, raising=False)
    code = _main(["resume", run_id, "--no-interactive"])
    return run_id, code, capsys.readouterr().err


@gated
def test_a_stop_as_a_resumed_runs_outcome_is_saved_saves_it_stopped(
    stop: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_id, code, err = _resumed_stopped_as_saved(stop, monkeypatch, capsys)

    assert code == _EXIT[stop], err
    assert (_saved(run_id)["status"], _saved(run_id)["message"]) == ("failed", _MESSAGE[stop])
    assert "continue from the last finished step" in err and "not resumed" not in err


@gated
def test_a_stop_as_a_resumed_runs_saved_outcome_is_said_leaves_it_saved(
    stop: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_id, code, err = _resumed_stopped_as_saved(stop, monkeypatch, capsys, say=True)

    assert code == _EXIT[stop], err
    assert _saved(run_id)["status"] == "pending"  # paused again, as saved
    assert f"Run {run_id}: {_MESSAGE[stop]}; what became of it is saved" in err
    assert "not resumed" not in err


@gated
def test_a_stop_as_a_resume_claims_the_runs_row_saves_the_run_stopped(
    stop: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """With DATABASE_URL the claim sets the run's row `running`: a stop that comes as it
    does, before the flow starts, saves the run stopped (resumable), not `running` for good."""
    pytest.importorskip("sqlalchemy")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'runs.db'}")
    run_id = _pending(capsys)
    claim = flow_resume.ClaimingStore.claim

    def claimed(store: Any, run_id: str, note: str | None = None) -> bool:
        taken = claim(store, run_id, note)
        _stop(stop)  # as the claim returns
        return taken

    monkeypatch.setattr(flow_resume.ClaimingStore, "claim", claimed)

    code = _main(["resume", run_id, "--no-interactive"])

    err = capsys.readouterr().err
    assert code == _EXIT[stop], err
    saved = state.RunStore.of(team).load(run_id)
    assert (saved.status, saved.message) == ("failed", _MESSAGE[stop])
    assert "continue from the last finished step with: " in err and f"resume {run_id}" in err
