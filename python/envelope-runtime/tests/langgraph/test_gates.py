"""Review gates (gates[]): each of this team's gates run in the graph (interrupt,
decisions, onReject, timeout), and synthetic pipelines for a halt beside a parallel branch
and for two gates waiting at once. The rules of gates.py, on synthetic gates, are
python-common's (python/envelope-runtime/tests/common/test_gate_rules.py).

Skipped for teams without gates (whose exports have no gates.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
from datetime import datetime, timedelta
from typing import Any

import helpers
import pytest
from fakes import FakeBoard, structured
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from project import (
    TEAM,
    agents,
    context,
    gates,
    graph,
    llms,
    pipeline,
    review,
    runtime,
    state,
    team,
)
from pydantic import BaseModel, create_model

pytestmark = pytest.mark.anyio

if gates is None or not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

# --- this team's gates, in the graph ---------------------------------------------------------

GATE_NAMES = list(team.GATES)


def _needed(gate: gates.GateSpec) -> int:
    """Approvals that release the gate (all_resolved: one, the others skipped)."""
    return (gate.threshold_count or 1) if gate.trigger == "threshold" else 1


def _offers(gate: gates.GateSpec, verb: str) -> bool:
    return any(action.verb == verb for action in gate.actions)


def _approve_enough(
    gate: gates.GateSpec, records: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The records to approve so the gate releases, and decisions for all of them.

    The rest are skipped when the gate offers skip; otherwise they stay undecided, unless
    every record must be decided (all_resolved, scheduled): then all are approved.
    """
    chosen, others = records[: _needed(gate)], records[_needed(gate) :]
    if not _offers(gate, "skip") and gate.trigger in ("all_resolved", "scheduled"):
        chosen, others = records, []
    decisions = [{"record": r["id"], "action": "approve"} for r in chosen]
    if _offers(gate, "skip"):
        decisions += [{"record": r["id"], "action": "skip"} for r in others]
    return chosen, decisions


def _fields(gate: gates.GateSpec, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{field: record[field] for field in gate.fields} for record in records]


def _received(board: FakeBoard, gate: gates.GateSpec) -> list[dict[str, Any]]:
    """The records the gate's triggersStep received (its last run)."""
    calls = board.calls_for_task(gate.triggers_step)
    assert calls, f"step {gate.triggers_step} did not run"
    return _fields(gate, helpers.approved_records(calls[-1], gate.name))


def _to_itself(gate: gates.GateSpec) -> bool:
    """Whether the gate's escalation would go to its step's own agent (the entry agent): it
    halts the run instead, as test_self_escalation.py tests."""
    agent = team.PIPELINE[gate.after_step].agent_key
    return agents.manager_of(TEAM, agent) == agent


async def _finish(g: helpers.Graph, payload: Any) -> dict[str, Any]:
    """Resume with `payload`, then approve whatever waits later; the final state."""
    for _ in range(len(team.GATES) * gates.MAX_ROUNDS + 1):
        await g.ainvoke(payload, helpers.config())
        snapshot = await g.aget_state(helpers.config())
        if not snapshot.interrupts:
            return snapshot.values
        payload = helpers.approve_all(snapshot.interrupts)
    raise AssertionError("the run kept waiting for review")


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_the_gate_presents_the_records_of_its_step(
    name: str, team_env: dict[str, str], board: FakeBoard
) -> None:
    gate = team.GATES[name]
    g = helpers.build(board)

    snapshot = await helpers.run_until_gate(g, name)

    request = helpers.request_of(snapshot, name)
    assert request["gate"] == name and request["type"] == gate.type
    assert (request["step"], request["triggers"]) == (gate.after_step, gate.triggers_step)
    assert (request["round"], request["trigger"]) == (1, gate.trigger)
    assert request["threshold"] == gate.threshold_count
    assert request["actions"] == [{"label": a.label, "verb": a.verb} for a in gate.actions]
    assert len(request["records"]) == board.list_length
    stored = snapshot.values["records"][gate.after_step]
    for record, row in zip(request["records"], stored, strict=True):
        assert record["fields"] == {field: row[field] for field in gate.fields}
    assert [r["id"] for r in request["records"]] == [f"r{n + 1}" for n in range(len(stored))]
    schema = state.RECORD_MODELS[gate.after_step].model_json_schema()
    record_fields = next(iter(schema["$defs"].values()))["properties"]
    assert set(gate.fields) <= set(record_fields)
    if gate.timeout_after:
        since = datetime.fromisoformat(request["waiting_since"])
        deadline = datetime.fromisoformat(request["deadline"])
        assert deadline - since == gate.timeout()
    assert board.calls_for_task(gate.triggers_step) == []
    # The run waits at the nodes of the gates that ask, and nowhere else: this gate's and,
    # after parallel steps, those of the gates beside it, one interrupt each.
    asking = [pipeline.gate_node(i.value["gate"]) for i in snapshot.interrupts]
    assert pipeline.gate_node(name) in asking and len(set(asking)) == len(asking)
    assert sorted(snapshot.next) == sorted(asking)
    # The round was stored before the gate asked: a resume re-runs the node, not the round.
    kept = gates.GateState.model_validate(snapshot.values["gates"][name])
    assert (kept.status, kept.round) == ("waiting", 1)
    assert [r.id for r in kept.undecided()] == [r["id"] for r in request["records"]]
    assert kept.waiting_since is not None
    answer = board.calls_for_task(gate.after_step)[-1]
    assert answer.structured_tool() == state.RECORD_MODELS[gate.after_step].__name__


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_resuming_never_calls_a_model_again(
    name: str, team_env: dict[str, str], board: FakeBoard
) -> None:
    gate = team.GATES[name]
    g = helpers.build(board)
    snapshot = await helpers.run_until_gate(g, name)
    before = len(board.calls)
    # No decisions first: the gate asks again, still without any model call.
    request = helpers.request_of(snapshot, name)
    await g.ainvoke(helpers.decide(snapshot.interrupts, {name: []}), helpers.config())
    again = await g.aget_state(helpers.config())
    assert helpers.request_of(again, name)["records"] == request["records"]
    assert len(board.calls) == before

    await _finish(g, helpers.approve_all(again.interrupts))

    after_step = [c for c in board.calls[before:] if c.task == gate.after_step]
    assert after_step == [], "the gated step's model was called again on resume"
    assert board.calls_for_task(gate.triggers_step), "the run did not go on"


def _keyless_provider() -> tuple[str, str]:
    """A provider none of whose API keys the environment sets, and its first key."""
    for prefix, requirement in llms.PROVIDER_KEYS.items():
        names = (requirement,) if isinstance(requirement, str) else requirement
        if not any(name in os.environ for name in names):
            return prefix, names[0]
    raise AssertionError("every provider's key is set")


@pytest.mark.parametrize("problem", ["unknown provider", "missing key"])
async def test_a_resume_checks_its_context_before_any_model_call(
    problem: str, team_env: dict[str, str], board: FakeBoard
) -> None:
    # Resuming is a new run with a context of its own: it is checked as prepare checks a
    # first run's (its models, their providers' keys), before the resumed run's first call.
    name = GATE_NAMES[0]
    g = graph.build_graph(checkpointer=InMemorySaver())  # the default models: keys count
    snapshot = await helpers.run_until_gate(g, name)
    before = len(board.calls)
    if problem == "unknown provider":
        bad, expected = "acme:model-1", "unknown provider"
    else:
        prefix, expected = _keyless_provider()
        bad = f"{prefix}:model-1"
    with pytest.raises((ValueError, runtime.MissingEnvError)) as raised:
        await g.ainvoke(
            helpers.approve_all(snapshot.interrupts), helpers.config(), context=bad_context(bad)
        )
    assert expected in str(raised.value)
    assert len(board.calls) == before, "a model was called with the bad context"
    # The same message as a first run's with that context (prepare).
    with pytest.raises(type(raised.value)) as first:
        await g.ainvoke(helpers.start(), helpers.config("other"), context=bad_context(bad))
    assert str(first.value) == str(raised.value)


def bad_context(model: str) -> context.Context:
    return context.Context(**{context.ALL_AGENTS_FIELD: model})


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_approving_releases_only_the_approved_records(
    name: str, team_env: dict[str, str], board: FakeBoard
) -> None:
    gate = team.GATES[name]
    g = helpers.build(board)
    snapshot = await helpers.run_until_gate(g, name)
    records = helpers.request_of(snapshot, name)["records"]
    chosen, decisions = _approve_enough(gate, records)

    values = await _finish(g, helpers.decide_one(snapshot.interrupts, name, decisions))

    assert values.get("result") is not None
    expected = [record["fields"] for record in chosen]
    assert _received(board, gate) == _fields(gate, expected)
    assert _fields(gate, values["approved"][name]) == expected


@pytest.mark.parametrize("on_reject", ["skip", "halt", "rerun", "escalate"])
@pytest.mark.parametrize("name", GATE_NAMES)
async def test_a_rejection_follows_on_reject(
    name: str,
    on_reject: gates.OnReject,
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = dataclasses.replace(team.GATES[name], on_reject=on_reject)
    monkeypatch.setitem(team.GATES, name, gate)
    g = helpers.build(board)
    if on_reject == "escalate" and pipeline.escalate_node(name) not in g.nodes:
        pytest.skip(f"gate {name} never escalates, so its graph has no escalation node")
    if on_reject == "escalate" and _to_itself(gate):
        pytest.skip(f"gate {name}'s escalation would go to its step's own agent: it halts")
    snapshot = await helpers.run_until_gate(g, name)
    records = helpers.request_of(snapshot, name)["records"]
    feedback = 'Not this one: {tools} \\ "stays" as written'

    if on_reject in ("skip", "halt"):
        rejected, approved = records[:1], records[1:]
        decisions = [{"record": rejected[0]["id"], "action": "reject", "feedback": feedback}]
        decisions += [{"record": r["id"], "action": "approve"} for r in approved]
        resume = helpers.decide_one(snapshot.interrupts, name, decisions)
        if on_reject == "halt":
            await g.ainvoke(resume, helpers.config())
            halted = await g.aget_state(helpers.config())
            message = f"gate {name}: rejected {rejected[0]['id']} (onReject: halt)"
            assert halted.values["halted"] == message
            assert halted.next == () and halted.values.get("result") is None
            assert board.calls_for_task(gate.triggers_step) == []
            return
        values = await _finish(g, resume)
        assert values.get("result") is not None
        assert _received(board, gate) == _fields(gate, [r["fields"] for r in approved])
        return

    before = len(board.calls_for_task(gate.after_step))
    decisions = [{"record": r["id"], "action": "reject", "feedback": feedback} for r in records]
    # The gates beside this one are approved now: while one of them still asked, the step
    # (or the manager) that revises would wait with it, in the same LangGraph superstep.
    await g.ainvoke(helpers.decide_one(snapshot.interrupts, name, decisions), helpers.config())
    again = await g.aget_state(helpers.config())

    revised = helpers.request_of(again, name)
    assert revised["round"] == 2
    assert {r["id"] for r in revised["records"]}.isdisjoint({r["id"] for r in records})
    reruns = board.calls_for_task(gate.after_step)[before:]
    escalations = board.calls_for_task(f"revise:{name}")
    if on_reject == "rerun":
        assert reruns and escalations == []
        task = reruns[0].human
        assert task.startswith(board.calls_for_task(gate.after_step)[0].human)
    else:
        manager = agents.manager_of(TEAM, team.PIPELINE[gate.after_step].agent_key)
        assert escalations and reruns == []
        assert escalations[0].agent_key == manager
        task = escalations[0].human
        # The manager sees what the step worked from: the run's inputs and its own inputs.
        assert f"Step {gate.after_step} worked from:\n\n" in task
        assert "\n\nRun inputs (JSON):\n" in task.split("worked from:", 1)[1]
    assert f"Reviewers rejected these records at gate {name} (round 1 of" in task
    assert json.dumps(feedback)[1:-1] in task
    approve = [{"record": r["id"], "action": "approve"} for r in revised["records"]]
    values = await _finish(g, helpers.decide_one(again.interrupts, name, approve))
    assert values.get("result") is not None
    assert _received(board, gate) == _fields(gate, [r["fields"] for r in revised["records"]])


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_a_release_without_approved_records_tells_the_step_why(
    name: str, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = dataclasses.replace(team.GATES[name], trigger="all_resolved", on_reject="skip")
    monkeypatch.setitem(team.GATES, name, gate)
    g = helpers.build(board)
    snapshot = await helpers.run_until_gate(g, name)
    records = helpers.request_of(snapshot, name)["records"]
    rejected = [{"record": r["id"], "action": "reject"} for r in records]

    values = await _finish(g, helpers.decide_one(snapshot.interrupts, name, rejected))

    assert values.get("result") is not None
    assert _received(board, gate) == []
    task = board.calls_for_task(gate.triggers_step)[-1].human
    assert f"No record was approved at gate {name} (gate {name}: every record resolved)." in task


@pytest.mark.parametrize("behaviour", ["halt", "proceed", "escalate"])
@pytest.mark.parametrize("name", GATE_NAMES)
async def test_a_gate_timeout_applies_its_behaviour_on_resume(
    name: str,
    behaviour: gates.TimeoutBehaviour,
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    after = team.GATES[name].timeout_after or "1h"
    gate = dataclasses.replace(team.GATES[name], timeout_after=after, timeout_behaviour=behaviour)
    monkeypatch.setitem(team.GATES, name, gate)
    # The clock jumps past this gate's deadline only: a gate waiting beside it (parallel
    # steps) keeps no deadline here, so its own timeout cannot halt or release the run.
    for other, spec in list(team.GATES.items()):
        if other != name:
            untimed = dataclasses.replace(spec, timeout_after=None, timeout_behaviour=None)
            monkeypatch.setitem(team.GATES, other, untimed)
    g = helpers.build(board)
    if behaviour == "escalate" and pipeline.escalate_node(name) not in g.nodes:
        pytest.skip(f"gate {name} never escalates, so its graph has no escalation node")
    if behaviour == "escalate" and _to_itself(gate):
        pytest.skip(f"gate {name}'s escalation would go to its step's own agent: it halts")
    snapshot = await helpers.run_until_gate(g, name)
    records = helpers.request_of(snapshot, name)["records"]
    later = runtime.utc_now() + gates.parse_duration(after) + timedelta(minutes=1)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)
    chosen = records[: _needed(gate)]
    if behaviour == "escalate":
        decided = [{"record": r["id"], "action": "approve", "feedback": "ok"} for r in chosen]
        board.script_task(f"escalate:{name}", structured({"decisions": decided}))
    # Decisions that come after the deadline are ignored: the timeout behaviour applies.
    late = helpers.decide_one(snapshot.interrupts, name, helpers.approvals({"records": records}))

    if behaviour == "halt":
        await g.ainvoke(late, helpers.config())
        halted = await g.aget_state(helpers.config())
        assert halted.values["halted"] == (
            f"gate {name}: no decision within {after} (halt); decisions given after the "
            f"gate's deadline (timeout.after {after}, waiting since "
            f"{helpers.request_of(snapshot, name)['waiting_since'][:19]}+00:00) were not applied"
        )
        assert board.calls_for_task(gate.triggers_step) == []
        return
    values = await _finish(g, late)
    assert values.get("result") is not None
    stored = {r["id"]: r for r in values["gates"][name]["records"]}
    if behaviour == "proceed":
        # The undecided records are released (by the timeout), as the step is told.
        assert _received(board, gate) == _fields(gate, [r["fields"] for r in records])
        assert all(stored[r["id"]]["decided_by"] == "timeout" for r in records)
        return
    assert _received(board, gate) == _fields(gate, [r["fields"] for r in chosen])
    manager = agents.manager_of(TEAM, team.PIPELINE[gate.after_step].agent_key)
    escalation = board.calls_for_task(f"escalate:{name}")[0]
    assert escalation.agent_key == manager
    assert f"Step {gate.after_step} worked from:\n\n" in escalation.human
    assert "\n\nRun inputs (JSON):\n" in escalation.human
    for record in records:
        expected = ("approve", f"agent:{manager}") if record in chosen else ("skip", "timeout")
        assert (stored[record["id"]]["decision"], stored[record["id"]]["decided_by"]) == expected
    # Like halt's and proceed's, the gate's message says its deadline passed and that the
    # decisions this resume gave came late, then what the manager's decisions did.
    message = values["gates"][name]["message"]
    assert message.startswith(f"gate {name}: no decision within {after} (escalate); ")
    assert "; decisions given after the gate's deadline" in message
    assert "; the manager decided: " in message


@pytest.mark.parametrize("name", GATE_NAMES)
async def test_invalid_decisions_ask_again_and_never_poison_the_thread(
    name: str, team_env: dict[str, str], board: FakeBoard
) -> None:
    g = helpers.build(board)
    snapshot = await helpers.run_until_gate(g, name)
    first = helpers.request_of(snapshot, name)["records"][0]["id"]
    before = len(board.calls)
    bad = [{"record": "r999", "action": "approve"}, {"record": first, "action": "publish it"}]

    # What an API client may send (`langgraph dev`, the SDK): a typo, then a wrong shape.
    await g.ainvoke(helpers.decide_one(snapshot.interrupts, name, bad), helpers.config())
    again = await g.aget_state(helpers.config())
    problems = helpers.request_of(again, name)["problems"]
    assert f"gate {name}: unknown record 'r999'" in problems
    assert any(f"record {first}: unknown action 'publish it'" in p for p in problems)
    pending = {i.value["gate"]: i.id for i in again.interrupts}
    await g.ainvoke(Command(resume={pending[name]: "approve all"}), helpers.config())
    again = await g.aget_state(helpers.config())
    assert helpers.request_of(again, name)["problems"] == [
        f'gate {name}: resume with {{"decisions": [...]}}'
    ]
    kept = gates.GateState.model_validate(again.values["gates"][name])
    assert kept.undecided() == kept.current()  # nothing of either was applied
    # (Gates waiting beside it were approved, so steps after those may have run.)
    spec = team.GATES[name]
    called = {c.task for c in board.calls[before:]}
    assert called.isdisjoint({spec.after_step, spec.triggers_step})

    # The next valid resume is read afresh: the bad values are not replayed.
    values = await _finish(g, helpers.approve_all(again.interrupts))
    assert values.get("result") is not None
    assert values["gates"][name]["problems"] == []


# --- synthetic pipelines: what this team's shape may not show -------------------------------


def _records_model(*fields: str) -> type[BaseModel]:
    record = create_model("SyntheticRecord", **{f: (str, ...) for f in fields})  # type: ignore[call-overload]
    return create_model("SyntheticRecords", records=(list[record], ...))  # type: ignore[valid-type]


def _synthetic(
    monkeypatch: pytest.MonkeyPatch,
    steps: dict[str, tuple[str, ...]],
    reviews: dict[str, tuple[str, str, gates.OnReject]],
    final: str,
) -> None:
    """Replace the team's pipeline: steps (key -> depends_on), gates (name -> after,
    triggers, onReject); every step is run by the team's first agent."""
    agent_key = next(iter(team.AGENTS))
    monkeypatch.setattr(team, "MODE", "pipeline")
    monkeypatch.setattr(
        team,
        "PIPELINE",
        {
            key: runtime.StepSpec(agent_key=agent_key, label=f"Synthetic {key}", depends_on=deps)
            for key, deps in steps.items()
        },
    )
    monkeypatch.setattr(
        team,
        "GATES",
        {
            name: gates.GateSpec(
                name=name,
                type="decision",
                after_step=after,
                triggers_step=triggers,
                fields=("title",),
                trigger="any_approved",
                on_reject=on_reject,
            )
            for name, (after, triggers, on_reject) in reviews.items()
        },
    )
    monkeypatch.setattr(team, "FINAL_STEP", final)
    for after, _, _ in reviews.values():
        monkeypatch.setitem(state.RECORD_MODELS, after, _records_model("title"))


async def test_a_halt_stops_every_parallel_branch(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a -> gate g (halt) -> c, and beside it a long branch b1 .. b5; z joins both.
    branch = {f"b{n}": ((f"b{n - 1}",) if n > 1 else ()) for n in range(1, 6)}
    steps = {"a": (), **branch, "c": ("a",), "z": ("c", "b5")}
    _synthetic(monkeypatch, steps, {"g": ("a", "c", "halt")}, final="z")
    g = helpers.wire(board.model_for, InMemorySaver())
    await g.ainvoke(helpers.start(), helpers.config())
    snapshot = await g.aget_state(helpers.config())
    request = helpers.request_of(snapshot, "g")
    ran_before = {call.task for call in board.calls}
    assert {"b1", "b2"} <= ran_before and "b5" not in ran_before

    reject = [{"record": request["records"][0]["id"], "action": "reject"}]
    output = await g.ainvoke(helpers.decide(snapshot.interrupts, {"g": reject}), helpers.config())

    # The run's output (state.TeamOutput) says it halted, and why; it has no result.
    reason = "gate g: rejected r1 (onReject: halt)"
    assert output == {"status": "halted", "halted": reason, "result": None}
    halted = await g.aget_state(helpers.config())
    assert halted.values["halted"] == "gate g: rejected r1 (onReject: halt)"
    assert halted.next == ()
    for key in ("b4", "b5", "c", "z"):
        assert board.calls_for_task(key) == [], f"step {key} ran after the halt"
    assert halted.values.get("result") is None


async def test_two_gates_waiting_at_once_resume_by_interrupt_id(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = {"a1": (), "a2": (), "c": ("a1", "a2")}
    reviews: dict[str, tuple[str, str, gates.OnReject]] = {
        "g1": ("a1", "c", "skip"),
        "g2": ("a2", "c", "skip"),
    }
    _synthetic(monkeypatch, steps, reviews, final="c")
    g = helpers.wire(board.model_for, InMemorySaver())
    await g.ainvoke(helpers.start(), helpers.config())
    snapshot = await g.aget_state(helpers.config())
    assert sorted(i.value["gate"] for i in snapshot.interrupts) == ["g1", "g2"]
    first = {name: helpers.request_of(snapshot, name)["records"][0] for name in ("g1", "g2")}
    decisions = {
        "g1": [gates.DecisionItem(record=first["g1"]["id"], action="approve")],
        "g2": [gates.DecisionItem(record=first["g2"]["id"], action="Approve")],
    }

    await g.ainvoke(review.resume_command(TEAM, snapshot.interrupts, decisions), helpers.config())

    done = await g.aget_state(helpers.config())
    assert done.next == () and done.values.get("result") is not None
    (call,) = board.calls_for_task("c")
    for name in ("g1", "g2"):
        assert helpers.approved_records(call, name) == [first[name]["fields"]]
