"""The package under test: the only test module that names it (generated)."""

from inventory_restock_watch import crew, main, models, team
from inventory_restock_watch.envelope_support import (
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
from inventory_restock_watch.envelope_support import http_tools as tools

PACKAGE = "inventory_restock_watch"

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
