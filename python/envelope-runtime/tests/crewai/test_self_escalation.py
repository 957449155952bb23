"""A gate whose escalation would go to the reviewed step's own agent (a root agent that is
the first root: reportsToKey, else the first root, is itself) halts the run instead: no
agent approves its own work. Each of this team's gates is made such a gate here, its step's
agent made the first root.

Skipped for teams without gates.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path

import helpers
import pytest
from fake_llm import FakeModels
from project import gates, runtime, state, team
from test_gates import GATE_NAMES, _pending_at, _resume

if not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)


def _own_manager(spec: gates.GateSpec, monkeypatch: pytest.MonkeyPatch) -> str:
    """The agent of the gate's step, made the team's first root; its key."""
    agent = team.PIPELINE[spec.after_step].agent_key
    first = {agent: dataclasses.replace(team.AGENTS[agent], reports_to=None)}
    monkeypatch.setattr(team, "AGENTS", {**first, **team.AGENTS} | first)
    return agent


def _halted_without_escalation(
    name: str, agent: str, board: FakeModels, run_id: str, err: str
) -> str:
    """The gate's message, once the run halted at it with no escalation and no release."""
    spec = team.GATES[name]
    why = f"the escalation would go to {agent}, the agent of step {spec.after_step} itself"
    assert f"Run {run_id} halted: gate {name}: " in err and why in err, err
    assert "no agent approves its own work" in err
    assert board.calls_for_task(f"escalate:{name}") == []
    assert board.calls_for_task(f"revise:{name}") == []
    assert board.calls_for_task(spec.triggers_step) == []
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    assert saved["status"] == "halted"
    assert not any(r["decided_by"] == f"agent:{agent}" for r in saved["gates"][name]["records"])
    return str(saved["gates"][name]["message"])


@pytest.mark.parametrize("name", GATE_NAMES)
def test_a_timeout_that_would_escalate_to_the_steps_own_agent_halts(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    after = team.GATES[name].timeout_after or "1h"
    spec = dataclasses.replace(team.GATES[name], timeout_after=after, timeout_behaviour="escalate")
    monkeypatch.setitem(team.GATES, name, spec)
    for other, other_spec in list(team.GATES.items()):  # only this gate's deadline passes
        if other != name:
            untimed = dataclasses.replace(other_spec, timeout_after=None, timeout_behaviour=None)
            monkeypatch.setitem(team.GATES, other, untimed)
    agent = _own_manager(spec, monkeypatch)
    pending = _pending_at(name, capsys, tmp_path)
    run_id = pending["run_id"]
    others = {k: v for k, v in helpers.approve_all(pending).items() if k != name}
    beside = helpers.write_decisions(tmp_path / "beside.json", run_id, others)
    later = state.utc_now() + gates.parse_duration(after) + timedelta(minutes=1)
    monkeypatch.setattr(state, "utc_now", lambda: later)

    code = _resume(run_id, beside)

    err = capsys.readouterr().err
    assert code == runtime.EXIT_HALTED, err
    message = _halted_without_escalation(name, agent, fake_models, run_id, err)
    assert message.startswith(f"gate {name}: no decision within {after} (escalate); the ")


@pytest.mark.parametrize("name", GATE_NAMES)
def test_a_rejection_that_would_escalate_to_the_steps_own_agent_halts(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    spec = dataclasses.replace(team.GATES[name], on_reject="escalate")
    monkeypatch.setitem(team.GATES, name, spec)
    agent = _own_manager(spec, monkeypatch)
    pending = _pending_at(name, capsys, tmp_path)
    run_id, items = pending["run_id"], pending["gates"][name]["decisions"]
    rejected = [{"record": i["record"], "action": "reject", "feedback": "no"} for i in items]
    path = helpers.write_decisions(tmp_path / "d.json", run_id, {name: rejected})

    code = _resume(run_id, path)

    err = capsys.readouterr().err
    assert code == runtime.EXIT_HALTED, err
    message = _halted_without_escalation(name, agent, fake_models, run_id, err)
    assert message.startswith(f"gate {name}: {len(items)} record(s) rejected; the escalation")
