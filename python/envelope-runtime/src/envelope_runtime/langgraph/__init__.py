"""envelope-runtime for LangGraph teams: what a team's generated code imports (`__all__`).
Every module of this package is private; the names below are loaded on first use, so a team
imports only the modules its features need."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import lazy_exports

# the private module of this package that defines them -> public names (used by: ...)
_EXPORTS: dict[str, tuple[str, ...]] = {
    "connection_tools": ("forget_mcp_tools", "mcp_tools", "set_mcp_transport"),  # tests/
    "hierarchy": ("HierarchyNodes",),  # graph.py
    "llms": ("ModelFactory", "ModelSpec", "build_chat_model", "chosen_model"),  # graph, models
    "pipeline": ("PipelineNodes",),  # graph.py
    "run_client": ("run_parser",),  # tests/
    "runner": ("command_name", "team_amain", "team_main"),  # main.py
    "runtime": (  # state.py, team.py (AgentSpec, StepSpec)
        "AgentSpec",
        "GateStates",
        "Span",
        "StepSpec",
        "add_spans",
        "first_reason",
        "merge",
        "settle",
    ),
    "server_app": ("build_app",),  # server.py (langgraph.json's http.app)
    "testing": ("run_offline",),  # tests/
    # server.py (langgraph.json's store: open_store), tests/
    "workspace_store": ("forget_store_files", "open_store", "open_workspace", "workspace_tools"),
}

__all__ = sorted(name for names in _EXPORTS.values() for name in names)

if TYPE_CHECKING:  # the names above, for editors and type checkers (re-exported)
    from .connection_tools import forget_mcp_tools, mcp_tools, set_mcp_transport  # noqa: F401
    from .hierarchy import HierarchyNodes  # noqa: F401
    from .llms import ModelFactory, ModelSpec, build_chat_model, chosen_model  # noqa: F401
    from .pipeline import PipelineNodes  # noqa: F401
    from .run_client import run_parser  # noqa: F401
    from .runner import command_name, team_amain, team_main  # noqa: F401
    from .runtime import (  # noqa: F401
        AgentSpec,
        GateStates,
        Span,
        StepSpec,
        add_spans,
        first_reason,
        merge,
        settle,
    )
    from .server_app import build_app  # noqa: F401
    from .testing import run_offline  # noqa: F401
    from .workspace_store import (  # noqa: F401
        forget_store_files,
        open_store,
        open_workspace,
        workspace_tools,
    )


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
