"""Human review gates (the definition's `gates`).

A gate holds the records of its `afterStep`. A human approves, skips or rejects
each one; `trigger` decides when the gate releases `triggersStep`, which then
receives the approved records only. `onReject` says what a rejection does and
`timeout` bounds the wait. Everything here is plain logic: no model calls. Deciding at a
gate (gate_rules.py) and asking at a terminal (gate_terminal.py) are modules of their own,
imported where a gate is reviewed, so a team that only builds its graph loads neither.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

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


def overdue(
    specs: Mapping[str, GateSpec], gates: Mapping[str, GateState], now: datetime
) -> list[str]:
    """The gates (`gates`, by name) still waiting past their deadline: a resume that reaches
    them applies their timeout.behaviour. None at once when no gate of the team can time out."""
    if not any(spec.timeout_after for spec in specs.values()):
        return []
    from .gate_rules import timed_out  # gate_rules imports this module

    return [name for name, gate in gates.items() if timed_out(specs[name], gate, now)]


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

    def listing(self, fields: Sequence[str]) -> list[dict[str, Any]]:
        """The undecided records as a reviewer decides them: id and the gate's fields."""
        return [{"record": r.id, **{f: r.data.get(f) for f in fields}} for r in self.undecided()]

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
