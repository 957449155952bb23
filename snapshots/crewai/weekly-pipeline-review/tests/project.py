"""The package under test: the only test module that names it (generated)."""

from weekly_pipeline_review import crew, main, models, team
from weekly_pipeline_review.envelope_support import (
    checks,
    delegation,
    llms,
    model_env,
    policy,
    redaction,
    runner,
    runtime,
    texts,
)
from weekly_pipeline_review.envelope_support import http_tools as tools

PACKAGE = "weekly_pipeline_review"

__all__ = [
    "PACKAGE",
    "checks",
    "crew",
    "delegation",
    "llms",
    "main",
    "model_env",
    "models",
    "policy",
    "redaction",
    "runner",
    "runtime",
    "team",
    "texts",
    "tools",
]
