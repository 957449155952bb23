"""The package under test: the only test module that names it (generated)."""

from support_tier import (
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

PACKAGE = "support_tier"

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
