"""The package under test: the only test module that names it (generated)."""

from support_tier import context, graph, main, models, state, team
from support_tier.envelope_support import (
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

PACKAGE = "support_tier"

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
