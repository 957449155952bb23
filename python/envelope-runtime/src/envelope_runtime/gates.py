"""Human review gates (the definition's `gates`).

A gate holds the records of its `afterStep`. A human approves, skips or rejects
each one; `trigger` decides when the gate releases `triggersStep`, which then
receives the approved records only. `onReject` says what a rejection does and
`timeout` bounds the wait. Everything here is plain logic: no model calls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

# Re-exported: the gate code (and LangGraph's server_app) quotes what a reviewer gave by the
# same rules as the run's input checks.
from .checks import ECHO_LIMIT as ECHO_LIMIT
from .checks import cut as cut
from .checks import quoted as quoted

__all__ = [
    "DEFAULT_ACTIONS",
    "DecisionItem",
    "GateRecord",
    "GateSpec",
    "GateState",
    "MAX_PROBLEMS",
    "MAX_ROUNDS",
    "OnReject",
    "Outcome",
    "RecordAction",
    "TimeoutBehaviour",
    "Trigger",
    "Verb",
    "apply_decisions",
    "bounded",
    "evaluate",
    "parse_duration",
    "proceed",
    "receives",
    "released_text",
    "shortened",
    "timed_out",
    "trigger_met",
    "verb_of",
]

Verb = Literal["approve", "skip", "reject", "reset"]
Trigger = Literal["any_approved", "all_resolved", "threshold", "scheduled"]
OnReject = Literal["skip", "rerun", "escalate", "halt"]
TimeoutBehaviour = Literal["escalate", "halt", "proceed"]
Outcome = Literal["released", "waiting", "revise", "halted"]

MAX_ROUNDS = 3
"""Review rounds per gate; a rerun or escalation starts a new one."""

MAX_PROBLEMS = 20
"""The most problems listed for one set of decisions; the rest are counted."""

_DURATION = re.compile(r"^(\d+)([smhd])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


@dataclass(frozen=True)
class RecordAction:
    """One of the gate's `recordActions` (label and verb)."""

    label: str
    verb: Verb


DEFAULT_ACTIONS = (
    RecordAction("Approve", "approve"),
    RecordAction("Skip", "skip"),
    RecordAction("Reject", "reject"),
)


@dataclass(frozen=True)
class GateSpec:
    name: str
    type: str
    after_step: str
    triggers_step: str
    fields: tuple[str, ...]
    trigger: Trigger
    on_reject: OnReject
    threshold_count: int | None = None
    actions: tuple[RecordAction, ...] = DEFAULT_ACTIONS
    timeout_after: str | None = None
    timeout_behaviour: TimeoutBehaviour | None = None

    def timeout(self) -> timedelta | None:
        return parse_duration(self.timeout_after) if self.timeout_after else None


def parse_duration(text: str) -> timedelta:
    """`30m`, `24h`, `7d` (the schema's GateTimeout.after)."""
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"not a duration: {text!r}")
    return timedelta(**{_UNITS[match[2]]: int(match[1])})


class GateRecord(BaseModel):
    id: str
    round: int
    data: dict[str, Any]
    decision: Literal["approve", "skip", "reject"] | None = None
    feedback: str | None = None
    decided_at: datetime | None = None
    decided_by: str | None = None


class GateState(BaseModel):
    status: Literal["open", "waiting", "released", "halted"] = "open"
    round: int = 0
    records: list[GateRecord] = Field(default_factory=list)
    waiting_since: datetime | None = None
    message: str | None = None
    problems: list[str] = Field(default_factory=list)
    """Why the last decisions were refused (nothing of them was applied); asked again."""

    def current(self) -> list[GateRecord]:
        return [record for record in self.records if record.round == self.round]

    def undecided(self) -> list[GateRecord]:
        return [record for record in self.current() if record.decision is None]

    def approved(self) -> list[GateRecord]:
        return [record for record in self.records if record.decision == "approve"]

    def add_round(self, rows: Sequence[dict[str, Any]]) -> list[GateRecord]:
        self.round += 1
        start = len(self.records) + 1
        added = [
            GateRecord(id=f"r{start + offset}", round=self.round, data=dict(row))
            for offset, row in enumerate(rows)
        ]
        self.records.extend(added)
        self.status = "open"
        self.waiting_since = None
        self.problems = []
        return added


class DecisionItem(BaseModel):
    """One line of a decisions file, or one answer at the terminal."""

    record: str
    action: str = ""
    """A recordActions label or verb; empty leaves the record undecided."""
    feedback: str = ""


def shortened(text: str, limit: int = 1000) -> str:
    """A message that may carry what a person gave (a parser's error): its first `limit`
    characters, then `… (N characters)`."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


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
    """What the gate does next, from the decisions made so far."""
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


def proceed(spec: GateSpec, gate: GateState, now: datetime) -> None:
    """timeout.behaviour proceed: the undecided records are released as if approved by
    the timeout; rejected and skipped ones stay out."""
    undecided = [DecisionItem(record=r.id, action="approve") for r in gate.undecided()]
    apply_decisions(spec, gate, undecided, now, "timeout", system=True)
    gate.status, gate.problems = "released", []
    gate.message = (
        f"gate {spec.name}: no decision within {spec.timeout_after} (proceed: "
        f"{len(undecided)} undecided record(s) released)"
    )


def receives(
    step_key: str, depends_on: Sequence[str], gates: Mapping[str, GateSpec]
) -> tuple[list[str], list[str]]:
    """What a step is given: the dependencies whose answer it receives, and the gates
    whose approved records it receives instead. A dependency that gates review reaches
    the step only through them (those that trigger this step, else all of them), so no
    step sees a record nobody released; a gate that triggers the step counts too."""
    answers: list[str] = []
    awaited: list[str] = []
    for dep in depends_on:
        reviewing = [name for name, spec in gates.items() if spec.after_step == dep]
        mine = [name for name in reviewing if gates[name].triggers_step == step_key]
        if not reviewing:
            answers.append(dep)
        awaited += [name for name in mine or reviewing if name not in awaited]
    awaited += [
        name
        for name, spec in gates.items()
        if spec.triggers_step == step_key and name not in awaited
    ]
    return answers, awaited


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


_TERMINAL = ("DeferredReviewer", "Reviewer", "TerminalReviewer")


def __getattr__(name: str) -> Any:
    """The reviewers (gate_terminal.py), imported on first use: CrewAI never loads them."""
    if name not in _TERMINAL:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import gate_terminal

    return getattr(gate_terminal, name)
