"""The team's own package, as the runtime reaches it.

An export's `src/<package>/` holds what is rendered from the team's definition (team.py,
models.py, and crew.py and flow.py, or graph.py, state.py and context.py). The runtime
never imports a team by a fixed name: generated code hands it a `TeamPackage`, and the
runtime imports the team's modules through it when it first needs them. So one process
can hold several teams, and the runtime has no import-time dependency on any of them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

__all__ = ["TeamPackage"]


@dataclass(frozen=True)
class TeamPackage:
    """A team's package by its import name (e.g. `TeamPackage("support_tier")`)."""

    name: str

    def module(self, name: str) -> ModuleType:
        """The team's module `<package>.<name>`, imported on first use."""
        return importlib.import_module(f"{self.name}.{name}")

    @property
    def team(self) -> ModuleType:
        """team.py: the definition's data (agents, inputs, gates, secrets, ...)."""
        return self.module("team")

    @property
    def models(self) -> ModuleType:
        """models.py: each agent's model."""
        return self.module("models")
