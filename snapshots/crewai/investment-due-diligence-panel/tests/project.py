"""The package under test: the only test module that names it (generated)."""

from investment_due_diligence_panel import (
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

PACKAGE = "investment_due_diligence_panel"

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
