"""The tools of the team's connection packs (`envelope export --connections`), for CrewAI.

One `ConnectionTool` per operation of each pack an agent has (`team.CONNECTION_AGENTS`),
typed by the operation's schemas (connections.args_model). Each call is checked against
the agent's access policy and the pack's apiHosts before it is sent (connections.prepare);
a refusal or a failure is the tool's text, never raised. The HTTP transport is
http_tools.HTTP_TRANSPORT, the same test seam as the http_request tool's.
"""

from __future__ import annotations

import os
from typing import Any

import httpx
from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from .. import models, team
from . import http_tools
from .connections import (
    Connection,
    Operation,
    args_model,
    describe,
    failed,
    prepare,
    request_options,
)
from .policy import AccessPolicy

__all__ = ["ConnectionTool", "connection_tools"]


class ConnectionTool(BaseTool):
    """One operation of a connection pack's OpenAPI document."""

    name: str
    description: str
    args_schema: type[BaseModel]
    agent_key: str
    policy: AccessPolicy
    connection: Connection
    operation: Operation
    variables: dict[str, str] = Field(default_factory=dict, exclude=True, repr=False)
    """The team's variables and secrets, for `{{NAME}}` in the access policy's rules."""
    timeout_s: float = 30.0
    max_body_chars: int = 4000

    def _run(self, **arguments: Any) -> str:
        prepared = prepare(
            self.connection,
            self.operation,
            arguments,
            agent_key=self.agent_key,
            policy=self.policy,
            variables=self.variables,
            environ=os.environ,
        )
        if isinstance(prepared, str):
            return prepared
        try:
            with httpx.Client(
                transport=http_tools.HTTP_TRANSPORT,
                timeout=self.timeout_s,
                follow_redirects=False,
            ) as client:
                response = client.request(
                    prepared.method, prepared.url, **request_options(prepared)
                )
        except Exception as error:
            return failed(error, prepared.secrets)
        return describe(response, self.max_body_chars, prepared.secrets)


def connection_tools(agent_key: str) -> list[BaseTool]:
    """The agent's connection pack tools (none when it has no pack)."""
    variables = {
        name: os.environ[name] for name in (*team.SECRETS, *team.VARIABLES) if name in os.environ
    }
    found: list[BaseTool] = []
    for provider in team.CONNECTION_AGENTS.get(agent_key, ()):
        connection = team.CONNECTIONS[provider]
        for operation in connection.operations:
            found.append(
                ConnectionTool(
                    name=operation.tool,
                    description=f"{connection.display_name}: {operation.description}",
                    args_schema=args_model(operation),
                    agent_key=agent_key,
                    policy=http_tools.POLICIES[agent_key],
                    connection=connection,
                    operation=operation,
                    variables=variables,
                    timeout_s=models.MODELS[agent_key].timeout_ms / 1000,
                )
            )
    return found
