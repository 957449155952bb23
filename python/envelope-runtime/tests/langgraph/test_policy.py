"""Access policies: the shipped POLICIES and the http_request tool (the decision vectors
are python-common's: python/envelope-runtime/tests/common/test_policy_vectors.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import helpers
import httpx
import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from project import TEAM, policy, policy_rules, redaction, team, tools

pytestmark = pytest.mark.anyio

NO_EGRESS = "no agent of this team has egress (accessPolicy or allowedHosts)"

if not team.POLICIES:
    # Only an agent with egress has the http_request tool (its agents' lack of the tool is
    # checked by the export's own tests/test_team_graph.py).
    pytest.skip(NO_EGRESS, allow_module_level=True)

METHODS: tuple[str, ...] = get_args(tools.HttpRequestInput.model_fields["method"].annotation)
"""The methods the tool accepts."""

Handler = Callable[[httpx.Request], httpx.Response]


def _policy(entry: dict[str, Any]) -> policy.AccessPolicy:
    """An agent's (or a vector's) egress, as the definition writes it."""
    if "allowedHosts" in entry:
        return policy.AccessPolicy.from_allowed_hosts(entry["allowedHosts"])
    return policy.AccessPolicy.model_validate(entry["accessPolicy"])


def _definition() -> dict[str, Any]:
    return helpers.definition()


def _egress_agents() -> list[Any]:
    """Parameters for per-agent tests: every agent with egress, or one skipped case."""
    if not team.POLICIES:
        return [pytest.param(None, marks=pytest.mark.skip(reason=NO_EGRESS))]
    return sorted(team.POLICIES)


# --- decisions ---------------------------------------------------------------------


def test_shipped_policies_match_the_definition() -> None:
    expected = {
        agent["key"]: _policy(agent)
        for agent in _definition()["agents"]
        if "accessPolicy" in agent or "allowedHosts" in agent
    }
    assert team.POLICIES == expected


# --- the tool ----------------------------------------------------------------------


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A test value for every secret and variable, set in the environment."""
    values = {name: f"secret-{name.lower().replace('_', '-')}-7f3a" for name in team.SECRETS}
    values |= {name: f"test-{name.lower().replace('_', '-')}" for name in team.VARIABLES}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _route(monkeypatch: pytest.MonkeyPatch, handler: Handler) -> list[httpx.Request]:
    """Sends every tool request to `handler` instead of the network; returns what was sent."""
    sent: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return handler(request)

    monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(record))
    return sent


def _hosts(agent_key: str) -> list[tuple[policy.PolicyRule, str]]:
    """Each readable host rule of the agent with a concrete host it matches ({{NAME}} kept)."""
    return [
        (rule, host)
        for rule in team.POLICIES[agent_key].rules
        if rule.host is not None and (host := policy_rules.example_host(rule.host)) is not None
    ]


def _refused_request(agent_key: str, env: dict[str, str]) -> tuple[str, str] | None:
    """A request (method, url) the agent's policy refuses, preferring a rule's own reason."""
    agent_policy = team.POLICIES[agent_key]
    hosts = ["refused.envelope.invalid", *(policy.expand(h, env) for _, h in _hosts(agent_key))]
    candidates = [
        (method, f"https://{host}{path}")
        for host in reversed(hosts)
        for method in ("DELETE", "POST", "PATCH", "PUT", "GET")
        for path in ("/envelope/refused", "/")
    ]
    refused = [c for c in candidates if not policy_rules.evaluate(agent_policy, *c, env).allowed]
    by_rule = [c for c in refused if policy_rules.evaluate(agent_policy, *c, env).rule is not None]
    chosen = by_rule or refused
    return chosen[0] if chosen else None


def _allowed_request(env: dict[str, str]) -> tuple[str, str, str]:
    """(agent key, method, url with {{NAME}} unexpanded) of a request some policy allows."""
    for agent_key in sorted(team.POLICIES):
        agent_policy = team.POLICIES[agent_key]
        candidates = [
            (method, f"https://{host}{rule.path_prefix or '/'}")
            for rule, host in _hosts(agent_key)
            if rule.action == "allow"
            for method in (rule.methods or ("GET",))
            if method.upper() in METHODS
        ]
        candidates.append(("GET", "https://allowed.envelope.invalid/"))
        for method, url in candidates:
            if policy_rules.evaluate(agent_policy, method, policy.expand(url, env), env).allowed:
                return agent_key, method.upper(), url
    pytest.skip(NO_EGRESS if not team.POLICIES else "no agent's policy allows a request")


@pytest.mark.parametrize("agent_key", _egress_agents())
def test_each_agent_with_egress_gets_a_tool_with_its_policy(agent_key: str) -> None:
    tool = tools.http_tool(TEAM, agent_key)
    assert tool.name == "http_request"
    assert tool.policy == team.POLICIES[agent_key]
    assert set(tool.args) == {"method", "url", "headers", "body"}


@pytest.mark.parametrize("agent_key", _egress_agents())
async def test_a_refused_request_returns_the_reason_and_sends_nothing(
    agent_key: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = _refused_request(agent_key, env)
    if refused is None:
        pytest.skip(f"the policy of {agent_key} allows every request")
    method, url = refused
    decision = policy_rules.evaluate(team.POLICIES[agent_key], method, url, env)
    sent = _route(monkeypatch, lambda request: httpx.Response(200))

    result = await tools.http_tool(TEAM, agent_key).ainvoke({"method": method, "url": url})

    assert result == f"REFUSED by access policy of {agent_key}: {decision.reason}"
    assert sent == []


async def test_an_allowed_request_is_sent_with_values_filled_in_and_secrets_redacted(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)

    def echo(request: httpx.Request) -> httpx.Response:
        token = request.headers.get("x-token", "-")
        return httpx.Response(200, text=f"echo {token} {request.content.decode() or '-'}")

    sent = _route(monkeypatch, echo)
    secret = team.SECRETS[0] if team.SECRETS else None
    args: dict[str, Any] = {"method": method, "url": url}
    if secret is not None:
        args |= {"headers": {"X-Token": "{{" + secret + "}}"}, "body": "{{" + secret + "}}"}

    result = await tools.http_tool(TEAM, agent_key).ainvoke(args)

    assert [str(request.url) for request in sent] == [str(httpx.URL(policy.expand(url, env)))]
    assert sent[0].method == method
    if secret is None:
        assert result == "HTTP 200 OK\necho - -"
    else:
        assert sent[0].headers["x-token"] == env[secret]
        assert sent[0].content == env[secret].encode()
        assert result == "HTTP 200 OK\necho [redacted] [redacted]"


async def test_an_http_error_comes_back_as_the_response_text(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)
    _route(monkeypatch, lambda request: httpx.Response(500, text="upstream broke"))

    result = await tools.http_tool(TEAM, agent_key).ainvoke({"method": method, "url": url})

    assert result == "HTTP 500 Internal Server Error\nupstream broke"


@pytest.mark.parametrize("error", [httpx.ConnectError, httpx.ReadTimeout])
async def test_a_network_failure_comes_back_as_text(
    error: type[httpx.TransportError], env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)

    def fail(request: httpx.Request) -> httpx.Response:
        raise error("no route to " + request.url.host, request=request)

    _route(monkeypatch, fail)

    result = await tools.http_tool(TEAM, agent_key).ainvoke({"method": method, "url": url})

    host = httpx.URL(policy.expand(url, env)).host
    # A host built from a secret ({{SECRET}}.example.com) is redacted like any other text.
    secrets = [env[name] for name in team.SECRETS if name in env]
    expected = redaction.redact(f"REQUEST FAILED: {error.__name__}: no route to {host}", secrets)
    assert result == expected


async def test_a_failure_inside_a_graph_is_a_tool_message_not_an_exception(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)

    def fail(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("unreachable", request=request)

    _route(monkeypatch, fail)
    # ToolNode re-raises tool exceptions other than argument errors; the tool must not raise.
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([tools.http_tool(TEAM, agent_key)]))
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    call = {"name": "http_request", "args": {"method": method, "url": url}, "id": "call-1"}

    state = await builder.compile().ainvoke(
        {"messages": [AIMessage(content="", tool_calls=[call])]}
    )

    reply = state["messages"][-1]
    assert isinstance(reply, ToolMessage) and reply.status == "success"
    assert reply.content == "REQUEST FAILED: ConnectError: unreachable"


async def test_a_request_httpx_cannot_encode_comes_back_as_text(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)
    sent = _route(monkeypatch, lambda request: httpx.Response(200))

    headers = {"X-Note": "caf\u00e9"}
    result = await tools.http_tool(TEAM, agent_key).ainvoke(
        {"method": method, "url": url, "headers": headers}
    )

    assert result.startswith("REQUEST FAILED: UnicodeEncodeError: ")
    assert sent == []


@pytest.mark.parametrize(
    "url", ["https://xn--zz.envelope.invalid/", "https://\u2024.envelope.invalid/"]
)
async def test_a_url_the_http_client_cannot_parse_is_refused_not_raised(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both pass the policy (their hosts are names); httpx rejects them (IDNA).
    allow_all = policy.AccessPolicy(default_action="allow")
    assert policy_rules.evaluate(allow_all, "GET", url, {}).allowed
    sent = _route(monkeypatch, lambda request: httpx.Response(200))

    result = await tools.HttpRequestTool(agent_key="probe", policy=allow_all).ainvoke(
        {"method": "GET", "url": url}
    )

    assert result.startswith("REFUSED by access policy of probe: the HTTP client cannot parse")
    assert sent == []


async def test_a_redirect_is_reported_not_followed(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)
    location = "https://elsewhere.envelope.invalid/next"
    sent = _route(monkeypatch, lambda request: httpx.Response(302, headers={"Location": location}))

    result = await tools.http_tool(TEAM, agent_key).ainvoke({"method": method, "url": url})

    assert len(sent) == 1
    assert result == f"HTTP 302 Found\nLocation: {location}\n"


async def test_a_long_response_is_truncated(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_key, method, url = _allowed_request(env)
    _route(monkeypatch, lambda request: httpx.Response(200, text="x" * 10_000))
    tool = tools.http_tool(TEAM, agent_key)

    result = await tool.ainvoke({"method": method, "url": url})

    kept = "x" * tool.max_body_chars
    assert result == f"HTTP 200 OK\n{kept}\n[truncated 10000 chars]"
