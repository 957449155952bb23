"""envelope-runtime: what an Envelope team exported to CrewAI or LangGraph needs and its
framework does not offer — policy-checked HTTP, gate rules, the workspace rules,
placeholders, redaction, connection packs, schedules and traces.

The public API is the names in `__all__` of this package and of its two target packages,
`envelope_runtime.crewai` and `envelope_runtime.langgraph`; generated team code imports
nothing else. Every other module is private: it may change within a version line. Names
are loaded on first use, so a team imports only what its features need.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# the private module that defines them -> public names
_EXPORTS: dict[str, tuple[str, ...]] = {
    "connections": ("Auth", "Connection", "McpServer", "Operation", "Param"),
    "gates": ("GateSpec", "RecordAction"),
    "input_spec": ("NO_DEFAULT", "InputSpec", "input_specs"),
    "inputs": ("InputError", "collect_inputs"),
    "policy": ("AccessPolicy", "PolicyRule"),
    "team_package": ("TeamPackage",),
    "workspace": ("Column", "DocumentSpec", "Trigger"),
}

__all__ = ["__version__", *sorted(name for names in _EXPORTS.values() for name in names)]

if TYPE_CHECKING:  # the names above, for editors and type checkers
    from .connections import Auth, Connection, McpServer, Operation, Param  # noqa: F401
    from .gates import GateSpec, RecordAction  # noqa: F401
    from .input_spec import NO_DEFAULT, InputSpec, input_specs  # noqa: F401
    from .inputs import InputError, collect_inputs  # noqa: F401
    from .policy import AccessPolicy, PolicyRule  # noqa: F401
    from .team_package import TeamPackage  # noqa: F401
    from .workspace import Column, DocumentSpec, Trigger  # noqa: F401


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]) -> tuple[Any, Any]:
    """PEP 562 `__getattr__` and `__dir__` for a package of this library: each name of
    `exports` (the package's module that defines them -> names) is imported on first use."""
    namespace = sys.modules[package].__dict__
    modules = {name: module for module, names in exports.items() for name in names}

    def get(name: str) -> Any:
        if name not in modules:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{modules[name]}", package), name)
        namespace[name] = value
        return value

    return get, lambda: sorted(namespace["__all__"])


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
