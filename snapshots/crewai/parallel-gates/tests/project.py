"""The package under test: the only test module that names it (generated)."""

from parallel_gates import (
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

PACKAGE = "parallel_gates"

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
