"""Decisions given after a gate's deadline lose to its timeout (the README says so), and are
named as such: the runner says they came late and were not applied, and keeps the decisions
file that holds them; the gate's message (its state, the halt) says so too. A resume without
decisions (a sweep) says nothing of them."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fakes import FakeBoard
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from project import gates, main, runtime, team

pytestmark = pytest.mark.anyio

if gates is None or not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

import test_parallel_gates as parallel  # noqa: E402 - its synthetic pipelines

LATE = "decisions given after the gate's deadline (timeout.after 1h, waiting since "


def _timed(monkeypatch: pytest.MonkeyPatch, behaviour: gates.TimeoutBehaviour) -> None:
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour=behaviour)
        monkeypatch.setitem(team.GATES, name, timed)


def _later(monkeypatch: pytest.MonkeyPatch) -> None:
    later = runtime.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)


async def _pause(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = await main.amain(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    summary: dict[str, Any] = json.loads(out.out)
    return summary


@pytest.mark.parametrize("behaviour", ["halt", "proceed"])
async def test_a_late_decisions_file_is_named_not_applied_and_kept(
    behaviour: gates.TimeoutBehaviour,
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _timed(monkeypatch, behaviour)
    summary = await _pause(capsys)
    path = Path(summary["decisions_file"])
    text = json.dumps(helpers.approve_pending(summary))
    path.write_text(text, encoding="utf-8")
    _later(monkeypatch)

    code = await main.amain(["resume", summary["thread_id"], "--decisions", str(path)])

    err = capsys.readouterr().err
    # Every gate the file gave late decisions is named (several wait at once in a team with
    # parallel gated steps), the file that keeps them once, with all of them.
    for name in summary["gates"]:
        assert f"gate {name}: {LATE}" in err
    assert f"were not applied: timeout.behaviour {behaviour} applies instead" in err
    assert err.count(f"{path} keeps them") == 1, err
    several = len(summary["gates"]) > 1
    whose = f" (gates {', '.join(summary['gates'])})" if several else ""
    assert f"; {path} keeps them{whose}\n" in err, err
    name = next(iter(summary["gates"]))
    if behaviour == "halt":
        assert code == runtime.EXIT_HALTED, err
        assert f"gate {name}: no decision within 1h (halt); {LATE}" in err
    # A later pause (proceed: the next gates wait) writes its template beside it, not over it.
    aside = path.with_name(f"{path.name}.1")
    assert text in [p.read_text(encoding="utf-8") for p in (path, aside) if p.is_file()], err


async def test_a_sweep_names_no_late_decisions(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _timed(monkeypatch, "halt")
    await _pause(capsys)
    _later(monkeypatch)

    assert await main.amain(["sweep"]) == runtime.EXIT_OK

    err = capsys.readouterr().err
    assert "no decision within 1h (halt)" in err and "decisions given" not in err


@pytest.mark.parametrize("given", [True, False], ids=["decisions", "none"])
async def test_a_gate_that_proceeds_on_a_late_resume_says_so_in_its_message(
    given: bool, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Through the LangGraph API (a server's client): only the gate's state tells.
    parallel._two_parallel_gates(monkeypatch, "skip", tracks=1)
    _timed(monkeypatch, "proceed")
    g = helpers.wire(board.model_for, InMemorySaver())
    await g.ainvoke(helpers.start(), helpers.config())
    (interrupt,) = (await g.aget_state(helpers.config())).interrupts
    _later(monkeypatch)

    items = helpers.approvals(interrupt.value, "reject") if given else []
    await g.ainvoke(Command(resume={interrupt.id: {"decisions": items}}), helpers.config())

    gate = gates.GateState.model_validate(
        (await g.aget_state(helpers.config())).values["gates"]["g1"]
    )
    assert gate.status == "released" and len(gate.approved()) == len(gate.records)
    assert gate.message is not None
    assert gate.message.startswith("gate g1: no decision within 1h (proceed: ")
    assert (f"; {LATE}" in gate.message) is given
