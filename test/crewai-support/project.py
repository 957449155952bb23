"""The exported package under test: the only module of this suite that names it (through
python-common's common_project.py, whose modules it re-exports).

These are the tests of envelope-export's CrewAI support code (an export's
envelope_support/ and the runner), run by the repository's end-to-end suite against the
exports of each kind of team (test/e2e/support-suite.ts): `ENVELOPE_PACKAGE` names the
package, which must be importable (installed, or on PYTHONPATH). Modules a team does not
ship are None.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from common_project import PACKAGE, checks, gates, model_env, placeholders, policy, redaction, team
from common_project import module as _module

crew: ModuleType = _module("crew")
main: ModuleType = _module("main")
models: ModuleType = _module("models")
crew_base: ModuleType = _module("envelope_support.crew_base")
delegation: Any = _module("envelope_support.delegation")
llms: ModuleType = _module("envelope_support.llms")
pipeline: Any = _module("envelope_support.pipeline")
runner: ModuleType = _module("envelope_support.runner")
runtime: ModuleType = _module("envelope_support.runtime")
state: Any = _module("envelope_support.state")
steps: Any = _module("envelope_support.steps")
texts: ModuleType = _module("envelope_support.texts")
tools: Any = _module("envelope_support.http_tools")

__all__ = [
    "PACKAGE",
    "checks",
    "crew",
    "crew_base",
    "delegation",
    "gates",
    "llms",
    "main",
    "model_env",
    "models",
    "pipeline",
    "placeholders",
    "policy",
    "redaction",
    "runner",
    "runtime",
    "state",
    "steps",
    "team",
    "texts",
    "tools",
]
