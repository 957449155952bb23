"""The package under test: the only test module that names it (generated)."""

from support_tier import crew, main, models, team
from support_tier.envelope_support import (
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
from support_tier.envelope_support import http_tools as tools

PACKAGE = "support_tier"

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
