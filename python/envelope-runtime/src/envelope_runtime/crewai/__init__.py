"""envelope-runtime for CrewAI teams: what a team's generated code imports (`__all__`).

Every module of this package is private; the names below are loaded on first use, each
with only the modules it needs: a hierarchy team never imports the Flow's runner, nor a
team without gates, workspace, connection packs, schedules or a trace their code.

- crew.py: `HierarchyCrew` or `PipelineCrew`, the base of the team's @CrewBase class;
- flow.py (pipeline teams): `PipelineFlow`, the base of the team's Flow, and `GateReview`,
  its gates' human-feedback provider;
- main.py: `CrewCommands` (hierarchy) or `FlowCommands` (pipeline), its console scripts
  (both a `TeamCommands`);
- models.py: `ModelSpec` and `build_llm`;
- tests: `run_offline` (the whole team on scripted models), and `set_mcp_transport`,
  `mcp_tools` and `forget_mcp_tools` (connection packs' MCP servers, faked in a team's tests);
- team.py: `AgentSpec`, `StepSpec`, and `JsonArray`, `JsonObject`, `describe_json_text` for
  array and object outputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import lazy_exports

# public name -> the private module of this package that defines it
_EXPORTS: dict[str, str] = {
    "CrewCommands": "runner",
    "forget_mcp_tools": "connection_tools",
    "mcp_tools": "connection_tools",
    "set_mcp_transport": "connection_tools",
    "HierarchyCrew": "delegation",
    "FlowCommands": "flow_runner",
    "JsonArray": "json_text",
    "JsonObject": "json_text",
    "describe_json_text": "json_text",
    "ModelSpec": "llms",
    "build_llm": "llms",
    "GateReview": "pipeline",
    "PipelineFlow": "pipeline",
    "TeamCommands": "runner",
    "AgentSpec": "runtime",
    "StepSpec": "runtime",
    "PipelineCrew": "steps",
    "run_offline": "testing",
}

__all__ = sorted(_EXPORTS)

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
