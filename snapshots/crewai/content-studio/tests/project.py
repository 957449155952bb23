"""The package under test: the only test module that names it (generated)."""

from content_studio import crew, main, models, team
from content_studio.envelope_support import (
    checks,
    delegation,
    gates,
    llms,
    model_env,
    pipeline,
    policy,
    redaction,
    runner,
    runtime,
    state,
    texts,
)
from content_studio.envelope_support import http_tools as tools

PACKAGE = "content_studio"

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
    "runner",
    "runtime",
    "state",
    "team",
    "texts",
    "tools",
]
