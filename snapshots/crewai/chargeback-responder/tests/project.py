"""The package under test: the only test module that names it (generated)."""

from chargeback_responder import crew, main, models, team
from chargeback_responder.envelope_support import (
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
from chargeback_responder.envelope_support import http_tools as tools

PACKAGE = "chargeback_responder"

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
