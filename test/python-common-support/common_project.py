"""The exported package under test, as python-common's tests see it: the only module of
this suite that names it.

These are the tests of the modules every target ships from templates/python-common
(`<package>.envelope_support.<module>`: checks, gates, model_env, placeholders, policy,
redaction), run by both targets' end-to-end suites against the export of every fixture,
together with that target's own suite (test/crewai-support/, test/langgraph-support/).
`ENVELOPE_PACKAGE` names the package, which must be importable (installed, or on
PYTHONPATH). Modules a team does not ship are None (gates.py without a pipeline; policy.py
when no agent has egress) and their tests skip.

Not `project.py`: both targets' suites have one, and pytest runs this folder together with
one of them (rootless folders, one module namespace).
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


team: ModuleType = _module("team")
checks: ModuleType = _module("envelope_support.checks")
gates: Any = _module("envelope_support.gates")
model_env: ModuleType = _module("envelope_support.model_env")
placeholders: ModuleType = _module("envelope_support.placeholders")
policy: Any = _module("envelope_support.policy")
redaction: ModuleType = _module("envelope_support.redaction")

__all__ = [
    "PACKAGE",
    "checks",
    "gates",
    "model_env",
    "placeholders",
    "policy",
    "redaction",
    "team",
]
