"""The package under test: the only test module that names it (generated)."""

from incident_response_crew import crew, main, models, team
from incident_response_crew.envelope_support import (
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
from incident_response_crew.envelope_support import http_tools as tools

PACKAGE = "incident_response_crew"

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
