"""The package under test: the only test module that names it (generated)."""

from investment_due_diligence_panel import crew, main, models, team
from investment_due_diligence_panel.envelope_support import (
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
from investment_due_diligence_panel.envelope_support import http_tools as tools

PACKAGE = "investment_due_diligence_panel"

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
