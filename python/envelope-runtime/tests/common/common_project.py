"""The exported package under test, as python-common's tests see it: the only module of
this suite that names it.

These are the tests of envelope-runtime's core, the modules both targets share
(`envelope_runtime.<module>`: checks, connections, gates, input_spec, inputs, model_env,
placeholders, policy, policy_rules, redaction, trace), run by both targets' end-to-end suites
against the exports of each kind of team, together with that target's own suite
(python/envelope-runtime/tests/crewai/, python/envelope-runtime/tests/langgraph/).
`ENVELOPE_PACKAGE` names the team's package, which must be importable (installed, or on
PYTHONPATH), like envelope-runtime itself.

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
    """The team's module `<package>.<name>`, or None if the export has none of that name."""
    try:
        return importlib.import_module(f"{PACKAGE}.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{PACKAGE}.{name}":
            return None
        raise


team: ModuleType = module("team")
checks: ModuleType = importlib.import_module("envelope_runtime.checks")
connections: ModuleType = importlib.import_module("envelope_runtime.connections")
gates: ModuleType = importlib.import_module("envelope_runtime.gates")
input_spec: ModuleType = importlib.import_module("envelope_runtime.input_spec")
model_env: ModuleType = importlib.import_module("envelope_runtime.model_env")
placeholders: ModuleType = importlib.import_module("envelope_runtime.placeholders")
policy: ModuleType = importlib.import_module("envelope_runtime.policy")
policy_rules: ModuleType = importlib.import_module("envelope_runtime.policy_rules")
redaction: ModuleType = importlib.import_module("envelope_runtime.redaction")
trace: ModuleType = importlib.import_module("envelope_runtime.trace")

__all__ = [
    "PACKAGE",
    "checks",
    "connections",
    "gates",
    "input_spec",
    "model_env",
    "placeholders",
    "policy",
    "policy_rules",
    "redaction",
    "team",
    "trace",
]
