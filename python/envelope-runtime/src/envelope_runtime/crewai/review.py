"""What a gate does inside the CrewAI Flow: PipelineFlow.review (a gate's router) and the
records a gate releases to the steps after it.

Only a team with gates loads this module (and through it the gate rules, gates.py):
pipeline.py imports it where a gate is reviewed or its records are handed on. A gate
asks its reviewer (the terminal, or the decisions file of a resumed run), applies the
decisions by the gate's trigger, and on a rejection or a timeout reruns the step or asks
the step's manager.
"""

from __future__ import annotations

import json
import sys
import threading
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..gates import (
    MAX_ROUNDS,
    DecisionItem,
    GateSpec,
    GateState,
    apply_decisions,
    evaluate,
    proceed,
    receives,
    released_text,
    timed_out,
)
from . import runtime, state
from .crew_base import kickoff, manager_of
from .pipeline import StepFailed, _joined

if TYPE_CHECKING:
    from .pipeline import PipelineFlow

__all__ = ["GateDecisions", "released", "review"]

_TERMINAL = threading.Lock()
"""Gates waiting in parallel branches are reviewed at the terminal one after the other."""


class GateDecisions(BaseModel):
    """A manager's decisions when a gate times out with behaviour `escalate`."""

    decisions: list[DecisionItem]


def _traced_decisions(agent_key: str, gate: str, answers: list[DecisionItem]) -> None:
    """A reviewer's decisions into the run's trace (trace.decided), when the run has one: the
    trace module is loaded only by a traced run (tracing.py), so none is loaded here."""
    trace = sys.modules.get(f"{__name__.rsplit('.', 2)[0]}.trace")
    if trace is not None:
        trace.decided(agent_key, gate, answers)


def released(flow: PipelineFlow, key: str) -> list[str]:
    """The records each gate step `key` waits for released (with the gate's note)."""
    team = flow._team()
    run = flow.state.run
    _, awaited = receives(key, team.PIPELINE[key].depends_on, team.GATES)
    parts = []
    for name in awaited:
        gate = run.gates[name]
        approved = [record.data for record in gate.approved()]
        text = json.dumps(approved, indent=2, ensure_ascii=False)
        parts.append(released_text(team.GATES[name], gate, text))
    return parts


def _received(flow: PipelineFlow, key: str) -> list[str]:
    """Everything the step works from, as text (an escalation's context)."""
    answers = [
        f"Output of step {dep} ({flow._team().PIPELINE[dep].label}):\n{text}"
        for dep, text in flow._answers(key).items()
    ]
    return [*answers, *released(flow, key)]


def _worked_from(flow: PipelineFlow, spec: GateSpec) -> str:
    """An escalation's context: the run's inputs and what the reviewed step received."""
    parts = [flow._inputs_text(), *_received(flow, spec.after_step)]
    return f"Step {spec.after_step} worked from:\n\n" + "\n\n".join(parts)


def review(flow: PipelineFlow, name: str) -> str:
    """Router body of gate `name`: returns `<gate>:released`, `:waiting` or `:halted`."""
    spec = flow._team().GATES[name]
    run = flow.state.run
    with flow.lock:
        gate = run.gates.setdefault(name, GateState())
        if gate.round == 0:
            gate.add_round(run.outputs[spec.after_step].records or [])
            flow.store.save(run)
    while True:
        now = state.utc_now()
        if timed_out(spec, gate, now) and not _on_timeout(flow, spec, gate):
            break
        outcome, message = evaluate(spec, gate)
        if outcome == "revise":
            rows = _revise(flow, spec, gate)
            with flow.lock:
                gate.add_round(rows)
                flow.store.save(run)
            continue
        if outcome != "waiting":
            with flow.lock:
                gate.status = outcome
                gate.message = message
                if outcome == "halted":
                    run.status, run.message = "halted", message
                flow.store.save(run)
            break
        with flow.lock:
            if gate.status != "waiting":
                gate.status, gate.waiting_since = "waiting", now
                flow.store.save(run)
        answers = _ask(flow, spec, gate)
        if timed_out(spec, gate, state.utc_now()):
            continue  # answers came too late: the timeout behaviour applies
        if not answers or not any(item.action.strip() for item in answers):
            with flow.lock:
                if run.status != "halted":  # a halt elsewhere in the run wins
                    run.status, run.message = "pending", message
                flow.store.save(run)
            break
        with flow.lock:
            problems = apply_decisions(spec, gate, answers, state.utc_now(), "human")
            if problems:
                raise StepFailed("; ".join(problems))
            _traced_decisions(flow._team().PIPELINE[spec.after_step].agent_key, name, answers)
            flow.store.save(run)
    return f"{name}:{gate.status}"


def _ask(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> list[DecisionItem] | None:
    reviewer = flow.reviewer
    if reviewer is None:
        raise RuntimeError(f"gate {spec.name}: the flow was configured without a reviewer")
    if not reviewer.interactive:
        return reviewer.review(spec, gate)
    deadline = runtime.active_deadline()
    # One gate at a time at the terminal; a human's time does not count against runMs.
    with _TERMINAL, deadline.paused() if deadline is not None else nullcontext():
        return reviewer.review(spec, gate)


def _on_timeout(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> bool:
    """Apply timeout.behaviour; True when the gate should be evaluated again."""
    run = flow.state.run
    message = f"gate {spec.name}: no decision within {spec.timeout_after}"
    if spec.timeout_behaviour == "escalate":
        decided = _escalated_decisions(flow, spec, gate)
        with flow.lock:
            manager = f"agent:{_manager(flow, spec)}"
            problems = apply_decisions(spec, gate, decided, state.utc_now(), manager, system=True)
            if problems:
                raise StepFailed("; ".join(problems))
            # Records the manager left undecided (or named wrongly) are skipped.
            leftovers = [DecisionItem(record=r.id, action="skip") for r in gate.undecided()]
            apply_decisions(spec, gate, leftovers, state.utc_now(), "timeout", system=True)
            gate.status, gate.waiting_since = "open", None
            flow.store.save(run)
        return True
    with flow.lock:
        if spec.timeout_behaviour == "proceed":
            proceed(spec, gate, state.utc_now())
        else:
            gate.status, gate.message = "halted", message + " (halt)"
            run.status, run.message = "halted", gate.message
        flow.store.save(run)
    return False


def _manager(flow: PipelineFlow, spec: GateSpec) -> str:
    return manager_of(flow.crews.package, flow._team().PIPELINE[spec.after_step].agent_key)


def _records_text(records: list[Any]) -> str:
    rows = [{"id": r.id, **r.data, "feedback": r.feedback} for r in records]
    return json.dumps(rows, indent=2, ensure_ascii=False)


def _revise(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> list[dict[str, Any]]:
    """onReject rerun (the step again) or escalate (its manager) with feedback."""
    rejected = [r for r in gate.current() if r.decision == "reject"]
    approved = _records_text(gate.approved())
    feedback = (
        f"Reviewers rejected these records at gate {spec.name} "
        f"(round {gate.round} of {MAX_ROUNDS}), with their feedback (JSON):\n"
        f"{_records_text(rejected)}\n\n"
        f"Already approved, do not repeat (JSON):\n{approved}\n\n"
        "Answer with replacement records only."
    )
    model = flow._team().RECORD_MODELS[spec.after_step]
    if spec.on_reject == "rerun":
        received = flow.step_context(spec.after_step)
        answers = flow._answers(spec.after_step)
        crew = flow.crews.step_crew(spec.after_step, _joined(received, feedback), answers)
    else:
        crew = flow.crews.agent_crew(
            _manager(flow, spec),
            f"revise:{spec.name}",
            f"Revise records of step {spec.after_step}.\n\n{feedback}\n\n"
            f"{_worked_from(flow, spec)}",
            f"JSON with a list `records`; fields: {', '.join(spec.fields)}.",
            model,
        )
    output = flow._kickoff(crew, spec.after_step)
    with flow.lock:
        previous = flow.state.run.outputs[spec.after_step]
        output.attempts = previous.attempts + 1
        flow.state.run.outputs[spec.after_step] = output
    return output.records or []


def _escalated_decisions(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> list[DecisionItem]:
    verbs = ", ".join(a.verb for a in spec.actions if a.verb != "reset")
    crew = flow.crews.agent_crew(
        _manager(flow, spec),
        f"escalate:{spec.name}",
        f"Nobody reviewed these records of step {spec.after_step} at gate "
        f"{spec.name} within {spec.timeout_after}. Decide each one "
        f"({verbs}) (JSON):\n{_records_text(gate.undecided())}\n\n"
        f"{_worked_from(flow, spec)}",
        'A JSON object {"decisions": [{"record": "<id>", "action": "<verb>", '
        '"feedback": "<why>"}]}.',
        GateDecisions,
    )
    result = kickoff(crew)
    if not isinstance(result.pydantic, GateDecisions):
        raise StepFailed(f"gate {spec.name}: the escalation answer holds no decisions")
    return result.pydantic.decisions
