"""The package under test: the only test module that names it (generated)."""

from chargeback_responder import crew, main, models, team
from chargeback_responder.envelope_support import (
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
from chargeback_responder.envelope_support import http_tools as tools

PACKAGE = "chargeback_responder"

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
