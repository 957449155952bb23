"""Connection packs' tools: one typed tool per OpenAPI operation, and MCP servers' tools,
every request checked twice, fail-closed.

`team.CONNECTIONS` holds the packs given at export time (`envelope export --connections`)
with an OpenAPI document: per provider its auth, its `apiHosts` and the operations (method,
path, parameters and JSON request body with their schemas). `team.MCP_SERVERS` holds those
with an MCP server (its URL and transport). `team.CONNECTION_AGENTS` says which agent has
which packs. This module is framework-free (pydantic and httpx only); each target wraps
`prepare` in its own tool class, and gives `mcp_client_factory` to its MCP client.

Every request is checked before it is sent, and refused with the reason as the tool's text:
1. against the agent's access policy (`policy_rules.evaluate`, as the http_request tool), then
2. against the pack's `apiHosts` (`api_hosts_allow`, the same rule as envelope-export's
   spec/api-hosts-vectors.json): the pack's credential goes to those hosts and nowhere else.
Redirects are not followed (the next hop would have to pass both checks), bodies are cut at
`max_body_chars`, and the credential's values are redacted from what a tool returns.

Credentials come only from the environment, named after the provider id (`Auth.env`):
api_key is sent in `Auth.header` as it is, bearer and oauth2 as `Authorization: Bearer`,
basic as `Authorization: Basic` of `USERNAME:PASSWORD`.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextvars
import json
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar
from urllib.parse import quote, urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, create_model

from .policy import AccessPolicy

__all__ = [
    "Auth",
    "Connection",
    "McpServer",
    "Operation",
    "Param",
    "Prepared",
    "RefusedRequest",
    "api_hosts_allow",
    "args_model",
    "check_request",
    "credential_headers",
    "credential_values",
    "mcp_client_factory",
    "mcp_refusal",
    "mcp_tool_name",
    "plain",
    "prepare",
    "request_options",
    "run_sync",
]

T = TypeVar("T")

AuthKind = Literal["api_key", "bearer", "basic", "oauth2"]


@dataclass(frozen=True)
class Param:
    """One path, query or header parameter of an operation."""

    arg: str
    """The tool's argument (a Python identifier)."""
    name: str
    """The name on the wire."""
    where: Literal["path", "query", "header"]
    required: bool
    description: str
    schema: Mapping[str, Any]
    """Its JSON schema (the subset envelope-export keeps)."""


@dataclass(frozen=True)
class Operation:
    """One OpenAPI operation: one tool."""

    tool: str
    method: str
    path: str
    description: str
    params: tuple[Param, ...] = ()
    body: Mapping[str, Any] | None = None
    """The JSON request body's schema; None: no body."""
    body_required: bool = False
    body_description: str = ""


@dataclass(frozen=True)
class Auth:
    """How the pack's credential is sent, and the environment variables that hold it."""

    kind: AuthKind
    header: str
    env: tuple[str, ...]


@dataclass(frozen=True)
class Connection:
    """A connection pack with reach.openapi."""

    provider: str
    display_name: str
    auth: Auth
    api_hosts: tuple[str, ...]
    base_url: str
    operations: tuple[Operation, ...]


@dataclass(frozen=True)
class McpServer:
    """A connection pack with reach.mcp: the server's tools are listed from it."""

    provider: str
    display_name: str
    auth: Auth
    api_hosts: tuple[str, ...]
    url: str
    transport: Literal["http", "sse"]


_PLAIN_HOST = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)+")
_IP = re.compile(r"[0-9.]+")


def api_hosts_allow(api_hosts: Sequence[str], host: str) -> bool:
    """Whether a request to `host` may carry the pack's credential: `host` is an entry or a
    subdomain of one (dot-anchored). Anything but a plain lowercase hostname (an IP literal,
    a trailing dot, a port) matches no entry."""
    h = host.lower()
    if not _PLAIN_HOST.fullmatch(h) or _IP.fullmatch(h):
        return False
    return any(h == entry or h.endswith("." + entry) for entry in api_hosts)


# --- typed arguments --------------------------------------------------------

_SCALARS: dict[str, Any] = {"string": str, "number": float, "integer": int, "boolean": bool}


def _field_name(name: str, taken: set[str]) -> str:
    found = re.sub(r"[^0-9a-zA-Z_]", "_", name) or "field"
    if found[0].isdigit() or found.startswith("_") or found == "model_config":
        found = "f_" + found.lstrip("_")
    while found in taken:
        found += "_"
    taken.add(found)
    return found


def _type_of(schema: Mapping[str, Any], name: str) -> Any:
    """The Python type of a schema of the subset envelope-export keeps (openapi.ts)."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    kind = schema.get("type")
    if kind == "array":
        return list[_type_of(schema.get("items", {"type": "string"}), name + "_item")]
    if kind == "object":
        properties: Mapping[str, Any] = schema.get("properties") or {}
        if not properties:
            return dict[str, Any]
        required = set(schema.get("required") or ())
        taken: set[str] = set()
        fields: dict[str, Any] = {}
        for key, sub in properties.items():
            field = _field_name(key, taken)
            described = {"alias": key, "description": sub.get("description", "")}
            if key in required:
                fields[field] = (_type_of(sub, f"{name}_{field}"), Field(**described))
            else:
                fields[field] = (_type_of(sub, f"{name}_{field}") | None, Field(None, **described))
        config = ConfigDict(populate_by_name=True, extra="forbid")
        return create_model(_class_name(name), __config__=config, **fields)
    return _SCALARS.get(str(kind), str)


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^0-9a-zA-Z]+", name) if part)


def args_model(operation: Operation) -> type[BaseModel]:
    """The tool's arguments: its parameters by `arg`, and `body` when it has one."""
    fields: dict[str, Any] = {}
    for param in operation.params:
        kind = _type_of(param.schema, f"{operation.tool}_{param.arg}")
        where = f"{param.where} parameter {param.name}"
        text = f"{param.description} ({where})" if param.description else where
        if param.required:
            fields[param.arg] = (kind, Field(description=text))
        else:
            fields[param.arg] = (kind | None, Field(None, description=text))
    if operation.body is not None:
        kind = _type_of(operation.body, f"{operation.tool}_body")
        text = operation.body_description or "The JSON request body."
        if operation.body_required:
            fields["body"] = (kind, Field(description=text))
        else:
            fields["body"] = (kind | None, Field(None, description=text))
    name = _class_name(operation.tool) + "Input"
    return create_model(name, __config__=ConfigDict(extra="forbid"), **fields)


def plain(value: Any) -> Any:
    """Arguments as JSON values: a nested model by its wire names, without unset fields."""
    if isinstance(value, BaseModel):
        return plain(value.model_dump(by_alias=True, exclude_none=True))
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items() if item is not None}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


# --- the request --------------------------------------------------------------


def credential_values(pack: Connection | McpServer, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The credential's values (redacted from every result), those that are set."""
    return tuple(environ[name] for name in pack.auth.env if environ.get(name))


def credential_headers(auth: Auth, environ: Mapping[str, str]) -> dict[str, str] | None:
    """The headers that carry the credential; None when a variable of it is not set."""
    values = [environ.get(name, "") for name in auth.env]
    if not all(values):
        return None
    if auth.kind == "basic":
        token = base64.b64encode(f"{values[0]}:{values[1]}".encode()).decode("ascii")
        return {auth.header: f"Basic {token}"}
    if auth.kind == "api_key":
        return {auth.header: values[0]}
    return {auth.header: f"Bearer {values[0]}"}


def check_request(
    pack: Connection | McpServer,
    method: str,
    url: str,
    agent_key: str,
    policy: AccessPolicy,
    variables: Mapping[str, str],
) -> tuple[str, str | None]:
    """Both checks of one request, in order: the URL to send it to (the policy's `{{NAME}}`
    expanded), and why it is refused ("REFUSED …", a text for the model) or None."""
    # How a policy decides is loaded by the first request, not by building the team.
    from .policy_rules import evaluate, unparsable_url

    decision = evaluate(policy, method, url, variables)
    if not decision.allowed:
        return url, f"REFUSED by access policy of {agent_key}: {decision.reason}"
    unparsable = unparsable_url(decision.url)
    if unparsable is not None:
        return url, f"REFUSED by access policy of {agent_key}: {unparsable}"
    host = urlsplit(decision.url).hostname or ""
    if not api_hosts_allow(pack.api_hosts, host):
        return url, (
            f"REFUSED by connection pack {pack.provider}: {host or 'the URL'} is not "
            f"under its apiHosts ({', '.join(pack.api_hosts)}), so its credential is "
            "never sent there"
        )
    return decision.url, None


@dataclass(frozen=True)
class Prepared:
    """A request both checks allowed, ready to send."""

    method: str
    url: str
    params: list[tuple[str, str]]
    headers: dict[str, str]
    body: Any
    secrets: tuple[str, ...]


def _wire(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def prepare(
    connection: Connection,
    operation: Operation,
    arguments: Mapping[str, Any],
    *,
    agent_key: str,
    policy: AccessPolicy,
    variables: Mapping[str, str],
    environ: Mapping[str, str],
) -> Prepared | str:
    """The request of one tool call, or why it is refused (a text for the model)."""
    values = plain(dict(arguments))
    path = operation.path
    query: list[tuple[str, str]] = []
    headers: dict[str, str] = {}
    for param in operation.params:
        value = values.get(param.arg)
        if value is None:
            if param.required:
                return f"REFUSED: {operation.tool} needs {param.arg}"
            continue
        if param.where == "path":
            # Every character but unreserved ones is encoded: a value cannot add a path segment.
            path = path.replace("{" + param.name + "}", quote(_wire(value), safe=""))
        elif param.where == "query":
            items = value if isinstance(value, list) else [value]
            query.extend((param.name, _wire(item)) for item in items)
        else:
            headers[param.name] = _wire(value)
    url, refused = check_request(
        connection, operation.method, connection.base_url + path, agent_key, policy, variables
    )
    if refused is not None:
        return refused
    credential = credential_headers(connection.auth, environ)
    if credential is None:
        return f"REFUSED: {' and '.join(connection.auth.env)} not set for {connection.provider}"
    # Header names are case-insensitive: no parameter may stand beside the credential.
    taken = {name.lower() for name in credential}
    headers = {name: value for name, value in headers.items() if name.lower() not in taken}
    headers.update(credential)
    body = values.get("body") if operation.body is not None else None
    secrets = credential_values(connection, environ)
    return Prepared(operation.method, url, query, headers, body, secrets)


def request_options(prepared: Prepared) -> dict[str, Any]:
    """Keyword arguments of httpx's `request` for a prepared request."""
    options: dict[str, Any] = {"params": prepared.params, "headers": prepared.headers}
    if prepared.body is not None:
        options["json"] = prepared.body
    return options


# --- MCP servers ----------------------------------------------------------------


class RefusedRequest(Exception):
    """A request of an MCP client that a check refused; raised before anything is sent."""


def mcp_client_factory(
    server: McpServer,
    *,
    agent_key: str,
    policy: AccessPolicy,
    variables: Mapping[str, str],
    transport: httpx.AsyncBaseTransport | None = None,
) -> Callable[..., httpx.AsyncClient]:
    """The `httpx_client_factory` of the MCP SDK's streamable HTTP and SSE clients: every
    request they make (the session's POSTs, an SSE stream's GET, its end's DELETE) passes
    `check_request` first, redirects are not followed, and `transport` is the test seam."""

    async def check(request: httpx.Request) -> None:
        _, refused = check_request(
            server, request.method, str(request.url), agent_key, policy, variables
        )
        if refused is not None:
            raise RefusedRequest(refused)

    def factory(
        headers: dict[str, str] | None = None,
        timeout: httpx.Timeout | None = None,
        auth: httpx.Auth | None = None,
    ) -> httpx.AsyncClient:
        options: dict[str, Any] = {"transport": transport} if transport is not None else {}
        return httpx.AsyncClient(
            headers=headers,
            timeout=timeout if timeout is not None else httpx.Timeout(30.0, read=300.0),
            auth=auth,
            follow_redirects=False,
            event_hooks={"request": [check]},
            **options,
        )

    return factory


def mcp_refusal(
    server: McpServer, agent_key: str, policy: AccessPolicy, variables: Mapping[str, str]
) -> str | None:
    """Why the MCP client's first request (an SSE stream's GET, else the session's POST) is
    refused, checked before anything is opened; None: allowed."""
    method = "GET" if server.transport == "sse" else "POST"
    return check_request(server, method, server.url, agent_key, policy, variables)[1]


def mcp_tool_name(server: McpServer, tool: str, taken: set[str]) -> str:
    """`<provider>_<tool>` in the characters every model API accepts, at most 64 of them,
    unique in `taken`."""
    base = re.sub(r"[^A-Za-z0-9_-]", "_", f"{server.provider.replace('-', '_')}_{tool}")[:64]
    name, n = base, 2
    while name in taken:
        suffix = f"_{n}"
        name, n = base[: 64 - len(suffix)] + suffix, n + 1
    taken.add(name)
    return name


def run_sync(make: Coroutine[Any, Any, T]) -> T:
    """Runs a coroutine (an MCP server's tools being listed) to its end from sync code where
    the agents are built, in a worker thread when a loop is running there (`langgraph dev`'s
    server, CrewAI's kickoff_async)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make)
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, asyncio.run, make).result()
