"""The types team.py describes its agents and steps with, and the runner's exit codes."""

from __future__ import annotations

from dataclasses import dataclass

# Exit codes of the runner (documented in the README).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2
EXIT_PENDING = 3
EXIT_HALTED = 4
EXIT_TIMEOUT = 124
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT): a pipeline's run is saved failed, resumable
EXIT_TERMINATED = 143  # SIGTERM (128 + SIGTERM): the same


@dataclass(frozen=True)
class AgentSpec:
    """One of the definition's `agents`."""

    method: str  # its @agent method in crew.py and its config/agents.yaml entry
    reports_to: str | None = None  # agents[].reportsToKey; None for a root


@dataclass(frozen=True)
class StepSpec:
    """One entry of the definition's `pipeline`."""

    agent_key: str
    label: str
    method: str  # its @task method in crew.py
    depends_on: tuple[str, ...] = ()
