"""envelope-runtime for LangGraph teams: what a team's generated code imports (`__all__`).

Every module of this package is private; the names below are loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# public name -> the private module of this package that defines it
_EXPORTS: dict[str, str] = {}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    pass


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
