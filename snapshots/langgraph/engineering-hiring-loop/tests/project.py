"""The package under test: the only test module that names it (generated)."""

from engineering_hiring_loop import (
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
    "runtime",
    "state",
    "team",
    "tools",
]
