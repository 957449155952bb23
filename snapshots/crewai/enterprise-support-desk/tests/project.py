"""The package under test: the only test module that names it (generated)."""

from enterprise_support_desk import crew, main, models, team
from enterprise_support_desk.envelope_support import (
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
from enterprise_support_desk.envelope_support import http_tools as tools

PACKAGE = "enterprise_support_desk"

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
