"""The package under test: the only test module that names it (generated)."""

from weekly_pipeline_review import (
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

PACKAGE = "weekly_pipeline_review"

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
