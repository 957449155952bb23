"""The package under test: the only test module that names it (generated)."""

from inventory_restock_watch import (
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

PACKAGE = "inventory_restock_watch"

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
