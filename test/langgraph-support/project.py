"""The exported package under test: the only module of this suite that names it.

These are the tests of envelope-export's LangGraph support code (an export's
envelope_support/ and the runner), run by the repository's end-to-end suite against the
export of every fixture: `ENVELOPE_PACKAGE` names the package, which must be importable
(installed, or on PYTHONPATH). Modules a team does not ship are None (gates.py without
gates; policy.py and tools.py when no agent has egress).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

PACKAGE = os.environ["ENVELOPE_PACKAGE"]


def _module(name: str) -> Any:
    try:
        return importlib.import_module(f"{PACKAGE}.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{PACKAGE}.{name}":
            return None
        raise


context: ModuleType = _module("context")
graph: ModuleType = _module("graph")
main: ModuleType = _module("main")
models: ModuleType = _module("models")
state: ModuleType = _module("state")
team: ModuleType = _module("team")
agents: ModuleType = _module("envelope_support.agents")
checks: ModuleType = _module("envelope_support.checks")
gates: Any = _module("envelope_support.gates")
hierarchy: Any = _module("envelope_support.hierarchy")
llms: ModuleType = _module("envelope_support.llms")
model_env: ModuleType = _module("envelope_support.model_env")
nodes: ModuleType = _module("envelope_support.nodes")
pipeline: Any = _module("envelope_support.pipeline")
placeholders: ModuleType = _module("envelope_support.placeholders")
policy: Any = _module("envelope_support.policy")
prompts: ModuleType = _module("envelope_support.prompts")
redaction: ModuleType = _module("envelope_support.redaction")
review: Any = _module("envelope_support.review")
runner: ModuleType = _module("envelope_support.runner")
runtime: ModuleType = _module("envelope_support.runtime")
tools: Any = _module("envelope_support.tools")

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
    "placeholders",
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
