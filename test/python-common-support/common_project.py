"""The exported package under test, as python-common's tests see it: the only module of
this suite that names it.

These are the tests of the modules every target ships from templates/python-common
(`<package>.envelope_support.<module>`: checks, gates, model_env, placeholders, policy,
redaction, trace), run by both targets' end-to-end suites against the exports of each kind of team,
together with that target's own suite (test/crewai-support/, test/langgraph-support/).
`ENVELOPE_PACKAGE` names the package, which must be importable (installed, or on
PYTHONPATH). Modules a team does not ship are None (gates.py without a pipeline; policy.py
when no agent has egress; connections.py without connection packs) and their tests skip.

Not `project.py`: both targets' suites have one (which imports this module's and adds
the target's own), and pytest runs this folder together with one of them (rootless
folders, one module namespace).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

PACKAGE = os.environ["ENVELOPE_PACKAGE"]


def module(name: str) -> Any:
    """`<package>.<name>`, or None if the export does not ship it."""
    try:
        return importlib.import_module(f"{PACKAGE}.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{PACKAGE}.{name}":
            return None
        raise


team: ModuleType = module("team")
checks: ModuleType = module("envelope_support.checks")
connections: Any = module("envelope_support.connections")
gates: Any = module("envelope_support.gates")
model_env: ModuleType = module("envelope_support.model_env")
placeholders: ModuleType = module("envelope_support.placeholders")
policy: Any = module("envelope_support.policy")
redaction: ModuleType = module("envelope_support.redaction")
trace: ModuleType = module("envelope_support.trace")

__all__ = [
    "PACKAGE",
    "checks",
    "connections",
    "gates",
    "model_env",
    "placeholders",
    "policy",
    "redaction",
    "team",
    "trace",
]
