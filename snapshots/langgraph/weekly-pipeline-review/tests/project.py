"""The package under test: the only test module that names it (generated)."""

from weekly_pipeline_review import context, graph, main, models, state, team
from weekly_pipeline_review.envelope_support import (
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

PACKAGE = "weekly_pipeline_review"

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
