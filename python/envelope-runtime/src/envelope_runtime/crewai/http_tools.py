"""Tools of the team's agents: one policy-enforcing HTTP tool per agent with egress.

`POLICIES` holds config/access_policies.yaml (agents[].accessPolicy / allowedHosts) by
agent key; an agent without an entry gets no HTTP tool at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from .. import models, team
from .http_request import HttpRequestTool, load_policies
from ..policy import AccessPolicy, Decision, evaluate

__all__ = [
    "HTTP_TRANSPORT",
    "POLICIES",
    "AccessPolicy",
    "Decision",
    "HttpRequestTool",
    "evaluate",
    "http_tool",
]

POLICIES: dict[str, AccessPolicy] = load_policies(
    Path(__file__).parent.parent / "config" / "access_policies.yaml"
)

HTTP_TRANSPORT: httpx.BaseTransport | None = None
"""Test seam: an httpx transport for every HTTP request tool (None: the network)."""


def http_tool(agent_key: str) -> HttpRequestTool:
    """The policy-enforcing HTTP tool of one agent (agents[].accessPolicy / allowedHosts)."""
    env = {
        name: os.environ[name] for name in (*team.SECRETS, *team.VARIABLES) if name in os.environ
    }
    return HttpRequestTool(
        agent_key=agent_key,
        policy=POLICIES[agent_key],
        env=env,
        secret_values=tuple(env[name] for name in team.SECRETS if name in env),
        timeout_s=models.MODELS[agent_key].timeout_ms / 1000,
        transport=HTTP_TRANSPORT,
    )
