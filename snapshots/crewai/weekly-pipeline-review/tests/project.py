"""The package under test: the only test module that names it (generated)."""

from weekly_pipeline_review import (
    crew,
    delegation,
    gates,
    llms,
    main,
    models,
    pipeline,
    prompts,
    runtime,
    state,
    team,
    tools,
)

PACKAGE = "weekly_pipeline_review"

__all__ = [
    "PACKAGE",
    "crew",
    "delegation",
    "gates",
    "llms",
    "main",
    "models",
    "pipeline",
    "prompts",
    "runtime",
    "state",
    "team",
    "tools",
]
