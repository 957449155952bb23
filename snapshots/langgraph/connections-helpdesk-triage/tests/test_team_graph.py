"""The team's own tests, generated from its definition (envelope.json).

They build the team's graph offline, and no model is ever called. They check that:
- every agent is drawn in the graph, as Studio shows it;
- the graph has input, output and context schemas, the input naming each input;
- each agent has its model field in the context, and holds the tools it is given;
- a run without inputs is refused, naming each required one.

envelope-runtime, the library the team runs on, has its own tests (in envelope-export's
repository). Run these with `uv run pytest`.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import fields
from typing import Any

import httpx
import pytest
from envelope_runtime import connections
from envelope_runtime.inputs import InputError, collect_inputs
from envelope_runtime.langgraph.connection_tools import forget_mcp_tools, mcp_tools
from envelope_runtime.langgraph.run_client import run_parser
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult

from helpdesk_triage import context, graph, team
from helpdesk_triage.graph import TEAM

# agents[]: key -> its field of the run's context (context.Context: the agent's model)
CONTEXT_FIELDS: dict[str, str] = {
    # agents[0] triager
    "triager": "triager",
}

# The tools each agent holds: http_request with agents[].accessPolicy / allowedHosts
# ask_<report> per report (agents[].reportsToKey)
TOOLS: dict[str, tuple[str, ...]] = {
    # agents[0] triager
    "triager": ("http_request", "helpdesk_get_ticket", "helpdesk_post_tickets_ticket_id_comments"),
}

# agents[].reportsToKey: the nodes from the team's graph down to each agent's own node
AGENT_NODES: dict[str, tuple[str, ...]] = {
    # agents[0] triager
    "triager": ("team", "triager"),
}

# inputs: key -> its key in the graph's input (Studio's form)
INPUT_CHANNELS: dict[str, str] = {
    # inputs.ticket_id
    "ticket_id": "ticket_id",
}

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("ticket_id",)


class _NoModel(BaseChatModel):
    """The chat model of every agent in these tests: none is ever called."""

    @property
    def _llm_type(self) -> str:
        return "no-model"

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        raise AssertionError("a model was called")


def _no_model(agent_key: str) -> BaseChatModel:
    return _NoModel()


@pytest.fixture(scope="module")
def team_graph() -> Any:
    """The team's compiled graph, with models that are never called."""
    return graph.build_graph(model_for=_no_model)


def test_building_the_graph_asks_no_mcp_server(mcp_requests: list[httpx.Request]) -> None:
    # An agent's MCP tools are listed on its first model call (envelope-runtime's McpTools):
    # importing the graph (--help, langgraph dev) needs no credential and no network.
    forget_mcp_tools()
    mcp_requests.clear()
    graph.build_graph(model_for=_no_model)
    assert mcp_requests == []


def test_every_agent_is_drawn_in_the_graph(team_graph: Any) -> None:
    drawn = list(team_graph.get_graph(xray=True).nodes)
    for key, path in AGENT_NODES.items():
        prefix = ":".join(path) + ":"
        assert any(node.startswith(prefix) for node in drawn), f"{key}: nothing under {prefix}"


def test_each_agent_holds_the_tools_the_definition_gives_it(team_graph: Any) -> None:
    drawn = team_graph.get_graph(xray=True).nodes
    for key, path in AGENT_NODES.items():
        tools_node = drawn.get(":".join(path) + ":tools")
        names = set(tools_node.data.tools_by_name) if tools_node is not None else set()
        assert names == set(TOOLS[key]), key


def test_the_graph_has_input_output_and_context_schemas(team_graph: Any) -> None:
    inputs = team_graph.get_input_jsonschema()
    assert set(inputs.get("properties", {})) == set(INPUT_CHANNELS.values())
    assert "status" in team_graph.get_output_jsonschema()["properties"]
    assert set(CONTEXT_FIELDS.values()) <= set(team_graph.get_context_jsonschema()["properties"])


def test_each_agent_has_its_model_field_in_the_context() -> None:
    assert context.AGENT_FIELDS == CONTEXT_FIELDS
    assert set(CONTEXT_FIELDS.values()) <= {field.name for field in fields(context.Context)}
    assert set(team.AGENTS) == set(CONTEXT_FIELDS)


def test_a_run_without_inputs_is_refused_naming_each_required_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    args = run_parser(TEAM).parse_args([])

    with pytest.raises(InputError) as refused:
        collect_inputs(args, team.TeamInputs, team.INPUT_CHANNELS)

    for key in REQUIRED_INPUTS:
        assert f"input {key!r} is required" in refused.value.problems, key


ALLOW_ALL = connections.AccessPolicy(default_action="allow")
DENY_ALL = connections.AccessPolicy(default_action="deny")


# --- --connections: each pack operation's tool, checked twice before it sends ------------


@pytest.mark.parametrize(
    ("provider", "tool", "arguments"),
    [
        ("helpdesk", "helpdesk_get_ticket", {"ticket_id": 1}),
        (
            "helpdesk",
            "helpdesk_post_tickets_ticket_id_comments",
            {"ticket_id": 1, "body": {"body": "x"}},
        ),
    ],
)
def test_a_pack_tool_sends_its_credential_to_its_api_hosts_only(
    provider: str, tool: str, arguments: dict[str, object]
) -> None:
    connection = team.CONNECTIONS[provider]
    operation = next(op for op in connection.operations if op.tool == tool)
    # The typed arguments accept the operation's required values.
    checked = connections.args_model(operation).model_validate(arguments)
    environ = {name: f"test-value-of-{name.lower()}" for name in connection.auth.env}

    def prepare(
        where: connections.Connection, policy: connections.AccessPolicy, env: dict[str, str]
    ) -> connections.Prepared | str:
        return connections.prepare(
            where,
            operation,
            dict(checked),
            agent_key="test",
            policy=policy,
            variables={},
            environ=env,
        )

    prepared = prepare(connection, ALLOW_ALL, environ)
    assert isinstance(prepared, connections.Prepared), prepared
    assert prepared.url.startswith(connection.base_url + "/")
    assert connection.auth.header in prepared.headers
    assert prepared.secrets
    # Outside apiHosts: refused even where the access policy allows everything.
    elsewhere = connections.Connection(
        **{**vars(connection), "base_url": "https://elsewhere.invalid"}
    )
    refused = prepare(elsewhere, ALLOW_ALL, environ)
    assert isinstance(refused, str) and refused.startswith("REFUSED by connection pack"), refused
    # The agent's access policy first: refused before the pack is looked at.
    denied = prepare(connection, DENY_ALL, environ)
    assert isinstance(denied, str) and denied.startswith("REFUSED by access policy"), denied
    # No credential in the environment: nothing is sent.
    unset = prepare(connection, ALLOW_ALL, {})
    assert isinstance(unset, str) and unset.startswith("REFUSED:"), unset


# --- --connections: the packs' MCP servers (in these tests one fake server: conftest.py) ---


def test_an_mcp_servers_tools_are_listed_with_its_credential(
    mcp_requests: list[httpx.Request],
) -> None:
    # Listed afresh: an earlier test's run may have listed them with its own test values.
    forget_mcp_tools()
    mcp_requests.clear()
    for agent_key, providers in team.CONNECTION_AGENTS.items():
        for provider in providers:
            server = team.MCP_SERVERS.get(provider)
            if server is None:
                continue
            tools = mcp_tools(TEAM, agent_key, server, {})
            names = {tool.name for tool in tools}
            assert connections.mcp_tool_name(server, "lookup", set()) in names, agent_key
            credential = connections.credential_headers(server.auth, os.environ)
            assert credential is not None
            sent = [r for r in mcp_requests if str(r.url) == server.url]
            assert sent, provider
            assert all(
                r.headers[server.auth.header] == credential[server.auth.header] for r in sent
            )


@pytest.mark.parametrize("provider", list(team.MCP_SERVERS))
def test_an_mcp_servers_requests_are_checked_twice(provider: str) -> None:
    server = team.MCP_SERVERS[provider]
    url, refused = connections.check_request(server, "POST", server.url, "test", ALLOW_ALL, {})
    assert (url, refused) == (server.url, None)
    # Outside apiHosts: refused even where the access policy allows everything.
    elsewhere = "https://elsewhere.invalid/mcp"
    _, refused = connections.check_request(server, "POST", elsewhere, "test", ALLOW_ALL, {})
    assert refused is not None and refused.startswith("REFUSED by connection pack"), refused
    _, denied = connections.check_request(server, "POST", server.url, "test", DENY_ALL, {})
    assert denied is not None and denied.startswith("REFUSED by access policy"), denied
    # The MCP client's HTTP client: a redirect is not followed, a request elsewhere is
    # refused before it is sent.
    sent: list[httpx.Request] = []

    def redirect(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(307, headers={"location": elsewhere})

    factory = connections.mcp_client_factory(
        server,
        agent_key="test",
        policy=ALLOW_ALL,
        variables={},
        transport=httpx.MockTransport(redirect),
    )

    async def requests() -> None:
        async with factory() as client:
            assert (await client.post(server.url)).status_code == 307
            with pytest.raises(connections.RefusedRequest):
                await client.post(elsewhere)

    asyncio.run(requests())
    assert [str(request.url) for request in sent] == [server.url]


def test_the_runner_requires_every_pack_credential() -> None:
    for pack in (*team.CONNECTIONS.values(), *team.MCP_SERVERS.values()):
        for name in pack.auth.env:
            assert name in team.CONNECTION_SECRETS
