"""The package under test: the only test module that names it (generated)."""

from inventory_restock_watch import crew, main, models, team
from inventory_restock_watch.envelope_support import (
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
from inventory_restock_watch.envelope_support import http_tools as tools

PACKAGE = "inventory_restock_watch"

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
