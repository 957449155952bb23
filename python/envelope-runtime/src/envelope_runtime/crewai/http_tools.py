"""Tools of the team's agents: one policy-enforcing HTTP tool per agent with egress.

`policies(package)` holds the team's config/access_policies.yaml (agents[].accessPolicy /
allowedHosts) by agent key, read once per team; an agent without an entry gets no HTTP
tool at all.
"""

from __future__ import annotations

import functools
import os

import httpx

from ..policy import AccessPolicy, Decision, evaluate
from ..team_package import TeamPackage
from .crew_base import config_dir
from .http_request import HttpRequestTool, load_policies

__all__ = [
    "HTTP_TRANSPORT",
    "AccessPolicy",
    "Decision",
    "HttpRequestTool",
    "evaluate",
    "http_tool",
    "policies",
]


@functools.cache
def policies(package: TeamPackage) -> dict[str, AccessPolicy]:
    """The team's access policies by agent key (its config/access_policies.yaml)."""
    return load_policies(config_dir(package) / "access_policies.yaml")


HTTP_TRANSPORT: httpx.BaseTransport | None = None
"""Test seam: an httpx transport for every HTTP request tool (None: the network)."""


def http_tool(package: TeamPackage, agent_key: str) -> HttpRequestTool:
    """The policy-enforcing HTTP tool of one agent (agents[].accessPolicy / allowedHosts)."""
    team = package.team
    env = {
        name: os.environ[name] for name in (*team.SECRETS, *team.VARIABLES) if name in os.environ
    }
    return HttpRequestTool(
        agent_key=agent_key,
        policy=policies(package)[agent_key],
        env=env,
        secret_values=tuple(env[name] for name in team.SECRETS if name in env),
        timeout_s=package.models.MODELS[agent_key].timeout_ms / 1000,
        transport=HTTP_TRANSPORT,
    )
