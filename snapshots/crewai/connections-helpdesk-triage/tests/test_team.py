"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline: its agents and their tools,
and the checks of its inputs.
And the whole team runs offline, against scripted models that never reach a network:
every agent.
The runtime library, envelope-runtime, has its own tests. Run these with `uv run pytest`.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import httpx
import pytest
from crewai import BaseLLM
from envelope_runtime import connections
from envelope_runtime.crewai.connection_tools import forget_mcp_tools, mcp_tools
from envelope_runtime.crewai.testing import run_offline
from pydantic import ValidationError

from helpdesk_triage import crew, models, team

# the team's package, as the runtime reaches it (crew.py's)
TEAM = crew.TeamCrew.package

# agents[]: key -> CrewAI role (config/agents.yaml)
ROLES: dict[str, str] = {
    # agents[0] triager
    "triager": "Tess",
}

# agents[].accessPolicy / allowedHosts: who holds the http_request tool (a crew's manager
# holds no tool: a worker makes its requests)
HTTP_AGENTS: tuple[str, ...] = ("triager",)

# agents[].reportsToKey: who runs a sub-team of their own (the delegate_to_team tool)
SUB_TEAM_AGENTS: tuple[str, ...] = ()

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("ticket_id",)


class _NoModel(BaseLLM):
    """The models of these tests: none is ever called."""

    def call(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("a model was called")


@pytest.fixture
def crews(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The team's crew class, with models that are never called and test values for the
    secrets and variables."""
    monkeypatch.setattr(models, "llm_for", lambda key: _NoModel(model=f"none/{key}"))
    for name in (*team.SECRETS, *team.VARIABLES):
        monkeypatch.setenv(name, f"test-{name.lower()}")
    return crew.TeamCrew()


def test_each_agent_has_its_role(crews: Any) -> None:
    roles = {key: crews.agents_config[spec.method]["role"] for key, spec in team.AGENTS.items()}
    assert roles == ROLES


def test_each_agent_holds_the_tools_the_definition_gives_it(crews: Any) -> None:
    for key, spec in team.AGENTS.items():
        names = {tool.name for tool in getattr(crews, spec.method)().tools}
        assert ("http_request" in names) == (key in HTTP_AGENTS), key
        assert ("delegate_to_team" in names) == (key in SUB_TEAM_AGENTS), key


def test_building_the_crew_asks_no_mcp_server(
    crews: Any, mcp_requests: list[httpx.Request], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An agent's MCP tools are listed when its crew kicks off (envelope-runtime's
    # PendingMcpTools): building it, as CrewAI's discovery does (AMP, `crewai deploy
    # validate`), needs no credential and no network.
    forget_mcp_tools()
    mcp_requests.clear()
    for server in team.MCP_SERVERS.values():
        for name in server.auth.env:
            monkeypatch.delenv(name, raising=False)
    crews.crew()
    assert mcp_requests == []


def test_a_run_without_inputs_is_refused_naming_each_required_one() -> None:
    with pytest.raises(ValidationError) as refused:
        team.TeamInputs.model_validate({})

    missing = [error["loc"][0] for error in refused.value.errors() if error["type"] == "missing"]
    assert missing == list(REQUIRED_INPUTS)


# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.category
    "category",
    # outputs.next_step
    "next_step",
)


def test_the_whole_team_runs_offline(tmp_path: Any) -> None:
    """The team's console script runs the team from inputs its TeamInputs accept to its
    result (envelope-runtime's run_offline: scripted models, never a network).
    The manager delegates to each agent (CrewAI's delegation tools).
    """
    run = run_offline(crew.TeamCrew.package, tmp_path)

    assert run.codes[-1] == 0, run.output
    assert tuple(run.output) == OUTPUTS
    team.TeamResult.model_validate(run.output)
    assert run.codes == [0]
    assert run.agents() == set(ROLES)


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
