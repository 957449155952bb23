"""The package under test: the only test module that names it (generated)."""

from parallel_gates import crew, main, models, team
from parallel_gates.envelope_support import (
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
from parallel_gates.envelope_support import http_tools as tools

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
    "runner",
    "runtime",
    "state",
    "team",
    "texts",
    "tools",
]
