"""Our runner's resume of a run whose one gate's timeout halts it while a gate beside it
pauses again (two gates waiting at once, as parallel-gates' are): the run is saved halted,
and without the pause's context, so nothing (`resume`, `Flow.from_pending`) takes it up."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path

import helpers
import pytest
from fake_llm import FakeModels
from project import main, runtime, state, team


def test_a_gate_halting_beside_a_pause_leaves_no_pause_to_resume(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    waiting = list(json.loads(out.out)["gates"]) if code == runtime.EXIT_PENDING else []
    if len(waiting) < 2:
        pytest.skip("no two gates of this team wait at once")
    halting = waiting[0]
    spec = dataclasses.replace(team.GATES[halting], timeout_after="1h", timeout_behaviour="halt")
    monkeypatch.setitem(team.GATES, halting, spec)
    for other in waiting[1:]:  # untimed: they pause again
        untimed = dataclasses.replace(team.GATES[other], timeout_after=None)
        monkeypatch.setitem(team.GATES, other, untimed)
    run_id = json.loads(out.out)["run_id"]
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)

    assert main.main(["sweep"]) == runtime.EXIT_OK

    assert f"gate {halting}: no decision within 1h (halt)" in capsys.readouterr().err
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    assert saved["status"] == "halted"
    assert "pending" not in saved  # what from_pending would resume
    assert main.main(["resume", run_id]) != runtime.EXIT_OK


def test_a_rejection_halting_beside_a_pause_leaves_no_pause_to_resume(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    pending = json.loads(out.out) if code == runtime.EXIT_PENDING else {"gates": {}}
    if len(pending["gates"]) < 2:
        pytest.skip("no two gates of this team wait at once")
    halting = next(iter(pending["gates"]))
    spec = dataclasses.replace(team.GATES[halting], on_reject="halt")
    monkeypatch.setitem(team.GATES, halting, spec)
    items = pending["gates"][halting]["decisions"]
    rejected = {halting: [{"record": i["record"], "action": "reject"} for i in items]}
    path = helpers.write_decisions(tmp_path / "d.json", pending["run_id"], rejected)

    code = main.main(["resume", pending["run_id"], "--decisions", str(path)])

    assert code == runtime.EXIT_HALTED, capsys.readouterr().err
    saved = (Path(".envelope-runs") / f"{pending['run_id']}.json").read_text(encoding="utf-8")
    assert json.loads(saved)["status"] == "halted"
    assert "pending" not in json.loads(saved)  # what from_pending would resume
