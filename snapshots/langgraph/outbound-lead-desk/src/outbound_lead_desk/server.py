"""What langgraph.json gives the Agent Server (`langgraph dev`, a deployment) for this team.

`open_store` (`store.path`): the workspace documents' store on this project's workspace file
(envelope-runtime's `envelope_runtime.langgraph.workspace_store`).
"""

from __future__ import annotations

from envelope_runtime.langgraph import open_store

__all__ = ["open_store"]

# Outbound Lead Desk (outbound-lead-desk)
