"""The package under test: the only test module that names it (generated)."""

from content_studio import context, graph, main, models, state, team
from content_studio.envelope_support import (
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

PACKAGE = "content_studio"

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
