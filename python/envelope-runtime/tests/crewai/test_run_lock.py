"""A pipeline run's lock file goes when its process lets go of the run, without two
processes ever holding two files of one name (crewai.run_files.RunLock).

Skipped for teams without a pipeline.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import helpers
import pytest
from fake_llm import FakeModels
from project import PIPELINE, main, runtime, state, team

if not PIPELINE:
    pytest.skip("the team has no pipeline", allow_module_level=True)

from envelope_runtime.crewai.run_files import RunLock  # noqa: E402
from envelope_runtime.crewai.runner import STATE_DIR  # noqa: E402

ENDED = (runtime.EXIT_OK, runtime.EXIT_PENDING)


def test_a_run_leaves_no_lock_file(
    team_env: dict[str, str], fake_models: FakeModels, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main.main(helpers.run_argv())
    assert code in ENDED, capsys.readouterr().err
    assert [p.name for p in Path(STATE_DIR).iterdir() if p.name.endswith(".lock")] == []


def test_a_lock_file_removed_under_a_waiting_process_is_not_held_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The classic flock + unlink race: B opens the lock file, A (its holder) removes it and
    lets go, B locks the removed file. B must take the path's new file, so that C, coming
    after, finds the run held."""
    store = state.RunStore.of(team)
    a, b, c = (RunLock(store, "run-1") for _ in range(3))
    assert a.acquire() is True
    flock = fcntl.flock
    released: list[bool] = []

    def a_lets_go_first(fd: int, operation: int) -> None:
        if not released:  # between B's open and B's flock
            released.append(True)
            a.release()
        flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", a_lets_go_first)
    assert b.acquire() is True
    monkeypatch.setattr(fcntl, "flock", flock)
    try:
        assert released
        assert c.acquire() is False
        assert str(os.getpid()) in c.holder()
    finally:
        b.release()
    assert not b.path.exists()
    assert c.acquire() is True
    c.release()
