"""The exported package under test: the only module of this suite that names it (through
python-common's common_project.py, whose modules it re-exports).

These are the tests of envelope-runtime's CrewAI side (`envelope_runtime.crewai`: the crews,
the Flow, the runner), run by the repository's end-to-end suite against the exports of each
kind of team (test/e2e/support-suite.ts): `ENVELOPE_PACKAGE` names the team's package, which
must be importable (installed, or on PYTHONPATH), like envelope-runtime itself. `TEAM` is
that package as the library reaches it (a `TeamPackage`): the library's functions take it.
Modules of a kind of team the export is not (delegation.py for a pipeline team, the Flow's
for a hierarchy) are None, so that a test of them cannot run against the wrong team.
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

TEAM = TeamPackage(PACKAGE)

PIPELINE = team.MODE == "pipeline"


def _library(name: str, wanted: bool = True) -> Any:
    """`envelope_runtime.crewai.<name>`, or None where the team is not of its kind."""
    return importlib.import_module(f"envelope_runtime.crewai.{name}") if wanted else None


crew: ModuleType = _module("crew")
main: ModuleType = _module("main")
models: ModuleType = _module("models")
crew_base: ModuleType = _library("crew_base")
delegation: Any = _library("delegation", not PIPELINE)
llms: ModuleType = _library("llms")
pipeline: Any = _library("pipeline", PIPELINE)
runner: ModuleType = _library("runner")
runtime: ModuleType = _library("runtime")
state: Any = _library("state", PIPELINE)
steps: Any = _library("steps", PIPELINE)
texts: ModuleType = _library("texts")
tools: Any = _library("http_tools", bool(team.EGRESS))

__all__ = [
    "PACKAGE",
    "PIPELINE",
    "TEAM",
    "crew",
    "crew_base",
    "delegation",
    "gates",
    "input_spec",
    "llms",
    "main",
    "model_env",
    "models",
    "pipeline",
    "placeholders",
    "policy",
    "policy_rules",
    "redaction",
    "runner",
    "runtime",
    "state",
    "steps",
    "team",
    "texts",
    "tools",
]
