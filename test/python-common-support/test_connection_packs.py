"""Connection packs' OpenAPI tools (connections.py, python-common): the apiHosts rule's
vectors, which envelope-export's TypeScript (src/connections/api-hosts.ts) shares, the typed
arguments made of an operation's schemas, and the two checks every request passes.

Skipped for teams exported without connection packs (whose exports have no connections.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common_project import connections
from pydantic import ValidationError

if connections is None:
    pytest.skip("exported without connection packs (no connections.py)", allow_module_level=True)

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[2] / "spec" / "api-hosts-vectors.json").read_text(encoding="utf-8")
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
    assert "pass-long-enough" not in connections.describe(response, 100, ("pass-long-enough",))
    assert "[truncated" in connections.describe(httpx.Response(200, text="x" * 50), 10, ())
