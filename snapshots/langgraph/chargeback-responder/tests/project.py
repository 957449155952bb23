"""The package under test: the only test module that names it (generated)."""

from chargeback_responder import (
    agents,
    gates,
    graph,
    llms,
    main,
    models,
    nodes,
    policy,
    prompts,
    runtime,
    state,
    team,
    tools,
)

PACKAGE = "chargeback_responder"

__all__ = [
    "PACKAGE",
    "agents",
    "gates",
    "graph",
    "llms",
    "main",
    "models",
    "nodes",
    "policy",
    "prompts",
    "runtime",
    "state",
    "team",
    "tools",
]
