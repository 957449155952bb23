"""The exported package under test: the only module of this suite that names it (through
python-common's common_project.py, whose modules it re-exports).

These are the tests of envelope-export's LangGraph support code (an export's
envelope_support/ and the runner), run by the repository's end-to-end suite against the
exports of each kind of team (test/e2e/support-suite.ts): `ENVELOPE_PACKAGE` names the
package, which must be importable (installed, or on PYTHONPATH). Modules a team does not
ship are None (gates.py without gates; policy.py and tools.py when no agent has egress;
workspace_store.py without `workspace`).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from common_project import PACKAGE, checks, gates, model_env, placeholders, policy, redaction, team
from common_project import module as _module

context: ModuleType = _module("context")
graph: ModuleType = _module("graph")
main: ModuleType = _module("main")
models: ModuleType = _module("models")
state: ModuleType = _module("state")
agents: ModuleType = _module("envelope_support.agents")
hierarchy: Any = _module("envelope_support.hierarchy")
llms: ModuleType = _module("envelope_support.llms")
nodes: ModuleType = _module("envelope_support.nodes")
pipeline: Any = _module("envelope_support.pipeline")
prompts: ModuleType = _module("envelope_support.prompts")
review: Any = _module("envelope_support.review")
runner: ModuleType = _module("envelope_support.runner")
runtime: ModuleType = _module("envelope_support.runtime")
tools: Any = _module("envelope_support.tools")
tracing: ModuleType = _module("envelope_support.tracing")
workspace_store: Any = _module("envelope_support.workspace_store")

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
    "tracing",
    "workspace_store",
]
