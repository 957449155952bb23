"""The package under test: the only test module that names it (generated)."""

import importlib
from typing import Any

from chargeback_responder import context, graph, main, models, state, team
from chargeback_responder.envelope_support import (
    agents,
    checks,
    llms,
    model_env,
    nodes,
    prompts,
    redaction,
    runner,
    runtime,
)

PACKAGE = "chargeback_responder"


def _module(name: str) -> Any:
    """A support module only some teams ship, or None."""
    try:
        return importlib.import_module(f"{PACKAGE}.envelope_support.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{PACKAGE}.envelope_support.{name}":
            return None
        raise


gates: Any = _module("gates")
hierarchy: Any = _module("hierarchy")
pipeline: Any = _module("pipeline")
policy: Any = _module("policy")
review: Any = _module("review")
tools: Any = _module("tools")

__all__ = [
    "PACKAGE",
    "agents",
    "checks",
    "context",
    "gates",
    "graph",
    "hierarchy",
    "llms",
    "main",
    "model_env",
    "models",
    "nodes",
    "pipeline",
    "policy",
    "prompts",
    "redaction",
    "review",
    "runner",
    "runtime",
    "state",
    "team",
    "tools",
]
