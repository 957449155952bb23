"""The tools of the team's connection packs (`envelope export --connections`), for LangGraph.

One StructuredTool per operation of each pack an agent has (`team.CONNECTION_AGENTS`),
typed by the operation's schemas (connections.args_model), async only. Each call is checked
against the agent's access policy (`team.POLICIES`) and the pack's apiHosts before it is
sent (connections.prepare); a refusal or a failure is the tool's text, never raised (the
ToolNode would end the run). The HTTP transport is tools.HTTP_TRANSPORT, read on each call,
the same test seam as the http_request tool's.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from langchain_core.tools import BaseTool, StructuredTool

from .. import models, team
from . import tools
from .connections import (
    Connection,
    Operation,
    args_model,
    describe,
    failed,
    prepare,
    request_options,
)

__all__ = ["connection_tools"]


def _call(
    agent_key: str, connection: Connection, operation: Operation
) -> Callable[..., Awaitable[str]]:
    timeout_s = models.MODELS[agent_key].timeout_s

    async def call(**arguments: Any) -> str:
        # Read at call time: the environment may change between runs of a long-lived server.
        variables = {
            name: os.environ[name]
            for name in (*team.SECRETS, *team.VARIABLES)
            if name in os.environ
        }
        prepared = prepare(
            connection,
            operation,
            arguments,
            agent_key=agent_key,
            policy=team.POLICIES[agent_key],
            variables=variables,
            environ=os.environ,
        )
        if isinstance(prepared, str):
            return prepared
        try:
            async with httpx.AsyncClient(
                transport=tools.HTTP_TRANSPORT, timeout=timeout_s, follow_redirects=False
            ) as client:
                response = await client.request(
                    prepared.method, prepared.url, **request_options(prepared)
                )
        except Exception as error:
            return failed(error, prepared.secrets)
        return describe(response, 4000, prepared.secrets)

    return call


def connection_tools(agent_key: str) -> list[BaseTool]:
    """The agent's connection pack tools (none when it has no pack)."""
    found: list[BaseTool] = []
    for provider in team.CONNECTION_AGENTS.get(agent_key, ()):
        connection = team.CONNECTIONS[provider]
        for operation in connection.operations:
            found.append(
                StructuredTool.from_function(
                    coroutine=_call(agent_key, connection, operation),
                    name=operation.tool,
                    description=f"{connection.display_name}: {operation.description}",
                    args_schema=args_model(operation),
                )
            )
    return found
