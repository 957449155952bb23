"""Definition data types and run-time support every exported Envelope team shares.

The generated `team.py` describes the team with the types below (agents, pipeline steps;
its inputs are `checks.InputSpec`s). This module also holds the runner's exit codes and
names the whole-run deadline's parts (`timeout.runMs`, deadline.py), loaded when a run
uses them. Nothing here calls a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .deadline import Deadline, RunTimeout, active_deadline, run_with_deadline  # noqa: F401


# Exit codes of the runner (documented in the README).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2
EXIT_PENDING = 3
EXIT_HALTED = 4
EXIT_TIMEOUT = 124


@dataclass(frozen=True)
class AgentSpec:
    """One entry of the definition's `agents`, as the static modules need it."""

    method: str
    """The agent's @agent method in crew.py and its entry in config/agents.yaml."""
    reports_to: str | None = None
    """agents[].reportsToKey: the key of the agent's manager; None for a root."""


@dataclass(frozen=True)
class StepSpec:
    """One entry of the definition's `pipeline`."""

    agent_key: str
    label: str
    method: str
    """Its @task method in crew.py."""
    depends_on: tuple[str, ...] = ()


_DEADLINE = {"Deadline", "RunTimeout", "active_deadline", "run_with_deadline"}


def __getattr__(name: str) -> Any:
    if name not in _DEADLINE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import deadline

    return getattr(deadline, name)
