"""Reviewers of a gate at the terminal or from a decisions file (LangGraph's runner).

LangGraph's review.py imports it when a run is resumed; CrewAI's gates are reviewed through
CrewAI's own human feedback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol

from .gate_rules import verb_of
from .gates import DecisionItem, GateSpec, GateState, RecordAction

__all__ = ["DeferredReviewer", "Reviewer", "TerminalReviewer"]


class Reviewer(Protocol):
    interactive: bool

    def review(self, spec: GateSpec, gate: GateState) -> list[DecisionItem] | None:
        """Decisions on the gate's undecided records, or None: nobody can answer now."""


class DeferredReviewer:
    """Non-interactive: decisions come from a file given to `resume`, once."""

    interactive = False

    def __init__(self, decisions: dict[str, list[DecisionItem]] | None = None) -> None:
        self._decisions = dict(decisions or {})

    def review(self, spec: GateSpec, gate: GateState) -> list[DecisionItem] | None:
        return self._decisions.pop(spec.name, None)


def _read_line(prompt: str) -> str:
    # The prompt goes to stderr: stdout carries the run's JSON result.
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return input()


class TerminalReviewer:
    """Interactive: asks on the terminal, record by record."""

    interactive = True

    def __init__(
        self,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None,
    ) -> None:
        self._read = read or _read_line
        self._write = write or (lambda text: print(text, file=sys.stderr))

    def review(self, spec: GateSpec, gate: GateState) -> list[DecisionItem] | None:
        pending = gate.undecided()
        menu = "  ".join(f"[{n}] {a.label}" for n, a in enumerate(spec.actions, start=1))
        self._write(
            f"\nReview gate {spec.name} ({spec.type}) after step {spec.after_step}: "
            f"{len(pending)} record(s).\nActions: {menu}"
        )
        answers: list[DecisionItem] = []
        index = 0
        while index < len(pending):
            record = pending[index]
            self._write(f"\nRecord {record.id}")
            for field in spec.fields:
                self._write(f"  {field}: {record.data.get(field, '')}")
            try:
                choice = self._read(f"Action for {record.id}: ").strip()
            except EOFError:
                return answers or None
            action = self._action(spec, choice)
            if action is None:
                self._write(f"  Choose 1-{len(spec.actions)} or an action label.")
                continue
            if action.verb == "reset":
                if answers:
                    answers.pop()
                    index -= 1
                continue
            feedback = ""
            if action.verb == "reject":
                try:
                    feedback = self._read("Feedback (why rejected): ").strip()
                except EOFError:
                    feedback = ""
            answers.append(DecisionItem(record=record.id, action=action.verb, feedback=feedback))
            index += 1
        return answers

    @staticmethod
    def _action(spec: GateSpec, choice: str) -> RecordAction | None:
        if choice.isdigit() and 1 <= int(choice) <= len(spec.actions):
            return spec.actions[int(choice) - 1]
        verb = verb_of(spec, choice) if choice else None
        return next((a for a in spec.actions if a.verb == verb), None)
