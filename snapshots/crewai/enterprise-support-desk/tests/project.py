"""The package under test: the only test module that names it (generated)."""

from enterprise_support_desk import crew, main, models, team
from enterprise_support_desk.envelope_support import (
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
from enterprise_support_desk.envelope_support import http_tools as tools

PACKAGE = "enterprise_support_desk"

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
