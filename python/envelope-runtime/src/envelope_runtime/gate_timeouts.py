"""What a gate's timeout does (timeout.behaviour; gate_rules.timed_out tells when it applies):
the undecided records released (`proceed`), and the messages that say so, naming decisions
given after the deadline; which of a run's gates are past it (`passed`). A run never imports
it: a resume or a sweep does, to look for a gate past its deadline (CrewAI's only when a gate
can time out), and a CrewAI flow our runner did not start that pauses (kickoff_deadline.py)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from .gate_rules import apply_decisions, timed_out
from .gates import DecisionItem, GateSpec, GateState


def passed(
    specs: Mapping[str, GateSpec], gates: Mapping[str, GateState], now: datetime
) -> list[str]:
    """The run's gates (`gates`, by name) still waiting past their deadline: a resume that
    reaches them applies their timeout.behaviour."""
    return [name for name, gate in gates.items() if timed_out(specs[name], gate, now)]


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
