"""The package under test: the only test module that names it (generated)."""

from investment_due_diligence_panel import (
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

PACKAGE = "investment_due_diligence_panel"

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
