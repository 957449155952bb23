"""The package under test: the only test module that names it (generated)."""

from weekly_pipeline_review import (
    agents,
    checks,
    context,
    gates,
    graph,
    llms,
    main,
    model_env,
    models,
    nodes,
    policy,
    prompts,
    redaction,
    runtime,
    state,
    team,
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
    "runtime",
    "state",
    "team",
    "tools",
]
