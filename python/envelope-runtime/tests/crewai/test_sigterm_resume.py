"""A run ended by SIGTERM is treated as one ended by Ctrl-C: `sweep` stops there (a CI runner
cancelling the sweep, docker stop), and a resume with --decisions says it was interrupted, not
that it stopped on an error.

Skipped for teams without gates.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import TEAM, main, runtime, state, team

if not team.GATES or team.MODE != "pipeline":
    pytest.skip("the team has no gates", allow_module_level=True)

from envelope_runtime.crewai import flow_resume  # noqa: E402
from envelope_runtime.crewai.flow_runner import EXIT_TERMINATED, TERMINATED  # noqa: E402


def _pending(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    return json.loads(out.out)  # type: ignore[no-any-return]


def test_sigterm_stops_the_sweep(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour="halt")
        monkeypatch.setitem(team.GATES, name, timed)
    _pending(capsys), _pending(capsys)
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    resumed: list[str] = []

    def terminated(package: Any, argv: list[str], *, swept: bool = False) -> int:
        resumed.append(argv[0])
        return EXIT_TERMINATED

    monkeypatch.setattr(flow_resume, "resume_run", terminated)

    assert flow_resume.sweep_runs(TEAM, []) == EXIT_TERMINATED
    assert len(resumed) == 1, capsys.readouterr().err


def test_a_run_ended_by_sigterm_says_so_to_a_resume_with_decisions(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    pending = _pending(capsys)
    saved = Path(".envelope-runs") / f"{pending['run_id']}.json"
    document = json.loads(saved.read_text("utf-8"))
    document.update(status="failed", message=TERMINATED)  # as the runner saves it
    saved.write_text(json.dumps(document), "utf-8")
    path = helpers.write_decisions(
        tmp_path / "d.json", pending["run_id"], helpers.approve_all(pending)
    )

    code = main.main(["resume", pending["run_id"], "--decisions", str(path)])

    err = capsys.readouterr().err
    assert code == runtime.EXIT_CONFIG, err
    assert "it was interrupted; resume it without --decisions" in err
