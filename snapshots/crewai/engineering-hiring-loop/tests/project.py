"""The package under test: the only test module that names it (generated)."""

from engineering_hiring_loop import (
    checks,
    crew,
    delegation,
    gates,
    llms,
    main,
    model_env,
    models,
    pipeline,
    policy,
    redaction,
    runtime,
    state,
    team,
    texts,
    tools,
)

PACKAGE = "engineering_hiring_loop"

__all__ = [
    "PACKAGE",
    "checks",
    "crew",
    "delegation",
    "gates",
    "llms",
    "main",
    "model_env",
    "models",
    "pipeline",
    "policy",
    "redaction",
    "runtime",
    "state",
    "team",
    "texts",
    "tools",
]
