"""The exported package under test: the only module of this suite that names it.

These are the tests of envelope-export's CrewAI support code (an export's
envelope_support/ and the runner), run by the repository's end-to-end suite against the
export of every fixture: `ENVELOPE_PACKAGE` names the package, which must be importable
(installed, or on PYTHONPATH). Modules a team does not ship are None.
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


crew: ModuleType = _module("crew")
main: ModuleType = _module("main")
models: ModuleType = _module("models")
team: ModuleType = _module("team")
checks: ModuleType = _module("envelope_support.checks")
crew_base: ModuleType = _module("envelope_support.crew_base")
delegation: Any = _module("envelope_support.delegation")
gates: Any = _module("envelope_support.gates")
llms: ModuleType = _module("envelope_support.llms")
model_env: ModuleType = _module("envelope_support.model_env")
pipeline: Any = _module("envelope_support.pipeline")
placeholders: ModuleType = _module("envelope_support.placeholders")
policy: Any = _module("envelope_support.policy")
redaction: ModuleType = _module("envelope_support.redaction")
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
