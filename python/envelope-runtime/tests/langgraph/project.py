"""The exported package under test: the only module of this suite that names it (through
python-common's common_project.py, whose modules it re-exports).

These are the tests of envelope-runtime's LangGraph side (`envelope_runtime.langgraph`, the
runner included), run by the repository's end-to-end suite against the exports of each kind
of team (test/e2e/support-suite.ts): `ENVELOPE_PACKAGE` names the team's package, which must
be importable (installed, or on PYTHONPATH), and TEAM is it as the runtime reaches it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from common_project import (
    PACKAGE,
    gates,
    input_spec,
    model_env,
    placeholders,
    policy,
    policy_rules,
    redaction,
    team,
)
from common_project import module as _module

from envelope_runtime.team_package import TeamPackage

context: ModuleType = _module("context")
graph: ModuleType = _module("graph")
main: ModuleType = _module("main")
models: ModuleType = _module("models")
state: ModuleType = _module("state")
TEAM = TeamPackage(PACKAGE)


def _library(name: str) -> Any:
    return importlib.import_module(f"envelope_runtime.langgraph.{name}")


agents: ModuleType = _library("agents")
hierarchy: Any = _library("hierarchy")
llms: ModuleType = _library("llms")
nodes: ModuleType = _library("nodes")
pipeline: Any = _library("pipeline")
prompts: ModuleType = _library("prompts")
review: Any = _library("review")
runner: ModuleType = _library("runner")
runtime: ModuleType = _library("runtime")
tools: Any = _library("tools")
tracing: ModuleType = _library("tracing")
workspace_store: Any = _library("workspace_store")

__all__ = [
    "PACKAGE",
    "TEAM",
    "agents",
    "context",
    "gates",
    "graph",
    "hierarchy",
    "input_spec",
    "llms",
    "main",
    "model_env",
    "models",
    "nodes",
    "pipeline",
    "placeholders",
    "policy",
    "policy_rules",
    "prompts",
    "redaction",
    "review",
    "runner",
    "runtime",
    "state",
    "team",
    "tools",
    "tracing",
    "workspace_store",
]
