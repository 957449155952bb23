"""The rules of a gate's decisions (gates.py names them): the reviewers' verdicts applied,
the trigger and onReject evaluated, whether the gate timed out (what its timeout does is
gate_timeouts.py's). Loaded when a gate is reviewed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .echo import quoted
from .gates import (
    MAX_PROBLEMS,
    MAX_ROUNDS,
    DecisionItem,
    GateRecord,
    GateSpec,
    GateState,
    Outcome,
    Verb,
)

__all__ = [
    "apply_decisions",
    "bounded",
    "evaluate",
    "released_text",
    "timed_out",
    "trigger_met",
    "verb_of",
]


def bounded(problems: list[str], gate: str) -> list[str]:
    """At most MAX_PROBLEMS of `problems`, and how many more there are."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    more = len(problems) - MAX_PROBLEMS
    return [*problems[:MAX_PROBLEMS], f"gate {gate}: and {more} more problems"]


def verb_of(spec: GateSpec, action: str) -> Verb | None:
    wanted = action.strip().casefold()
    for candidate in spec.actions:
        if wanted in (candidate.label.casefold(), candidate.verb):
            return candidate.verb
    return None


def apply_decisions(
    spec: GateSpec,
    gate: GateState,
    items: Sequence[DecisionItem],
    now: datetime,
    reviewer: str,
    system: bool = False,
) -> list[str]:
    """Validate every item first; apply them all only if none is wrong.

    `system` decisions (a timeout, a manager's escalation) are not a reviewer's: any of
    approve/skip/reject may be used whatever `recordActions` offers, and items naming
    records that do not exist are ignored instead of failing the run.
    """
    by_id = {record.id: record for record in gate.records}
    problems: list[str] = []
    planned: list[tuple[GateRecord, Verb, str]] = []
    for item in items:
        if not item.action.strip():
            continue
        record = by_id.get(item.record)
        verb = _system_verb(item.action) if system else verb_of(spec, item.action)
        if record is None and system:
            continue
        if record is None:
            problems.append(f"gate {spec.name}: unknown record {quoted(item.record)}")
        elif record.round != gate.round:
            problems.append(f"gate {spec.name}: record {record.id} was reviewed already")
        elif verb is None:
            allowed = ", ".join(f"{a.label!r} ({a.verb})" for a in spec.actions)
            problems.append(
                f"gate {spec.name}: record {record.id}: unknown action "
                f"{quoted(item.action)}; use one of {allowed}"
            )
        else:
            planned.append((record, verb, item.feedback.strip()))
    if problems:
        return bounded(problems, spec.name)
    for record, verb, feedback in planned:
        if verb == "reset":
            record.decision = record.feedback = record.decided_at = record.decided_by = None
            continue
        record.decision = verb
        record.feedback = feedback or None
        record.decided_at = now
        record.decided_by = reviewer
    return []


def _system_verb(action: str) -> Verb | None:
    verb = action.strip().lower()
    return verb if verb in ("approve", "skip", "reject") else None  # type: ignore[return-value]


def trigger_met(spec: GateSpec, gate: GateState) -> bool:
    approved = len(gate.approved())
    if spec.trigger == "any_approved":
        return approved >= 1
    if spec.trigger == "threshold":
        return approved >= (spec.threshold_count or 1)
    # all_resolved; `scheduled` has no schedule in a v1 definition and is
    # treated as all_resolved.
    return all(record.decision is not None for record in gate.records)


def evaluate(spec: GateSpec, gate: GateState) -> tuple[Outcome, str]:
    """What the gate does next, from the decisions made so far. Once its timeout escalated
    (still waiting, no longer since a time: the manager decided), the message is the one the
    timeout set (which names decisions given late), then what the manager's decisions did."""
    outcome, message = _evaluate(spec, gate)
    if gate.status == "waiting" and gate.waiting_since is None and gate.message:
        message = (
            f"{gate.message}; the manager decided: {message.removeprefix(f'gate {spec.name}: ')}"
        )
    return outcome, message


def _evaluate(spec: GateSpec, gate: GateState) -> tuple[Outcome, str]:
    rejected = [record for record in gate.current() if record.decision == "reject"]
    if rejected and spec.on_reject == "halt":
        ids = ", ".join(record.id for record in rejected)
        return "halted", f"gate {spec.name}: rejected {ids} (onReject: halt)"
    met = trigger_met(spec, gate)
    if met and spec.trigger in ("any_approved", "threshold"):
        return (
            "released",
            f"gate {spec.name}: {len(gate.approved())} record(s) approved",
        )
    if gate.undecided():
        return (
            "waiting",
            f"gate {spec.name}: {len(gate.undecided())} record(s) to review",
        )
    if rejected and spec.on_reject in ("rerun", "escalate") and gate.round < MAX_ROUNDS:
        return "revise", f"gate {spec.name}: {len(rejected)} record(s) rejected"
    if met:
        return "released", f"gate {spec.name}: every record resolved"
    needed = spec.threshold_count if spec.trigger == "threshold" else 1
    approved = len(gate.approved())
    # A rejection would have sent the records back, but this was the last round.
    sent_back = rejected and spec.on_reject in ("rerun", "escalate")
    last = f" after {MAX_ROUNDS} rounds, the most a gate runs" if sent_back else ""
    return (
        "halted",
        f"gate {spec.name}: not released{last} ({approved} approved, {needed} needed)",
    )


def released_text(spec: GateSpec, gate: GateState, records_json: str) -> str:
    """How a step is handed a gate's approved records; an empty release says why."""
    text = f"Records of step {spec.after_step} approved at gate {spec.name} (JSON):\n{records_json}"
    if not gate.approved():
        why = gate.message or "nothing was released"
        text += f"\n\nNo record was approved at gate {spec.name} ({why})."
    return text


def timed_out(spec: GateSpec, gate: GateState, now: datetime) -> bool:
    limit = spec.timeout()
    # Only a gate still waiting times out: a released or halted gate keeps its waiting_since.
    return (
        limit is not None
        and gate.status == "waiting"
        and gate.waiting_since is not None
        and now - gate.waiting_since > limit
    )
