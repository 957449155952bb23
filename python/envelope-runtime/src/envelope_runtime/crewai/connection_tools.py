"""The tools of the team's connection packs (`envelope export --connections`), for CrewAI.

One `ConnectionTool` per operation of each pack an agent has (`team.CONNECTION_AGENTS`),
typed by the operation's schemas (connections.args_model). Each call is checked against
the agent's access policy and the pack's apiHosts before it is sent (connections.prepare);
a refusal or a failure is the tool's text, never raised. The HTTP transport is
http_tools.HTTP_TRANSPORT, the same test seam as the http_request tool's.

A pack with an MCP server (`team.MCP_SERVERS`) gives the agent the server's tools through
CrewAI's own MCP client (crewai.mcp.MCPClient, MCPNativeTool): they are listed from the
server once per agent when its crew kicks off (as CrewAI lists an agent's `mcps` when it
runs), so building the crew needs neither the credential nor the server (CrewAI's discovery:
AMP, `crewai deploy validate`), and every request of the client passes the same two checks
(connections.mcp_client_factory). A server that cannot be reached then stops the kickoff,
naming the pack and its URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any, ClassVar

import httpx
from crewai import Crew
from crewai.hooks import HookAborted, InterceptionPoint, register_hook
from crewai.hooks.contexts import InputContext
from crewai.mcp import MCPClient
from crewai.mcp.transports.base import BaseTransport, TransportType
from crewai.tools import BaseTool
from crewai.tools.mcp_native_tool import MCPNativeTool
from crewai.utilities.pydantic_schema_utils import create_model_from_schema
from pydantic import BaseModel, Field, PrivateAttr
from typing_extensions import Self

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
from ..policy import AccessPolicy
from ..redaction import redact
from ..team_package import TeamPackage
from . import http_tools

__all__ = [
    "MCP_TRANSPORT",
    "CheckedMcpTransport",
    "ConnectionTool",
    "McpTool",
    "connection_tools",
    "forget_mcp_tools",
    "list_mcp_tools",
    "mcp_tools",
    "set_mcp_transport",
]

MCP_TRANSPORT: httpx.AsyncBaseTransport | None = None
"""Test seam of the MCP servers' requests (read when a client is made), like
http_tools.HTTP_TRANSPORT for the OpenAPI tools'."""


class ConnectionTool(BaseTool):
    """One operation of a connection pack's OpenAPI document."""

    checks_its_requests: ClassVar[bool] = True  # _run checks the URL it sends to
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
        from .. import policy_rules as rules  # as prepare's check: loaded by the first request

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
            return rules.failed(error, prepared.secrets)
        return rules.describe(response, self.max_body_chars, prepared.secrets)


class CheckedMcpTransport(BaseTransport):
    """The MCP SDK's streamable HTTP or SSE client for one pack's server, whose every
    request passes connections.check_request (mcp_client_factory) and carries the pack's
    credential. `transport`: MCP_TRANSPORT."""

    def __init__(
        self,
        server: McpServer,
        *,
        agent_key: str,
        policy: AccessPolicy,
        variables: dict[str, str],
        headers: dict[str, str],
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__()
        self.server = server
        self.headers = headers
        self.factory = mcp_client_factory(
            server, agent_key=agent_key, policy=policy, variables=variables, transport=transport
        )
        self.agent_key = agent_key
        self.policy = policy
        self.variables = variables
        self._stack: contextlib.AsyncExitStack | None = None

    @property
    def transport_type(self) -> TransportType:
        if self.server.transport == "sse":
            return TransportType.SSE
        return TransportType.STREAMABLE_HTTP

    async def connect(self) -> Self:
        if self._connected:
            return self
        # The first request's checks, before anything is opened: a refusal is the error's text.
        refused = mcp_refusal(self.server, self.agent_key, self.policy, self.variables)
        if refused is not None:
            raise ConnectionError(refused)
        stack = contextlib.AsyncExitStack()
        try:
            if self.server.transport == "sse":
                from mcp.client.sse import sse_client

                read, write = await asyncio.wait_for(
                    stack.enter_async_context(
                        sse_client(
                            self.server.url,
                            headers=self.headers,
                            httpx_client_factory=self.factory,
                        )
                    ),
                    timeout=30.0,
                )
            else:
                from mcp.client.streamable_http import streamable_http_client

                client = await stack.enter_async_context(self.factory(headers=self.headers))
                read, write, _ = await asyncio.wait_for(
                    stack.enter_async_context(
                        streamable_http_client(self.server.url, http_client=client)
                    ),
                    timeout=30.0,
                )
        except BaseException as error:
            with contextlib.suppress(BaseException):
                await stack.aclose()
            raise ConnectionError(
                f"MCP server of pack {self.server.provider} ({self.server.url}): {error}"
            ) from error
        self._stack = stack
        self._set_streams(read=read, write=write)
        return self

    async def disconnect(self) -> None:
        stack, self._stack = self._stack, None
        self._clear_streams()
        if stack is not None:
            # The session's end (its DELETE) may fail once the answer is in: nothing to report.
            with contextlib.suppress(BaseException):
                await stack.aclose()

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(self, *_: object) -> None:
        await self.disconnect()


class McpTool(MCPNativeTool):
    """One tool of a pack's MCP server (a fresh checked client per call, as MCPNativeTool
    does); a failure is the tool's text with the credential redacted, never raised."""

    checks_its_requests: ClassVar[bool] = True  # CheckedMcpTransport checks each request
    _secrets: tuple[str, ...] = PrivateAttr(default=())

    def _run(self, **kwargs: Any) -> Any:
        try:
            result = super()._run(**kwargs)
        except Exception as error:
            from ..policy_rules import failed  # the answer of every tool's failed request

            return failed(error, self._secrets)
        return redact(result, self._secrets) if isinstance(result, str) else result


_LISTED: dict[tuple[str, str], list[dict[str, Any]]] = {}
"""The tools each (agent, pack) listed from its MCP server: once per process."""


def set_mcp_transport(transport: httpx.AsyncBaseTransport | None) -> None:
    """Every MCP server's requests through `transport` from now on (None: the network): the
    test seam a team's tests set before its crew is built."""
    global MCP_TRANSPORT
    MCP_TRANSPORT = transport


def forget_mcp_tools() -> None:
    """Forget the MCP tools listed so far in this process: the next use lists them again."""
    _LISTED.clear()


def mcp_tools(
    package: TeamPackage, agent_key: str, server: McpServer, variables: dict[str, str]
) -> list[BaseTool]:
    """The agent's tools of one pack's MCP server, listed from it; every request is checked
    against the agent's access policy and the pack's hosts."""
    return _mcp_tools(agent_key, server, variables, http_tools.policies(package)[agent_key])


def _mcp_tools(
    agent_key: str, server: McpServer, variables: dict[str, str], policy: AccessPolicy
) -> list[BaseTool]:
    headers = credential_headers(server.auth, os.environ)
    if headers is None:
        raise RuntimeError(
            f"{' and '.join(server.auth.env)} not set for the MCP server of pack {server.provider}"
        )

    def client() -> MCPClient:
        return MCPClient(
            CheckedMcpTransport(
                server,
                agent_key=agent_key,
                policy=policy,
                variables=variables,
                headers=headers,
                transport=MCP_TRANSPORT,
            )
        )

    async def listed() -> list[dict[str, Any]]:
        discovery = client()
        await discovery.connect()
        try:
            return await discovery.list_tools()
        finally:
            with contextlib.suppress(Exception):
                await discovery.disconnect()

    key = (agent_key, server.provider)
    if key not in _LISTED:
        try:
            _LISTED[key] = run_sync(listed())
        except Exception as error:
            text = f"listing the tools of pack {server.provider}'s MCP server {server.url} failed"
            secrets = credential_values(server, os.environ)
            raise RuntimeError(redact(f"{text}: {error}", secrets)) from None
    taken: set[str] = set()
    found: list[BaseTool] = []
    for listed_tool in _LISTED[key]:
        original = str(listed_tool.get("original_name") or listed_tool.get("name", ""))
        name = mcp_tool_name(server, original, taken)
        schema = listed_tool.get("inputSchema") or {"type": "object", "properties": {}}
        description = listed_tool.get("description") or original
        tool = McpTool(
            client_factory=client,
            tool_name=original,
            tool_schema={
                "description": f"{server.display_name}: {description}",
                "args_schema": create_model_from_schema(
                    schema, model_name=f"{name}_input", enrich_descriptions=True
                ),
            },
            server_name=server.provider,
            original_tool_name=original,
        )
        tool.name = name
        tool._secrets = credential_values(server, os.environ)
        found.append(tool)
    return found


class McpUnavailable(HookAborted, RuntimeError):
    """A pack's MCP server could not give its tools when the crew kicked off."""


class PendingMcpTools(BaseTool):
    """Where an agent's tools of one pack's MCP server go: replaced by them when its crew
    kicks off (_list_pending). Never offered to a model."""

    agent_key: str
    server: McpServer
    policy: AccessPolicy
    variables: dict[str, str] = Field(default_factory=dict, exclude=True, repr=False)

    def listed(self) -> list[BaseTool]:
        try:
            return _mcp_tools(self.agent_key, self.server, self.variables, self.policy)
        except RuntimeError as error:
            raise McpUnavailable(str(error)) from None

    def _run(self) -> str:
        raise McpUnavailable(f"{self.name}: not listed (the crew did not kick off)")


def list_mcp_tools(crew: Crew) -> None:
    """The crew's agents and tasks get their MCP servers' tools in place of PendingMcpTools:
    at every kickoff (CrewAI's INPUT hook, below); `replay` (Crew.replay runs no hook) calls it
    itself."""
    for holder in (*crew.agents, crew.manager_agent, *crew.tasks):
        tools = getattr(holder, "tools", None)
        if tools and any(isinstance(tool, PendingMcpTools) for tool in tools):
            tools[:] = [
                listed
                for tool in tools
                for listed in (tool.listed() if isinstance(tool, PendingMcpTools) else [tool])
            ]


def _list_pending(context: InputContext) -> None:
    # Raising HookAborted (McpUnavailable) stops the kickoff: CrewAI swallows a hook's others.
    if context.crew is not None:
        list_mcp_tools(context.crew)


register_hook(InterceptionPoint.INPUT, _list_pending)


def connection_tools(package: TeamPackage, agent_key: str) -> list[BaseTool]:
    """The agent's connection pack tools (none when it has no pack)."""
    team = package.team
    policy = http_tools.policies(package)[agent_key]
    variables = {
        name: os.environ[name] for name in (*team.SECRETS, *team.VARIABLES) if name in os.environ
    }
    found: list[BaseTool] = []
    for provider in team.CONNECTION_AGENTS.get(agent_key, ()):
        if provider in team.MCP_SERVERS:
            server = team.MCP_SERVERS[provider]
            found.append(
                PendingMcpTools(
                    name=f"{server.provider} MCP tools",
                    description=f"{server.display_name}: the tools of {server.url}",
                    agent_key=agent_key,
                    server=server,
                    variables=variables,
                    policy=policy,
                )
            )
        if provider not in team.CONNECTIONS:
            continue
        connection = team.CONNECTIONS[provider]
        for operation in connection.operations:
            found.append(
                ConnectionTool(
                    name=operation.tool,
                    description=f"{connection.display_name}: {operation.description}",
                    args_schema=args_model(operation),
                    agent_key=agent_key,
                    policy=policy,
                    connection=connection,
                    operation=operation,
                    variables=variables,
                    timeout_s=package.models.MODELS[agent_key].timeout_ms / 1000,
                )
            )
    return found
