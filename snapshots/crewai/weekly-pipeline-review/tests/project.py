"""The package under test: the only test module that names it (generated)."""

from weekly_pipeline_review import crew, main, models, team
from weekly_pipeline_review.envelope_support import (
    checks,
    delegation,
    gates,
    llms,
    model_env,
    pipeline,
    policy,
    redaction,
    runtime,
    state,
    texts,
)
from weekly_pipeline_review.envelope_support import http_tools as tools

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
