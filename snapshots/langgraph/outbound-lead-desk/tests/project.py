"""The package under test: the only test module that names it (generated)."""

from outbound_lead_desk import context, graph, main, models, state, team
from outbound_lead_desk.envelope_support import (
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

PACKAGE = "outbound_lead_desk"

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
