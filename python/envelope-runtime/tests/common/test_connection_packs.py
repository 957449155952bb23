"""Connection packs' OpenAPI tools and MCP servers (connections.py, python-common): the
apiHosts rule's vectors, which envelope-export's TypeScript (src/connections/api-hosts.ts)
shares, the typed arguments made of an operation's schemas, the two checks every request
passes, and the MCP client's checked HTTP client and tool names.

Skipped for teams exported without connection packs (whose exports have no connections.py).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from common_project import connections, policy_rules
from pydantic import ValidationError

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[4] / "spec" / "api-hosts-vectors.json").read_text(encoding="utf-8")
)["vectors"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["why"] for v in VECTORS])
def test_api_hosts_vector(vector: dict[str, Any]) -> None:
    assert connections.api_hosts_allow(vector["apiHosts"], vector["host"]) is vector["allowed"]


def _operation(**changes: Any) -> Any:
    base: dict[str, Any] = {
        "tool": "acme_update_item",
        "method": "PUT",
        "path": "/items/{item id}",
        "description": "Update an item",
        "params": (
            connections.Param("item_id", "item id", "path", True, "", {"type": "string"}),
            connections.Param(
                "mode", "mode", "query", False, "", {"type": "string", "enum": ["a", "b"]}
            ),
            connections.Param(
                "ids", "ids", "query", False, "", {"type": "array", "items": {"type": "integer"}}
            ),
            connections.Param("trace", "X-Trace", "header", False, "", {"type": "boolean"}),
        ),
        "body": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "2fa-enabled": {"type": "boolean"},
                "meta": {"type": "object", "properties": {"n": {"type": "number"}}},
            },
        },
        "body_required": True,
    }
    return connections.Operation(**{**base, **changes})


CONNECTION = connections.Connection(
    provider="acme",
    display_name="Acme",
    auth=connections.Auth("basic", "Authorization", ("ACME_USERNAME", "ACME_PASSWORD")),
    api_hosts=("acme.example.com",),
    base_url="https://api.acme.example.com/v1",
    operations=(),
)
ALLOW = connections.AccessPolicy(default_action="allow")
ENV = {"ACME_USERNAME": "user", "ACME_PASSWORD": "pass-long-enough"}


def _prepare(arguments: dict[str, Any], **overrides: Any) -> Any:
    options: dict[str, Any] = {
        "agent_key": "a",
        "policy": ALLOW,
        "variables": {},
        "environ": ENV,
    }
    options.update(overrides)
    connection = options.pop("connection", CONNECTION)
    return connections.prepare(connection, _operation(), arguments, **options)


def test_the_arguments_are_typed_by_the_schemas() -> None:
    model = connections.args_model(_operation())
    checked = model.model_validate(
        {"item_id": "a/b", "mode": "a", "ids": [1, 2], "body": {"name": "n", "2fa-enabled": True}}
    )
    assert connections.plain(dict(checked))["body"] == {"name": "n", "2fa-enabled": True}
    for wrong in (
        {"item_id": "x", "mode": "c", "body": {"name": "n"}},  # not one of the enum
        {"item_id": "x", "body": {}},  # the body's required name
        {"body": {"name": "n"}},  # the required path parameter
        {"item_id": "x", "body": {"name": "n"}, "extra": 1},  # no other argument
        {"item_id": "x", "ids": ["one"], "body": {"name": "n"}},  # integers
    ):
        with pytest.raises(ValidationError):
            model.model_validate(wrong)


def test_the_request_encodes_values_and_carries_the_credential() -> None:
    prepared = _prepare(
        {"item_id": "../admin?x", "ids": [1, 2], "trace": True, "body": {"name": "n"}}
    )
    assert isinstance(prepared, connections.Prepared), prepared
    # A path value is one segment, whatever it holds.
    assert prepared.url == "https://api.acme.example.com/v1/items/..%2Fadmin%3Fx"
    assert prepared.params == [("ids", "1"), ("ids", "2")]
    assert prepared.headers["X-Trace"] == "true"
    assert prepared.headers["Authorization"] == "Basic dXNlcjpwYXNzLWxvbmctZW5vdWdo"
    assert prepared.body == {"name": "n"}
    assert prepared.secrets == ("user", "pass-long-enough")


def test_no_parameter_stands_beside_the_credential_header() -> None:
    operation = _operation(
        params=(
            connections.Param("item_id", "item id", "path", True, "", {"type": "string"}),
            connections.Param("auth", "authorization", "header", False, "", {"type": "string"}),
        )
    )
    prepared = connections.prepare(
        CONNECTION,
        operation,
        {"item_id": "x", "auth": "Bearer model-chosen", "body": {"name": "n"}},
        agent_key="a",
        policy=ALLOW,
        variables={},
        environ=ENV,
    )
    assert isinstance(prepared, connections.Prepared), prepared
    assert [name.lower() for name in prepared.headers] == ["authorization"]
    assert prepared.headers["Authorization"].startswith("Basic ")


def test_both_checks_refuse_fail_closed() -> None:
    deny = connections.AccessPolicy(default_action="deny")
    assert _prepare({"item_id": "x"}, policy=deny).startswith("REFUSED by access policy of a:")
    for base in (
        "https://evilacme.example.com",
        "https://acme.example.com.evil.net",
        "http://127.0.0.1",
    ):
        elsewhere = connections.Connection(**{**vars(CONNECTION), "base_url": base})
        refused = _prepare({"item_id": "x"}, connection=elsewhere)
        assert refused.startswith("REFUSED by connection pack acme:"), refused
    assert _prepare({"item_id": "x"}, environ={"ACME_USERNAME": "user"}).startswith("REFUSED:")


def test_a_result_never_shows_the_credential() -> None:
    import httpx

    response = httpx.Response(200, text="echo pass-long-enough")
    assert "pass-long-enough" not in policy_rules.describe(response, 100, ("pass-long-enough",))
    assert "[truncated" in policy_rules.describe(httpx.Response(200, text="x" * 50), 10, ())


# --- MCP servers ---------------------------------------------------------------------


def _server(**changes: Any) -> Any:
    base: dict[str, Any] = {
        "provider": "docs-search",
        "display_name": "Docs",
        "auth": connections.Auth("bearer", "Authorization", ("DOCS_SEARCH_TOKEN",)),
        "api_hosts": ("docs.example.com",),
        "url": "https://mcp.docs.example.com/mcp",
        "transport": "http",
    }
    return connections.McpServer(**{**base, **changes})


def test_an_mcp_servers_requests_pass_both_checks() -> None:
    server = _server()
    deny = connections.AccessPolicy(default_action="deny")
    assert connections.check_request(server, "POST", server.url, "a", ALLOW, {}) == (
        server.url,
        None,
    )
    _, refused = connections.check_request(
        server, "POST", "https://docs.example.com.evil.io/mcp", "a", ALLOW, {}
    )
    assert refused is not None and refused.startswith("REFUSED by connection pack docs-search")
    _, denied = connections.check_request(server, "POST", server.url, "a", deny, {})
    assert denied is not None and denied.startswith("REFUSED by access policy of a")
    # The first request, before the client opens: the session's POST, or an SSE stream's GET.
    assert connections.mcp_refusal(server, "a", ALLOW, {}) is None
    post_only = connections.AccessPolicy.model_validate(
        {"defaultAction": "deny", "rules": [{"action": "allow", "methods": ["POST"]}]}
    )
    assert connections.mcp_refusal(server, "a", post_only, {}) is None
    sse = _server(transport="sse")
    refused_sse = connections.mcp_refusal(sse, "a", post_only, {})
    assert refused_sse is not None and refused_sse.startswith("REFUSED by access policy")


def test_the_mcp_clients_http_client_refuses_before_sending_and_follows_no_redirect() -> None:
    server = _server()
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(302, headers={"location": "https://elsewhere.example/mcp"})

    factory = connections.mcp_client_factory(
        server, agent_key="a", policy=ALLOW, variables={}, transport=httpx.MockTransport(answer)
    )

    async def requests() -> None:
        async with factory(headers={"Authorization": "Bearer t"}) as client:
            response = await client.post(server.url)
            assert response.status_code == 302
            with pytest.raises(connections.RefusedRequest, match="not under its apiHosts"):
                await client.get("https://elsewhere.example/mcp")

    asyncio.run(requests())
    assert [(r.method, str(r.url), r.headers["authorization"]) for r in sent] == [
        ("POST", server.url, "Bearer t")
    ]


def test_mcp_tool_names_are_prefixed_sanitized_short_and_unique() -> None:
    server = _server()
    taken: set[str] = set()
    assert connections.mcp_tool_name(server, "search", taken) == "docs_search_search"
    assert connections.mcp_tool_name(server, "search", taken) == "docs_search_search_2"
    assert connections.mcp_tool_name(server, "get page/ü", taken) == "docs_search_get_page__"
    long = connections.mcp_tool_name(server, "x" * 100, taken)
    assert len(long) == 64 and long.startswith("docs_search_x")
    again = connections.mcp_tool_name(server, "x" * 100, taken)
    assert len(again) == 64 and again.endswith("_2")


def test_an_mcp_credential_is_its_header() -> None:
    server = _server()
    assert connections.credential_headers(server.auth, {"DOCS_SEARCH_TOKEN": "t"}) == {
        "Authorization": "Bearer t"
    }
    assert connections.credential_headers(server.auth, {}) is None
    assert connections.credential_values(server, {"DOCS_SEARCH_TOKEN": "t"}) == ("t",)
