"""The tools of the team's connection packs (`envelope export --connections`), for LangGraph.

One StructuredTool per operation of each pack an agent has (`team.CONNECTION_AGENTS`),
typed by the operation's schemas (connections.args_model), async only. Each call is checked
against the agent's access policy (`team.POLICIES`) and the pack's apiHosts before it is
sent (connections.prepare); a refusal or a failure is the tool's text, never raised (the
ToolNode would end the run). The HTTP transport is tools.HTTP_TRANSPORT, read on each call,
the same test seam as the http_request tool's.

A pack with an MCP server (`team.MCP_SERVERS`) gives the agent the server's tools through
langchain-mcp-adapters (MultiServerMCPClient, a fresh session per call): they are listed from
the server once per agent when its graph is built, renamed `<provider>_<tool>`
(connections.mcp_tool_name), and every request of the client passes the same two checks
(connections.mcp_client_factory). A server that cannot be reached then stops the start,
naming the pack and its URL; a failed call is the tool's text with the credential redacted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from langchain_core.tools import BaseTool, StructuredTool

from .. import models, team
from . import tools
from .connections import (
    Connection,
    McpServer,
    Operation,
    args_model,
    credential_headers,
    credential_values,
    describe,
    failed,
    mcp_client_factory,
    mcp_refusal,
    mcp_tool_name,
    prepare,
    request_options,
    run_sync,
)
from .redaction import redact

__all__ = ["MCP_TRANSPORT", "connection_tools", "mcp_tools"]

MCP_TRANSPORT: httpx.AsyncBaseTransport | None = None
"""Test seam of the MCP servers' requests (read when an agent's tools are listed), like
tools.HTTP_TRANSPORT for the OpenAPI tools'."""


def _call(
    agent_key: str, connection: Connection, operation: Operation
) -> Callable[..., Awaitable[str]]:
    timeout_s = models.MODELS[agent_key].timeout_s

    async def call(**arguments: Any) -> str:
        # Read at call time: the environment may change between runs of a long-lived server.
        variables = _variables()
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


def _variables() -> dict[str, str]:
    return {
        name: os.environ[name] for name in (*team.SECRETS, *team.VARIABLES) if name in os.environ
    }


def _text(content: Any) -> str:
    """An MCP tool's content (a string or content blocks) as one text."""
    if isinstance(content, str):
        return content
    parts = [
        str(block.get("text", ""))
        if isinstance(block, dict) and block.get("type") == "text"
        else json.dumps(block, ensure_ascii=False, default=str)
        for block in (content if isinstance(content, list) else [content])
    ]
    return "\n".join(parts)


def _mcp_call(tool: BaseTool, secrets: tuple[str, ...]) -> Callable[..., Awaitable[str]]:
    async def call(**arguments: Any) -> str:
        try:
            content = await tool.ainvoke({k: v for k, v in arguments.items() if v is not None})
        except Exception as error:
            return failed(error, secrets)
        return redact(_text(content), secrets)

    return call


_LISTED: dict[tuple[str, str], list[BaseTool]] = {}
"""The adapters' tools each (agent, pack) listed from its MCP server: once per process."""


def mcp_tools(agent_key: str, server: McpServer, variables: dict[str, str]) -> list[BaseTool]:
    """The agent's tools of one pack's MCP server, listed from it."""
    from langchain_mcp_adapters.client import MultiServerMCPClient

    secrets = credential_values(server, os.environ)
    key = (agent_key, server.provider)
    if key not in _LISTED:
        where = f"the MCP server of pack {server.provider} ({server.url})"
        headers = credential_headers(server.auth, os.environ)
        if headers is None:
            raise RuntimeError(f"{' and '.join(server.auth.env)} not set for {where}")
        policy = team.POLICIES[agent_key]
        # The first request's checks, before anything is opened: a refusal is the error's text.
        refused = mcp_refusal(server, agent_key, policy, variables)
        if refused is not None:
            raise RuntimeError(f"{where}: {refused}")
        factory = mcp_client_factory(
            server, agent_key=agent_key, policy=policy, variables=variables, transport=MCP_TRANSPORT
        )
        client = MultiServerMCPClient(
            {
                server.provider: {
                    "transport": "sse" if server.transport == "sse" else "streamable_http",
                    "url": server.url,
                    "headers": headers,
                    "httpx_client_factory": factory,
                }
            },
            tool_name_prefix=False,
        )
        try:
            _LISTED[key] = run_sync(client.get_tools(server_name=server.provider))
        except Exception as error:
            raise RuntimeError(
                redact(f"listing the tools of {where} failed: {error}", secrets)
            ) from None
    taken: set[str] = set()
    return [
        StructuredTool.from_function(
            coroutine=_mcp_call(tool, secrets),
            name=mcp_tool_name(server, tool.name, taken),
            description=f"{server.display_name}: {tool.description}",
            args_schema=tool.args_schema,
        )
        for tool in _LISTED[key]
    ]


def connection_tools(agent_key: str) -> list[BaseTool]:
    """The agent's connection pack tools (none when it has no pack)."""
    found: list[BaseTool] = []
    for provider in team.CONNECTION_AGENTS.get(agent_key, ()):
        if provider in team.MCP_SERVERS:
            found.extend(mcp_tools(agent_key, team.MCP_SERVERS[provider], _variables()))
        if provider not in team.CONNECTIONS:
            continue
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
