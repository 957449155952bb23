"""The team's own package, as the runtime reaches it. Generated code hands the runtime a
`TeamPackage`, never a fixed name, and the runtime imports the team's modules (team.py,
models.py, crew.py and flow.py, or graph.py, state.py and context.py) through it when it
first needs them: one process can hold several teams, and the runtime depends on none."""

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
