"""The package under test: the only test module that names it (generated)."""

from engineering_hiring_loop import context, graph, main, models, state, team
from engineering_hiring_loop.envelope_support import (
    agents,
    checks,
    gates,
    llms,
    model_env,
    nodes,
    policy,
    prompts,
    redaction,
    runner,
    runtime,
    tools,
)

PACKAGE = "engineering_hiring_loop"

__all__ = [
    "PACKAGE",
    "agents",
    "checks",
    "context",
    "gates",
    "graph",
    "llms",
    "main",
    "model_env",
    "models",
    "nodes",
    "policy",
    "prompts",
    "redaction",
    "runner",
    "runtime",
    "state",
    "team",
    "tools",
]
