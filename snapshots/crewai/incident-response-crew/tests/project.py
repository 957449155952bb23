"""The package under test: the only test module that names it (generated)."""

from incident_response_crew import crew, main, models, team
from incident_response_crew.envelope_support import (
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
from incident_response_crew.envelope_support import http_tools as tools

PACKAGE = "incident_response_crew"

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
