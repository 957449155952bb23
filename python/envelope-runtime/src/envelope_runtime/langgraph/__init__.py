"""envelope-runtime for LangGraph teams: what a team's generated code imports (`__all__`).
Every module of this package is private; the names below are loaded on first use, so a team
imports only the modules its features need."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import lazy_exports

# public name -> the private module of this package that defines it
_EXPORTS: dict[str, str] = {
    # graph.py
    "HierarchyNodes": "hierarchy",
    "ModelFactory": "llms",
    "PipelineNodes": "pipeline",
    # state.py
    "GateStates": "runtime",
    "Span": "runtime",
    "add_spans": "runtime",
    "first_reason": "runtime",
    "merge": "runtime",
    "settle": "runtime",
    # team.py
    "AgentSpec": "runtime",
    "StepSpec": "runtime",
    # models.py
    "ModelSpec": "llms",
    "build_chat_model": "llms",
    "chosen_model": "llms",
    # main.py
    "command_name": "runner",
    "team_amain": "runner",
    "team_main": "runner",
    # server.py (langgraph.json: store, http.app)
    "build_app": "server_app",
    "open_store": "workspace_store",
    # tests/
    "forget_mcp_tools": "connection_tools",
    "forget_store_files": "workspace_store",
    "mcp_tools": "connection_tools",
    "open_workspace": "workspace_store",
    "run_offline": "testing",
    "run_parser": "run_client",
    "set_mcp_transport": "connection_tools",
    "workspace_tools": "workspace_store",
}

__all__ = sorted(_EXPORTS)

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
