"""The package under test: the only test module that names it (generated)."""

from support_tier import crew, main, models, team
from support_tier.envelope_support import (
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
from support_tier.envelope_support import http_tools as tools

PACKAGE = "support_tier"

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
