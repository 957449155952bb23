"""The package under test: the only test module that names it (generated)."""

from outbound_lead_desk import crew, main, models, team
from outbound_lead_desk.envelope_support import (
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
from outbound_lead_desk.envelope_support import http_tools as tools

PACKAGE = "outbound_lead_desk"

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
