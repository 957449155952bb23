"""Two gates waiting at once, one past its deadline: a sweep, or a resume without decisions,
applies its timeout.behaviour whether the other waits on (no deadline) or is past its own
deadline too and waits again for a new round. CrewAI pauses at one gate of the two, so its
runner had to be made to reach the other (tests/crewai/test_gate_beside_timeout.py); here
every waiting gate is an interrupt of the thread, each answered by the resume.

Skipped unless the team's run waits at two gates at once.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from typing import Any

import helpers
import pytest
from fakes import FakeBoard, structured
from project import gates, main, pipeline, runtime, team

pytestmark = pytest.mark.anyio

if gates is None or len(team.GATES) < 2:
    pytest.skip("the team has fewer than two gates", allow_module_level=True)


def _timed(name: str, monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    monkeypatch.setitem(team.GATES, name, dataclasses.replace(team.GATES[name], **changes))


@pytest.mark.parametrize("behaviour", ["halt", "proceed", "escalate"])
@pytest.mark.parametrize("other_due", [False, True], ids=["other-waits", "other-due-too"])
@pytest.mark.parametrize("command", ["sweep", "resume"])
async def test_the_timeout_of_one_of_two_waiting_gates_applies(
    command: str,
    behaviour: gates.TimeoutBehaviour,
    other_due: bool,
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Deadlines are set before the run: a gate's escalation node is built only for a gate
    # that may escalate. Which gates wait together is known only once the run waits.
    for name in team.GATES:
        _timed(name, monkeypatch, timeout_after="1h", timeout_behaviour=behaviour)
    if behaviour == "escalate" and any(
        pipeline.escalate_node(name) not in helpers.build(board).nodes for name in team.GATES
    ):
        pytest.skip("a gate of the team never escalates: its graph has no escalation node")
    code = await main.amain(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    summary: dict[str, Any] = json.loads(out.out)
    if len(summary["gates"]) < 2:
        pytest.skip("no two gates of the team wait at once")
    other, late = list(summary["gates"])[:2]
    for name in team.GATES:
        if name != late and (name != other or not other_due):
            _timed(name, monkeypatch, timeout_after=None, timeout_behaviour=None)
    if other_due:  # its manager rejects every record: it waits again, for a new round
        _timed(other, monkeypatch, timeout_behaviour="escalate", on_reject="rerun")
        records = summary["gates"][other]["records"]
        rejected = [{"record": r["record"], "action": "reject", "feedback": "no"} for r in records]
        board.script_task(f"escalate:{other}", structured({"decisions": rejected}))
    if behaviour == "escalate":
        records = summary["gates"][late]["records"]
        approved = [{"record": r["record"], "action": "approve", "feedback": "ok"} for r in records]
        board.script_task(f"escalate:{late}", structured({"decisions": approved}))
    later = runtime.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)
    thread_id = summary["thread_id"]

    code = await main.amain(["sweep"] if command == "sweep" else ["resume", thread_id])

    out = capsys.readouterr()
    swept = command == "sweep"  # a sweep's exit says only whether a resume failed
    if behaviour == "halt":
        assert code == (runtime.EXIT_OK if swept else runtime.EXIT_HALTED), out.err
        assert f"gate {late}: no decision within 1h (halt)" in out.err
        return
    assert code == (runtime.EXIT_OK if swept else runtime.EXIT_PENDING), out.err
    waiting = json.loads(out.out)["gates"]
    assert other in waiting and late not in waiting, out.err
    if other_due:
        assert waiting[other]["round"] == 2, waiting
    if behaviour == "escalate":
        assert board.calls_for_task(f"escalate:{late}"), out.err
    assert await main.amain(["sweep"]) == runtime.EXIT_OK
    assert "No gate is past its deadline." in capsys.readouterr().err
