"""The package under test: the only test module that names it (generated)."""

from investment_due_diligence_panel import crew, main, models, team
from investment_due_diligence_panel.envelope_support import (
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
from investment_due_diligence_panel.envelope_support import http_tools as tools

PACKAGE = "investment_due_diligence_panel"

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
