"""The package under test: the only test module that names it (generated)."""

from outbound_lead_desk import crew, main, models, team
from outbound_lead_desk.envelope_support import (
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
from outbound_lead_desk.envelope_support import http_tools as tools

PACKAGE = "outbound_lead_desk"

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
