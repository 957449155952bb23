"""What langgraph.json gives the Agent Server (`langgraph dev`, a deployment) for this team.

`app` (`http.app`): the middleware that keeps secret values out of a gate's resume, built by
envelope-runtime's `envelope_runtime.langgraph.server_app` for this team's package.
"""

from __future__ import annotations

from envelope_runtime.langgraph.server_app import build_app
from envelope_runtime.team_package import TeamPackage

__all__ = ["app"]

# Vendor Onboarding Review (parallel-gates)
# This team's package, as the middleware reaches team.py (its secrets, its gates' labels).
TEAM = TeamPackage("parallel_gates")

app = build_app(TEAM)
"""langgraph.json `http.app`: no routes of its own, only the middleware that rewrites each
run's `command.resume` (secret values redacted, bounded) and refuses the routes that would
resume a run otherwise."""
