"""The tools of a pack's MCP server (each target's connection_tools.py: CrewAI's MCP client
and MCPNativeTool, or langchain-mcp-adapters), against a fake server (mcp_fake.py): listed
once with the credential, renamed `<provider>_<tool>` and called; an unreachable server or a
URL the policy refuses stops the start naming the pack, a failed call is the tool's text,
and the credential is redacted from every text.

Skipped for teams exported without an MCP pack.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import pytest
from common_project import PACKAGE, connections, module, team
from mcp_fake import FakeMcpServer

from envelope_runtime.team_package import TeamPackage

if not getattr(team, "MCP_SERVERS", None):
    pytest.skip("exported without an MCP connection pack", allow_module_level=True)

# The target's runtime package: CrewAI's when the team has a crew.py, else LangGraph's.
TARGET = "crewai" if module("crew") is not None else "langgraph"
connection_tools: Any = importlib.import_module(f"envelope_runtime.{TARGET}.connection_tools")
TEAM = TeamPackage(PACKAGE)


def _deny_for(monkeypatch: pytest.MonkeyPatch, agent_key: str) -> None:
    """The agent's access policy replaced by one that refuses everything: CrewAI reads the
    policies from config/access_policies.yaml (http_tools.policies), LangGraph from team.py."""
    deny = connections.AccessPolicy(default_action="deny")
    if TARGET == "crewai":
        http_tools: Any = importlib.import_module("envelope_runtime.crewai.http_tools")
        policies = http_tools.policies
        monkeypatch.setattr(
            connection_tools.http_tools,
            "policies",
            lambda package: {**policies(package), agent_key: deny},
        )
    else:
        monkeypatch.setitem(team.POLICIES, agent_key, deny)


TOKEN = "tok-3b9d-secret"


def _mcp_agent() -> tuple[str, Any]:
    for agent_key, providers in team.CONNECTION_AGENTS.items():
        for provider in providers:
            if provider in team.MCP_SERVERS:
                return agent_key, team.MCP_SERVERS[provider]
    raise AssertionError("no agent has an MCP server")


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeMcpServer:
    server = FakeMcpServer()
    # set for this test only, and nothing listed before it counts
    monkeypatch.setattr(connection_tools, "MCP_TRANSPORT", server.transport())
    connection_tools.forget_mcp_tools()
    for mcp in team.MCP_SERVERS.values():
        for name in mcp.auth.env:
            monkeypatch.setenv(name, TOKEN)
    return server


def _search(agent_key: str, server: Any) -> Any:
    tools = connection_tools.mcp_tools(TEAM, agent_key, server, {})
    name = connections.mcp_tool_name(server, "search", set())
    return next(tool for tool in tools if tool.name == name)


def _call(tool: Any, **arguments: Any) -> Any:
    """A LangChain tool (async only) or a CrewAI one."""
    if hasattr(tool, "ainvoke"):
        return asyncio.run(tool.ainvoke(arguments))
    return tool.run(**arguments)


def test_the_tools_are_listed_once_with_the_credential_and_called(fake: FakeMcpServer) -> None:
    agent_key, server = _mcp_agent()
    tool = _search(agent_key, server)
    _search(agent_key, server)
    assert fake.methods().count("tools/list") == 1
    assert _call(tool, query="refunds") == "found refunds (asked with Bearer [redacted])"
    assert fake.methods().count("tools/call") == 1
    assert {r.headers["authorization"] for r in fake.requests} == {f"Bearer {TOKEN}"}
    assert {str(r.url) for r in fake.requests} == {server.url}


def test_a_failed_call_is_the_tools_text(fake: FakeMcpServer) -> None:
    agent_key, server = _mcp_agent()
    tool = _search(agent_key, server)
    fake.fail_calls = True
    text = _call(tool, query="refunds")
    assert isinstance(text, str) and text.startswith("REQUEST FAILED"), text
    assert TOKEN not in text


def test_an_unreachable_server_stops_the_start_naming_the_pack(fake: FakeMcpServer) -> None:
    agent_key, server = _mcp_agent()
    fake.down = True
    with pytest.raises(RuntimeError) as failed:
        connection_tools.mcp_tools(TEAM, agent_key, server, {})
    assert f"pack {server.provider}" in str(failed.value) and server.url in str(failed.value)
    assert TOKEN not in str(failed.value)


def test_a_url_the_policy_refuses_is_never_asked(
    fake: FakeMcpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, server = _mcp_agent()
    _deny_for(monkeypatch, agent_key)
    with pytest.raises(RuntimeError, match="REFUSED by access policy"):
        connection_tools.mcp_tools(TEAM, agent_key, server, {})
    assert fake.requests == []
