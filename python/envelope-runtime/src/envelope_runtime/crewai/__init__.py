"""envelope-runtime for CrewAI teams: the names a team's generated code imports (crew.py,
flow.py, main.py, models.py, team.py and its tests). Every module of this package is
private; each name is loaded on first use with only the modules it needs, so a team loads
no code of features it does not have (gates, workspace, packs, schedules, a trace)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import lazy_exports

# the private module of this package that defines them -> public names
_EXPORTS: dict[str, tuple[str, ...]] = {
    "connection_tools": ("forget_mcp_tools", "mcp_tools", "set_mcp_transport"),
    "delegation": ("HierarchyCrew",),
    "flow_runner": ("FlowCommands",),
    "json_text": ("JsonArray", "JsonObject", "describe_json_text"),
    "llms": ("ModelSpec", "build_llm"),
    "pipeline": ("GateReview", "PipelineFlow"),
    "runner": ("CrewCommands", "TeamCommands"),
    "runtime": ("AgentSpec", "StepSpec"),
    "steps": ("PipelineCrew",),
    "testing": ("run_offline",),
}

__all__ = sorted(name for names in _EXPORTS.values() for name in names)

if TYPE_CHECKING:  # the names above, for editors and type checkers
    from .connection_tools import forget_mcp_tools, mcp_tools, set_mcp_transport  # noqa: F401
    from .delegation import HierarchyCrew  # noqa: F401
    from .flow_runner import FlowCommands  # noqa: F401
    from .json_text import JsonArray, JsonObject, describe_json_text  # noqa: F401
    from .llms import ModelSpec, build_llm  # noqa: F401
    from .pipeline import GateReview, PipelineFlow  # noqa: F401
    from .runner import CrewCommands, TeamCommands  # noqa: F401
    from .runtime import AgentSpec, StepSpec  # noqa: F401
    from .steps import PipelineCrew  # noqa: F401
    from .testing import run_offline  # noqa: F401


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
