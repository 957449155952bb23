"""The tools of the team's connection packs (`envelope export --connections`), for LangGraph.

One StructuredTool per operation of each pack an agent has (`team.CONNECTION_AGENTS`),
typed by the operation's schemas (connections.args_model), async only. Each call is checked
against the agent's access policy (`team.POLICIES`) and the pack's apiHosts before it is
sent (connections.prepare); a refusal or a failure is the tool's text, never raised (the
ToolNode would end the run). The HTTP transport is tools.HTTP_TRANSPORT, read on each call,
the same test seam as the http_request tool's.

A pack with an MCP server (`team.MCP_SERVERS`) gives the agent the server's tools through
langchain-mcp-adapters (MultiServerMCPClient, a fresh session per call), renamed
`<provider>_<tool>` (connections.mcp_tool_name); every request of the client passes the same
two checks (connections.mcp_client_factory). They are not known when the graph is built:
importing the graph (`--help`, `langgraph dev`) must make no network call and need no
credential. `McpTools`, a middleware of the agent's graph, lists them on the agent's first
model call of the process (again when the credential changes) and adds them to the call;
it also runs their calls, in the agent's tool node and in a manager's `call-tools`. A server
that cannot be reached then fails the run, naming the pack and its URL; a failed call is the
tool's text with the credential redacted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from langchain.agents.middleware import (
    AgentMiddleware,
    ModelRequest,
    ModelResponse,
    ToolCallRequest,
)
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.types import Command

from ..connections import (
    Connection,
    McpServer,
    Operation,
    args_model,
    credential_headers,
    credential_values,
    mcp_client_factory,
    mcp_refusal,
    mcp_tool_name,
    prepare,
    request_options,
    run_sync,
)
from ..redaction import redact
from ..team_package import TeamPackage
from . import tools

MCP_TRANSPORT: httpx.AsyncBaseTransport | None = None
"""Test seam of the MCP servers' requests (read when an agent's tools are listed), like
tools.HTTP_TRANSPORT for the OpenAPI tools' (set_mcp_transport)."""


def set_mcp_transport(transport: httpx.AsyncBaseTransport | None) -> None:
    """Every MCP server's requests through `transport` from now on (None: the network): the
    test seam a team's tests set before its graph is built."""
    global MCP_TRANSPORT
    MCP_TRANSPORT = transport


def forget_mcp_tools() -> None:
    """Forget the MCP tools listed so far in this process: the next use lists them again."""
    _LISTED.clear()


def _call(
    package: TeamPackage, agent_key: str, connection: Connection, operation: Operation
) -> Callable[..., Awaitable[str]]:
    team = package.team
    timeout_s = package.models.MODELS[agent_key].timeout_s

    async def call(**arguments: Any) -> str:
        # Read at call time: the environment may change between runs of a long-lived server.
        variables = _variables(package)
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
        from .. import policy_rules as rules  # as prepare's check: loaded by the first request

        try:
            async with httpx.AsyncClient(
                transport=tools.HTTP_TRANSPORT, timeout=timeout_s, follow_redirects=False
            ) as client:
                response = await client.request(
                    prepared.method, prepared.url, **request_options(prepared)
                )
        except Exception as error:
            return rules.failed(error, prepared.secrets)
        return rules.describe(response, 4000, prepared.secrets)

    return call


def _variables(package: TeamPackage) -> dict[str, str]:
    team = package.team
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
            from ..policy_rules import failed  # the answer of every tool's failed request

            return failed(error, secrets)
        return redact(_text(content), secrets)

    return call


_LISTED: dict[tuple[str, str, str, str], list[BaseTool]] = {}
"""The adapters' tools listed from each pack's MCP server, by team, agent, pack, credential
and variables: once per process while those stay the same."""


async def amcp_tools(
    package: TeamPackage, agent_key: str, server: McpServer, variables: dict[str, str]
) -> list[BaseTool]:
    """The agent's tools of one pack's MCP server, listed from it (on first use)."""
    from langchain_mcp_adapters.client import MultiServerMCPClient

    where = f"the MCP server of pack {server.provider} ({server.url})"
    headers = credential_headers(server.auth, os.environ)
    if headers is None:
        raise RuntimeError(f"{' and '.join(server.auth.env)} not set for {where}")
    secrets = credential_values(server, os.environ)
    listing = json.dumps([headers, variables], sort_keys=True)
    key = (package.name, agent_key, server.provider, listing)
    if key not in _LISTED:
        policy = package.team.POLICIES[agent_key]
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
            _LISTED[key] = await client.get_tools(server_name=server.provider)
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


def mcp_tools(
    package: TeamPackage, agent_key: str, server: McpServer, variables: dict[str, str]
) -> list[BaseTool]:
    """amcp_tools from sync code (a worker thread when a loop is running)."""
    return run_sync(amcp_tools(package, agent_key, server, variables))


def mcp_servers(package: TeamPackage, agent_key: str) -> tuple[McpServer, ...]:
    """The MCP servers of the agent's packs."""
    team = package.team
    providers = team.CONNECTION_AGENTS.get(agent_key, ())
    return tuple(team.MCP_SERVERS[p] for p in providers if p in team.MCP_SERVERS)


class McpTools(AgentMiddleware):
    """The agent's MCP servers' tools, listed when the agent first calls its model (never
    when its graph is built), added to each model call and run by its tool nodes."""

    def __init__(self, package: TeamPackage, agent_key: str) -> None:
        super().__init__()
        self.package = package
        self.agent_key = agent_key
        self.servers = mcp_servers(package, agent_key)

    async def listed(self) -> dict[str, BaseTool]:
        """The tools by name; the environment is read now (a long-lived server's may change)."""
        variables = _variables(self.package)
        found: dict[str, BaseTool] = {}
        for server in self.servers:
            for tool in await amcp_tools(self.package, self.agent_key, server, variables):
                found[tool.name] = tool
        return found

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        found = await self.listed()
        return await handler(request.override(tools=[*request.tools, *found.values()]))

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        call = request.tool_call
        if request.tool is not None:
            return await handler(request)
        try:
            # Listed already, unless this process resumes a reply that called one.
            tool = (await self.listed()).get(call["name"])
        except RuntimeError as error:
            return ToolMessage(
                str(error), name=call["name"], tool_call_id=call["id"] or "", status="error"
            )
        return await handler(request if tool is None else request.override(tool=tool))


def connection_tools(package: TeamPackage, agent_key: str) -> list[BaseTool]:
    """The agent's OpenAPI packs' tools (none when it has no pack); its MCP servers' tools
    come from its McpTools middleware."""
    team = package.team
    found: list[BaseTool] = []
    for provider in team.CONNECTION_AGENTS.get(agent_key, ()):
        if provider not in team.CONNECTIONS:
            continue
        connection = team.CONNECTIONS[provider]
        for operation in connection.operations:
            found.append(
                StructuredTool.from_function(
                    coroutine=_call(package, agent_key, connection, operation),
                    name=operation.tool,
                    description=f"{connection.display_name}: {operation.description}",
                    args_schema=args_model(operation),
                )
            )
    return found
