"""What a gate's timeout does (timeout.behaviour; gate_rules.timed_out tells when it applies,
gates.overdue which of a run's gates are past it): the undecided records released (`proceed`),
and the messages that say so, naming decisions given after the deadline. Loaded only where a
timeout applies or a rejection is revised (CrewAI's gate_revision.py, LangGraph's pipeline)
or decisions come past the deadline (run_client)."""

from __future__ import annotations

from datetime import datetime

from .gate_rules import apply_decisions
from .gates import DecisionItem, GateSpec, GateState


def proceed(spec: GateSpec, gate: GateState, now: datetime, late: bool = False) -> None:
    """timeout.behaviour proceed: the undecided records are released as if approved by
    the timeout; rejected and skipped ones stay out."""
    undecided = [DecisionItem(record=r.id, action="approve") for r in gate.undecided()]
    apply_decisions(spec, gate, undecided, now, "timeout", system=True)
    gate.status, gate.problems = "released", []
    released = f"proceed: {len(undecided)} undecided record(s) released"
    gate.message = timeout_message(spec, gate, released, late)


def _late(spec: GateSpec, gate: GateState) -> str:
    since = gate.waiting_since.isoformat(timespec="seconds") if gate.waiting_since else "?"
    return (
        f"decisions given after the gate's deadline (timeout.after {spec.timeout_after}, "
        f"waiting since {since}) were not applied"
    )


def timeout_message(spec: GateSpec, gate: GateState, behaviour: str, late: bool) -> str:
    """A gate's message when its timeout applied; `late`: the resume that applied it carried
    decisions, which lose to the timeout (the README says so) and are named as such."""
    message = f"gate {spec.name}: no decision within {spec.timeout_after} ({behaviour})"
    return f"{message}; {_late(spec, gate)}" if late else message


def late_notice(spec: GateSpec, gate: GateState) -> str:
    """What a runner says of decisions given for a gate past its deadline (both targets)."""
    return (
        f"gate {spec.name}: {_late(spec, gate)}: timeout.behaviour "
        f"{spec.timeout_behaviour} applies instead"
    )
