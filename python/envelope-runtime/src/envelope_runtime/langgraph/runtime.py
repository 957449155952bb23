"""What team.py (AgentSpec, StepSpec) and state.py (the reducers) are written with, the
error of a failed environment check (inputs.py's missing_env), the clock of gates and the
runner's exit codes; no LangGraph import."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

T = TypeVar("T")

# The runner's exit codes (README).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2
EXIT_PENDING = 3
EXIT_HALTED = 4
EXIT_TIMEOUT = 124


@dataclass(frozen=True)
class AgentSpec:
    """One of the definition's `agents`."""

    name: str  # its identifier: create_agent(name=...), its manager's `ask_<name>` tool
    description: str = ""  # name, title, role, capabilities: its manager's tool says them
    reports_to: str | None = None  # agents[].reportsToKey


@dataclass(frozen=True)
class StepSpec:
    """One of the definition's `pipeline` steps."""

    agent_key: str
    label: str
    depends_on: tuple[str, ...] = ()  # dependsOn, or the previous step when omitted


class MissingEnvError(RuntimeError):
    def __init__(self, missing: Sequence[str]) -> None:
        lines = [f"Missing {len(missing)} required environment variable(s):"]
        lines += [f"  - {name}" for name in missing]
        lines.append("Set them in the environment or in .env (see .env.example).")
        super().__init__("\n".join(lines))
        self.missing = list(missing)


GateStates = dict[str, dict[str, Any]]
"""Gate name -> gates.GateState as JSON data (checkpoints hold plain data only)."""

# A new run on a thread starts a run's fields afresh by writing None, which each reducer
# reads as "empty" (LangGraph's Overwrite would be stored as such in a channel still empty).


def merge(left: Mapping[str, T] | None, right: Mapping[str, T] | None) -> dict[str, T]:
    """The state's dicts keyed by step or gate: parallel writes never collide."""
    return {} if right is None else {**(left or {}), **right}


def first_reason(left: str | None, right: str | None) -> str | None:
    """`halted`: the first reason to halt the run wins."""
    return None if right is None else left or right


def settle(left: str | None, right: str | None) -> str | None:
    """`status`: "halted" stays once set (a parallel branch that goes on must not make a
    halted run look done); otherwise the latest."""
    return left if left == "halted" and right is not None else right


Span = tuple[float, float]  # a model-calling node's working time, wall-clock seconds


def add_spans(left: Sequence[Span] | None, right: Sequence[Span] | None) -> list[Span]:
    """`work`: the union of the nodes' working time (parallel nodes' spans merged, so
    nothing counts twice)."""
    if right is None:
        return []
    merged: list[list[float]] = []
    # Checkpoints give the spans back as lists, the nodes write tuples.
    spans = sorted((float(start), float(end)) for start, end in [*(left or []), *right])
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def worked_ms(spans: Sequence[Span] | None) -> int:
    """The run's working time so far (timeout.runMs bounds it), reviews not counted."""
    return round(sum(end - start for start, end in spans or []) * 1000)


def utc_now() -> datetime:
    """The clock of gates (tests replace it)."""
    return datetime.now(UTC)
