"""A gate whose escalation would go to the reviewed step's own agent (the entry agent: its
manager, else the entry agent, is itself) halts the run instead: no agent approves its own
work. Each of this team's gates is made such a gate here, its step's agent made the first
root.

Skipped for teams without gates (whose exports have no gates.py).
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import helpers
import pytest
from fakes import FakeBoard
from project import gates, runtime, team

pytestmark = pytest.mark.anyio

if gates is None or not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

GATE_NAMES = list(team.GATES)


def _own_manager(spec: gates.GateSpec, monkeypatch: pytest.MonkeyPatch) -> str:
    """The agent of the gate's step, made the team's first root; its key."""
    agent = team.PIPELINE[spec.after_step].agent_key
    first = {agent: dataclasses.replace(team.AGENTS[agent], reports_to=None)}
    monkeypatch.setattr(team, "AGENTS", {**first, **team.AGENTS} | first)
    return agent


async def _halted(g: helpers.Graph, board: FakeBoard, name: str, agent: str) -> str:
    """The run's halt message, once it halted at gate `name` with no escalation."""
    spec = team.GATES[name]
    halted = await g.aget_state(helpers.config())
    message = str(halted.values["halted"])
    why = f"the escalation would go to {agent}, the agent of step {spec.after_step} itself"
    assert message.startswith(f"gate {name}: ") and why in message, message
    assert message.endswith("no agent approves its own work")
    assert halted.next == () and halted.values.get("result") is None
    assert board.calls_for_task(f"escalate:{name}") == []
    assert board.calls_for_task(f"revise:{name}") == []
    assert board.calls_for_task(spec.triggers_step) == []
    stored = halted.values["gates"][name]
    assert stored["status"] == "halted" and stored["message"] == message
    assert not any(r["decided_by"] == f"agent:{agent}" for r in stored["records"])
    return message


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_a_timeout_that_would_escalate_to_the_steps_own_agent_halts(
    name: str, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    after = team.GATES[name].timeout_after or "1h"
    spec = dataclasses.replace(team.GATES[name], timeout_after=after, timeout_behaviour="escalate")
    monkeypatch.setitem(team.GATES, name, spec)
    for other, other_spec in list(team.GATES.items()):  # only this gate's deadline passes
        if other != name:
            untimed = dataclasses.replace(other_spec, timeout_after=None, timeout_behaviour=None)
            monkeypatch.setitem(team.GATES, other, untimed)
    agent = _own_manager(spec, monkeypatch)
    g = helpers.build(board)
    snapshot = await helpers.run_until_gate(g, name)
    later = runtime.utc_now() + gates.parse_duration(after) + timedelta(minutes=1)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)

    # The gates beside it are approved; this one gets no decision.
    await g.ainvoke(helpers.decide_one(snapshot.interrupts, name, []), helpers.config())

    message = await _halted(g, board, name, agent)
    assert message.startswith(f"gate {name}: no decision within {after} (escalate); the ")


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_a_rejection_that_would_escalate_to_the_steps_own_agent_halts(
    name: str, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = dataclasses.replace(team.GATES[name], on_reject="escalate")
    monkeypatch.setitem(team.GATES, name, spec)
    agent = _own_manager(spec, monkeypatch)
    g = helpers.build(board)
    snapshot = await helpers.run_until_gate(g, name)
    records = helpers.request_of(snapshot, name)["records"]
    rejected = [{"record": r["id"], "action": "reject", "feedback": "no"} for r in records]

    await g.ainvoke(helpers.decide_one(snapshot.interrupts, name, rejected), helpers.config())

    message = await _halted(g, board, name, agent)
    assert message.startswith(f"gate {name}: {len(records)} record(s) rejected; the escalation")
