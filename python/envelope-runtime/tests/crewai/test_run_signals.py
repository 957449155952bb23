"""SIGTERM's handler is the runner's for a pipeline run only: over one set before, which is
back after, and none off the main thread. SIGTERM sent to a runner at a gate's prompt:
test_resume_safety.py.

Skipped for teams without a pipeline.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import PIPELINE, main, runtime

if not PIPELINE:
    pytest.skip("the team has no pipeline", allow_module_level=True)

from envelope_runtime.crewai import deadline  # noqa: E402

ENDED = (runtime.EXIT_OK, runtime.EXIT_PENDING)


def test_sigterm_is_the_runs_while_it_runs_and_the_hosts_again_after(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Over a handler set before (CrewAI telemetry's raises SystemExit(0): the process ended
    with exit 0, the run not saved as stopped), and that handler back after."""
    seen: list[Any] = []
    run_with_deadline = deadline.run_with_deadline

    def watched(work: Any, limit: deadline.Deadline) -> Any:
        seen.append(signal.getsignal(signal.SIGTERM))
        return run_with_deadline(work, limit)

    monkeypatch.setattr(deadline, "run_with_deadline", watched)

    def host(signum: int, frame: object) -> None:
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, host)
    try:
        code = main.main(helpers.run_argv())
        after = signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert code in ENDED, capsys.readouterr().err
    assert seen and seen[0] not in (host, previous, signal.SIG_DFL)
    assert after is host


def test_a_run_off_the_main_thread_sets_no_handler(
    team_env: dict[str, str], fake_models: FakeModels, capsys: pytest.CaptureFixture[str]
) -> None:
    """Python sets signal handlers from the main thread only: a caller's thread runs it."""
    codes: list[int] = []
    worker = threading.Thread(target=lambda: codes.append(main.main(helpers.run_argv())))
    worker.start()
    worker.join()
    assert len(codes) == 1 and codes[0] in ENDED, capsys.readouterr().err
