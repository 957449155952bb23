"""The package under test: the only test module that names it (generated)."""

from incident_response_crew import (
    agents,
    checks,
    context,
    gates,
    graph,
    llms,
    main,
    model_env,
    models,
    nodes,
    policy,
    prompts,
    redaction,
    runtime,
    state,
    team,
    tools,
)

PACKAGE = "incident_response_crew"

__all__ = [
    "PACKAGE",
    "agents",
    "checks",
    "context",
    "gates",
    "graph",
    "llms",
    "main",
    "model_env",
    "models",
    "nodes",
    "policy",
    "prompts",
    "redaction",
    "runtime",
    "state",
    "team",
    "tools",
]
