"""Offline test setup of the team's connection packs (`envelope export --connections`)."""

from __future__ import annotations

import json
import os

import httpx
import pytest

# --connections: every pack's MCP server is one fake server in these tests
# (the runtime's set_mcp_transport), with test values for the credentials, set before any
# agent is built and its server's tools listed. MCP_REQUESTS: the requests it got.
MCP_REQUESTS: list[httpx.Request] = []


def _fake_mcp_server(request: httpx.Request) -> httpx.Response:
    """An MCP server (streamable HTTP, JSON answers, no session) with one tool, lookup."""
    MCP_REQUESTS.append(request)
    if request.method != "POST":
        return httpx.Response(405)
    message = json.loads(request.content)
    if "id" not in message:
        return httpx.Response(202)
    if message["method"] == "initialize":
        result: dict[str, object] = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fake", "version": "1.0.0"},
        }
    elif message["method"] == "tools/list":
        lookup = {"type": "object", "properties": {"query": {"type": "string"}}}
        result = {"tools": [{"name": "lookup", "description": "Looks up.", "inputSchema": lookup}]}
    else:
        error = {"code": -32601, "message": message["method"]}
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "error": error})
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "result": result})


def pytest_configure(config: pytest.Config) -> None:
    # Here, not at import: the team's modules are imported after the switches above are set.
    from envelope_runtime.langgraph.connection_tools import set_mcp_transport

    from helpdesk_triage import team

    set_mcp_transport(httpx.MockTransport(_fake_mcp_server))
    for server in team.MCP_SERVERS.values():
        for name in server.auth.env:
            os.environ[name] = f"test-value-of-{name.lower()}"


@pytest.fixture
def mcp_requests() -> list[httpx.Request]:
    """The requests the fake MCP server got."""
    return MCP_REQUESTS
