"""A gate waiting beside the one CrewAI paused at (parallel steps; one pending feedback at a
time) times out too: a sweep, or a resume, applies its timeout.behaviour even when the paused
gate waits on, not yet due, or due and waiting again for a new round after its own timeout.

Skipped unless the team's run waits at two gates at once.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels, final
from project import gates, main, runtime, state, team

if team.MODE != "pipeline" or len(team.GATES) < 2:
    pytest.skip("the team has fewer than two gates", allow_module_level=True)


def _saved(run_id: str) -> dict[str, Any]:
    return json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))


def _paused_and_beside(capsys: pytest.CaptureFixture[str]) -> tuple[str, str, str]:
    """Start a run that waits at two gates at once: its id, the paused gate, one beside."""
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    pending: dict[str, Any] = json.loads(out.out)
    if len(pending["gates"]) < 2:
        pytest.skip("no two gates of the team wait at once")
    run_id = pending["run_id"]
    paused = _saved(run_id)["pending"]["metadata"]["gate"]
    beside = next(name for name in pending["gates"] if name != paused)
    return run_id, paused, beside


def _timed(name: str, monkeypatch: pytest.MonkeyPatch, **changes: Any) -> gates.GateSpec:
    spec = dataclasses.replace(team.GATES[name], **changes)
    monkeypatch.setitem(team.GATES, name, spec)
    return spec


@pytest.mark.parametrize("behaviour", ["halt", "proceed", "escalate"])
@pytest.mark.parametrize("paused_due", [False, True], ids=["paused-waits", "paused-due-too"])
@pytest.mark.parametrize("command", ["sweep", "resume"])
def test_the_timeout_of_a_gate_waiting_beside_the_paused_one_applies(
    command: str,
    behaviour: gates.TimeoutBehaviour,
    paused_due: bool,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_id, paused, beside = _paused_and_beside(capsys)
    for name in team.GATES:
        if name not in (paused, beside):  # a third gate keeps no deadline here
            _timed(name, monkeypatch, timeout_after=None, timeout_behaviour=None)
    # The paused gate: no deadline, or one that passed whose manager rejects every record,
    # so that it waits again (a new round) after its own timeout.
    if paused_due:
        _timed(paused, monkeypatch, timeout_after="1h", timeout_behaviour="escalate")
        records = _saved(run_id)["gates"][paused]["records"]
        rejected = [{"record": r["id"], "action": "reject", "feedback": "no"} for r in records]
        fake_models.script_task(f"escalate:{paused}", final({"decisions": rejected}))
    else:
        _timed(paused, monkeypatch, timeout_after=None, timeout_behaviour=None)
    _timed(beside, monkeypatch, timeout_after="1h", timeout_behaviour=behaviour)
    records = _saved(run_id)["gates"][beside]["records"]
    if behaviour == "escalate":
        approved = [{"record": r["id"], "action": "approve", "feedback": "ok"} for r in records]
        fake_models.script_task(f"escalate:{beside}", final({"decisions": approved}))
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)

    code = main.main(["sweep"] if command == "sweep" else ["resume", run_id])

    err = capsys.readouterr().err
    saved = _saved(run_id)
    gate = saved["gates"][beside]
    swept = command == "sweep"  # a sweep's exit says only whether a resume failed
    if behaviour == "halt":
        assert code == (runtime.EXIT_OK if swept else runtime.EXIT_HALTED), err
        assert f"gate {beside}: no decision within 1h (halt)" in err
        assert (saved["status"], gate["status"]) == ("halted", "halted")
        return
    assert code == (runtime.EXIT_OK if swept else runtime.EXIT_PENDING), err
    assert saved["status"] == "pending", err  # the paused gate waits on
    assert saved["gates"][paused]["status"] == "waiting"
    assert gate["status"] == "released", err
    decided = {r["id"]: (r["decision"], r["decided_by"]) for r in gate["records"]}
    if behaviour == "proceed":
        assert set(decided.values()) == {("approve", "timeout")}, decided
    else:
        manager = fake_models.calls_for_task(f"escalate:{beside}")
        assert manager, err
        assert {d for d, _ in decided.values()} == {"approve"}, decided
    # Nothing is due any more: a second sweep resumes nothing.
    assert main.main(["sweep"]) == runtime.EXIT_OK
    assert "No gate is past its deadline." in capsys.readouterr().err
