"""Definition data types and run-time support every exported Envelope team shares.

A team's generated `team.py` describes it with the types below (agents, pipeline steps;
its inputs are `checks.InputSpec`s). This module also holds the error for missing
environment variables, the reducers of the graph state (the team's `state.py`), the clock of gates
and the runner's exit codes (secret redaction is `redaction.py`). Nothing here calls a
model or imports LangGraph.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

T = TypeVar("T")

# Exit codes of the runner (documented in the README).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2
EXIT_PENDING = 3
EXIT_HALTED = 4
EXIT_TIMEOUT = 124


@dataclass(frozen=True)
class AgentSpec:
    """One entry of the definition's `agents`, as the runtime needs it."""

    name: str
    """The agent's identifier: create_agent(name=...), its manager's `ask_<name>` tool."""
    description: str = ""
    """What the agent is for (name, title, role, capabilities), for its manager's tool."""
    reports_to: str | None = None
    """The key of the agent's manager (agents[].reportsToKey); None for the entry agent."""


@dataclass(frozen=True)
class StepSpec:
    """One entry of the definition's `pipeline`."""

    agent_key: str
    label: str
    depends_on: tuple[str, ...] = ()
    """The steps this one waits for (dependsOn, or the previous step when omitted)."""


EnvRequirement = str | tuple[str, ...]
"""An environment variable's name, or alternatives of which one must be set."""


def missing_env(requirements: Sequence[EnvRequirement]) -> list[str]:
    """Every requirement the environment does not meet (a name, or alternatives of which
    one must be set, as "A or B"), in order, once each: what a run needs that no schema says."""
    missing: list[str] = []
    for requirement in requirements:
        names = (requirement,) if isinstance(requirement, str) else requirement
        label = " or ".join(names)
        if not any(os.environ.get(name) for name in names) and label not in missing:
            missing.append(label)
    return missing


class MissingEnvError(RuntimeError):
    """Required environment variables are not set; `missing` lists every one of them."""

    def __init__(self, missing: Sequence[str]) -> None:
        lines = [f"Missing {len(missing)} required environment variable(s):"]
        lines += [f"  - {name}" for name in missing]
        lines.append("Set them in the environment or in .env (see .env.example).")
        super().__init__("\n".join(lines))
        self.missing = list(missing)


# --- graph state ---------------------------------------------------------

GateStates = dict[str, dict[str, Any]]
"""Gate name -> gates.GateState as JSON data (checkpoints hold plain data only)."""


# A run's fields outlive it in the thread's checkpoints; a new run on the thread (Studio's
# next run, an SDK run on the same thread_id) starts them afresh by writing None, which each
# reducer below reads as "empty". A plain value, not LangGraph's Overwrite: a channel that
# holds no value yet (a new thread's `status`) would store the Overwrite object itself.


def merge(left: Mapping[str, T] | None, right: Mapping[str, T] | None) -> dict[str, T]:
    """Reducer of the state's dicts keyed by step or gate: parallel writes never collide;
    None (a new run) empties the dict."""
    return {} if right is None else {**(left or {}), **right}


def first_reason(left: str | None, right: str | None) -> str | None:
    """Reducer of `halted`: the first reason to halt the run wins; None (a new run) clears it."""
    return None if right is None else left or right


def settle(left: str | None, right: str | None) -> str | None:
    """Reducer of `status`: "halted" stays once set (parallel branches may write it together,
    and a branch that goes on must not make a halted run look done); otherwise the latest.
    None (a new run) clears it."""
    return left if left == "halted" and right is not None else right


Span = tuple[float, float]
"""A model-calling node's working time: wall-clock seconds (start, end)."""


def add_spans(left: Sequence[Span] | None, right: Sequence[Span] | None) -> list[Span]:
    """Reducer of `work`: the union of the nodes' working time, the spans of parallel
    nodes merged where they overlap (so the state stays small and nothing counts twice);
    None (a new run) empties it."""
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
    """The run's working time so far (timeout.runMs bounds it): time a human took to
    review, or a stopped run waited, is not in it."""
    return round(sum(end - start for start, end in spans or []) * 1000)


def utc_now() -> datetime:
    """The clock of gates (tests replace it)."""
    return datetime.now(UTC)
