"""The package under test: the only test module that names it (generated)."""

from engineering_hiring_loop import crew, main, models, team
from engineering_hiring_loop.envelope_support import (
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
from engineering_hiring_loop.envelope_support import http_tools as tools

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
    "runner",
    "runtime",
    "state",
    "team",
    "texts",
    "tools",
]
