"""Review gates: the rules of gate_rules.py and gate_terminal.py (python-common), on
synthetic gates, with no framework and no run. Each target's suite runs the team's own gates
(test_gates.py there).

Skipped for teams whose exports have no gates.py (hierarchy teams).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from common_project import gates

from envelope_runtime import echo, gate_rules, gate_timeouts
from envelope_runtime.gate_terminal import TerminalReviewer

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def spec(**changes: object) -> gates.GateSpec:
    base: dict[str, object] = {
        "name": "g",
        "type": "decision",
        "after_step": "a",
        "triggers_step": "b",
        "fields": ("title",),
        "trigger": "any_approved",
        "on_reject": "skip",
    }
    base.update(changes)
    return gates.GateSpec(**base)  # type: ignore[arg-type]


def gate_with(*decisions: str | None) -> gates.GateState:
    gate = gates.GateState()
    gate.add_round([{"title": f"t{n}"} for n in range(len(decisions))])
    for record, decision in zip(gate.records, decisions, strict=True):
        record.decision = decision  # type: ignore[assignment]
    return gate


@pytest.mark.parametrize(
    ("changes", "decisions", "outcome"),
    [
        ({}, ("approve", None), "released"),
        ({}, (None, None), "waiting"),
        ({}, ("skip", "skip"), "halted"),
        ({"trigger": "threshold", "threshold_count": 2}, ("approve", None), "waiting"),
        (
            {"trigger": "threshold", "threshold_count": 2},
            ("approve", "approve"),
            "released",
        ),
        ({"trigger": "threshold", "threshold_count": 2}, ("approve", "skip"), "halted"),
        ({"trigger": "all_resolved"}, ("approve", None), "waiting"),
        ({"trigger": "all_resolved"}, ("skip", "reject"), "released"),
        ({"trigger": "scheduled"}, ("skip", "skip"), "released"),
        ({"on_reject": "halt"}, ("approve", "reject"), "halted"),
        ({"on_reject": "rerun"}, ("reject", None), "waiting"),
        ({"on_reject": "rerun"}, ("reject", "skip"), "revise"),
        ({"on_reject": "escalate"}, ("reject", "reject"), "revise"),
        ({"on_reject": "rerun"}, ("approve", "reject"), "released"),
        (
            {"on_reject": "rerun", "trigger": "all_resolved"},
            ("approve", "reject"),
            "revise",
        ),
    ],
)
def test_evaluate(
    changes: dict[str, object], decisions: tuple[str | None, ...], outcome: str
) -> None:
    assert gate_rules.evaluate(spec(**changes), gate_with(*decisions))[0] == outcome


def test_revise_stops_after_the_last_round() -> None:
    gate = gate_with("reject")
    for _ in range(gates.MAX_ROUNDS - 1):
        gate.add_round([{"title": "again"}])
        gate.current()[0].decision = "reject"
    assert gate.round == gates.MAX_ROUNDS
    outcome, message = gate_rules.evaluate(spec(on_reject="rerun"), gate)
    assert (outcome, message) == (
        "halted",
        "gate g: not released after 3 rounds, the most a gate runs (0 approved, 1 needed)",
    )


def test_records_get_ids_across_rounds() -> None:
    gate = gate_with("reject", "approve")
    added = gate.add_round([{"title": "x"}])
    assert [r.id for r in gate.records] == ["r1", "r2", "r3"]
    assert added[0].round == 2 and gate.undecided() == added
    assert [r.id for r in gate.approved()] == ["r2"]


def test_apply_decisions_accepts_labels_and_verbs_and_validates_all_first() -> None:
    custom = spec(
        actions=(
            gates.RecordAction("Use source", "approve"),
            gates.RecordAction("Reject source", "reject"),
            gates.RecordAction("Undo", "reset"),
        )
    )
    gate = gate_with(None, None, None)
    bad = [
        gates.DecisionItem(record="r1", action="use SOURCE"),
        gates.DecisionItem(record="r2", action="skip"),
    ]
    expected = (
        "gate g: record r2: unknown action 'skip'; use one of "
        "'Use source' (approve), 'Reject source' (reject), 'Undo' (reset)"
    )
    assert gate_rules.apply_decisions(custom, gate, bad, NOW, "ana") == [expected]
    assert gate.records[0].decision is None  # nothing applied

    good = [
        gates.DecisionItem(record="r1", action="use SOURCE"),
        gates.DecisionItem(record="r2", action="reject", feedback=" too old "),
        gates.DecisionItem(record="r3", action=""),
    ]
    assert gate_rules.apply_decisions(custom, gate, good, NOW, "ana") == []
    assert [(r.decision, r.feedback, r.decided_by) for r in gate.records] == [
        ("approve", None, "ana"),
        ("reject", "too old", "ana"),
        (None, None, None),
    ]
    undo = [gates.DecisionItem(record="r2", action="Undo")]
    assert gate_rules.apply_decisions(custom, gate, undo, NOW, "b") == []
    assert gate.records[1].decision is None and gate.records[1].feedback is None


def test_apply_decisions_refuses_unknown_and_closed_records() -> None:
    gate = gate_with("reject")
    gate.add_round([{"title": "new"}])
    items = [
        gates.DecisionItem(record="r1", action="approve"),
        gates.DecisionItem(record="r7", action="approve"),
    ]
    assert gate_rules.apply_decisions(spec(), gate, items, NOW, "ana") == [
        "gate g: record r1 was reviewed already",
        "gate g: unknown record 'r7'",
    ]


def test_problems_quote_at_most_the_echo_limit_of_what_a_person_gave() -> None:
    # Issue 34: a 2 MB action came back whole in the problems (then in the run's state).
    huge = "x" * 2_000_000
    gate = gate_with(None)
    items = [
        gates.DecisionItem(record="r1", action=huge),
        gates.DecisionItem(record=huge, action="approve"),
    ]
    problems = gate_rules.apply_decisions(spec(), gate, items, NOW, "ana")
    suffix = "\u2026 (2000000 characters)"
    shown = repr("x" * (echo.ECHO_LIMIT - len(suffix)) + suffix)
    assert problems == [
        f"gate g: record r1: unknown action {shown}; use one of "
        "'Approve' (approve), 'Skip' (skip), 'Reject' (reject)",
        f"gate g: unknown record {shown}",
    ]
    # Short values are quoted whole, as before; a cut value is cut no further.
    assert echo.quoted("r7") == "'r7'"
    assert echo.cut(echo.cut(huge)) == echo.cut(huge)
    assert len(echo.cut(huge)) == echo.ECHO_LIMIT
    # However many items are wrong, the list is bounded too: the first MAX_PROBLEMS, then
    # how many more.
    many = [gates.DecisionItem(record=f"q{n}", action="approve") for n in range(5000)]
    listed = gate_rules.apply_decisions(spec(), gate, many, NOW, "ana")
    assert len(listed) == gates.MAX_PROBLEMS + 1
    assert listed[-1] == f"gate g: and {5000 - gates.MAX_PROBLEMS} more problems"
    assert gate.records[0].decision is None  # nothing applied


def test_durations_and_timeouts() -> None:
    assert gates.parse_duration("24h") == timedelta(hours=24)
    assert gates.parse_duration("30m") == timedelta(minutes=30)
    assert gates.parse_duration("2d") == timedelta(days=2)
    assert gates.parse_duration("45s") == timedelta(seconds=45)
    with pytest.raises(ValueError, match="not a duration"):
        gates.parse_duration("1w")
    limited = spec(timeout_after="1h", timeout_behaviour="halt")
    gate = gate_with(None)
    assert not gate_rules.timed_out(limited, gate, NOW)  # not waiting yet
    gate.status, gate.waiting_since = "waiting", NOW
    assert not gate_rules.timed_out(limited, gate, NOW + timedelta(minutes=60))
    assert gate_rules.timed_out(limited, gate, NOW + timedelta(minutes=61))
    assert not gate_rules.timed_out(spec(), gate, NOW + timedelta(days=365))
    # A gate released (or halted) in time never times out later, e.g. when a run resumes.
    gate.status = "released"
    assert not gate_rules.timed_out(limited, gate, NOW + timedelta(days=2))


@pytest.mark.parametrize("late", [True, False], ids=["late", "in-time"])
def test_an_escalated_timeout_says_the_deadline_passed_and_what_the_manager_decided(
    late: bool,
) -> None:
    # timeout.behaviour escalate: the timeout's message is set when it applies (as halt's
    # and proceed's), the manager decides, and the gate routes by evaluate.
    escalating = spec(timeout_after="1h", timeout_behaviour="escalate")
    gate = gate_with(None, None)
    gate.status, gate.waiting_since = "waiting", NOW
    gate.message = gate_timeouts.timeout_message(escalating, gate, "escalate", late)
    items = [gates.DecisionItem(record="r1", action="approve")]
    assert gate_rules.apply_decisions(escalating, gate, items, NOW, "agent:boss", True) == []
    gate.records[1].decision, gate.waiting_since = "skip", None  # the leftover, skipped

    outcome, message = gate_rules.evaluate(escalating, gate)

    assert outcome == "released"
    assert message.startswith("gate g: no decision within 1h (escalate); ")
    assert message.endswith("; the manager decided: 1 record(s) approved")
    assert ("decisions given after the gate's deadline" in message) is late
    # A gate that waits since a time was not escalated: its message is evaluate's own.
    gate.waiting_since = NOW
    assert gate_rules.evaluate(escalating, gate)[1] == "gate g: 1 record(s) approved"


def test_terminal_reviewer_numbers_labels_reset_and_retry() -> None:
    custom = spec(
        fields=("title", "url"),
        actions=(
            gates.RecordAction("Use", "approve"),
            gates.RecordAction("Drop", "reject"),
            gates.RecordAction("Back", "reset"),
        ),
    )
    gate = gates.GateState()
    gate.add_round([{"title": "A", "url": "a"}, {"title": "B", "url": "b"}])
    answers = iter(["1", "3", "nonsense", "drop", "stale", "use"])
    shown: list[str] = []
    reviewer = TerminalReviewer(read=lambda prompt: next(answers), write=shown.append)

    decided = reviewer.review(custom, gate)

    assert decided == [
        gates.DecisionItem(record="r1", action="reject", feedback="stale"),
        gates.DecisionItem(record="r2", action="approve"),
    ]
    assert "Actions: [1] Use  [2] Drop  [3] Back" in shown[0]
    assert "  Choose 1-3 or an action label." in shown
    assert shown.count("\nRecord r1") == 3


def test_terminal_reviewer_end_of_input_leaves_the_rest_pending() -> None:
    gate = gates.GateState()
    gate.add_round([{"title": "A"}, {"title": "B"}])
    answers = iter(["approve"])

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    assert TerminalReviewer(read=read, write=lambda text: None).review(spec(), gate) == [
        gates.DecisionItem(record="r1", action="approve")
    ]
    empty = gates.GateState()
    empty.add_round([{"title": "A"}])
    assert TerminalReviewer(read=read, write=lambda text: None).review(spec(), empty) is None
