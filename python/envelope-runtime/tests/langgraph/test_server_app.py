"""The Agent Server's resume redaction (envelope_runtime.langgraph.server_app, the app a gated
team's server.py gives langgraph.json's http.app): the body
of a request that creates a run, as the server would read it after the middleware.

The real server is driven in test/realpath/gate-resume-values.test.ts; these pin down the
request shapes it does not send (a resume map, a batch, no command, not JSON, a body in
several chunks). Skipped for teams without gates (they have no server.py app).
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from project import TEAM, team

server_app: Any = importlib.import_module("envelope_runtime.langgraph.server_app")

if not team.GATES:
    pytest.skip(
        "the team has no gates: its server has no resume redaction", allow_module_level=True
    )

LONGEST = server_app.longest_accepted(TEAM)

pytestmark = pytest.mark.anyio

SECRET = "sk-live-0123456789"
HUGE = "x" * 100_000


def decisions(feedback: str, action: str = "approve") -> dict[str, Any]:
    return {"decisions": [{"record": "r1", "action": action, "feedback": feedback}]}


def test_a_resume_value_and_a_resume_map_lose_secret_values_and_overlong_actions() -> None:
    body = {
        "assistant_id": "team",
        "input": {"note": f"inputs are stored as sent: {SECRET}"},
        "command": {"resume": decisions(f"the key is {SECRET}", HUGE), "goto": "x"},
    }
    out = json.loads(server_app.rewritten(json.dumps(body).encode(), [SECRET], LONGEST))
    item = out["command"]["resume"]["decisions"][0]
    assert item["feedback"] == "the key is [redacted]"
    assert item["action"].endswith(f"… ({len(HUGE)} characters)")
    assert len(item["action"]) == server_app.ECHO_LIMIT
    assert item["record"] == "r1"
    assert out["command"]["goto"] == "x" and out["input"] == body["input"]

    resume_map = {"0" * 32: decisions(SECRET), "f" * 32: decisions("fine")}
    body = {"command": {"resume": resume_map}}
    out = json.loads(server_app.rewritten(json.dumps(body).encode(), [SECRET], LONGEST))
    assert [v["decisions"][0]["feedback"] for v in out["command"]["resume"].values()] == [
        "[redacted]",
        "fine",
    ]


def test_a_batch_is_cleaned_run_by_run_and_other_bodies_pass_unchanged() -> None:
    batch = [{"command": {"resume": decisions(SECRET)}}, {"input": {}}]
    out = json.loads(server_app.rewritten(json.dumps(batch).encode(), [SECRET], LONGEST))
    assert out[0]["command"]["resume"]["decisions"][0]["feedback"] == "[redacted]"
    assert out[1] == {"input": {}}
    for body in (b'{"input": {"a": "sk-live-0123456789"}}', b"not json", b'{"command": {}}'):
        assert server_app.rewritten(body, [SECRET], LONGEST) is body


async def test_the_middleware_hands_the_app_the_cleaned_body_with_its_length() -> None:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen["headers"] = dict(scope["headers"])
        message = await receive()
        seen["body"] = message["body"]
        seen["next"] = await receive()

    raw = json.dumps({"command": {"resume": decisions(SECRET)}}).encode()
    chunks = [
        {"type": "http.request", "body": raw[:10], "more_body": True},
        {"type": "http.request", "body": raw[10:], "more_body": False},
        {"type": "http.disconnect"},
    ]

    async def receive() -> Any:
        return chunks.pop(0)

    async def send(message: Any) -> None:
        raise AssertionError("the middleware itself never answers")

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/threads/5f1c/runs/wait",
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"99999")],
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(team, "SECRETS", (*team.SECRETS, "ENVELOPE_TEST_SECRET"))
        patch.setenv("ENVELOPE_TEST_SECRET", SECRET)
        await server_app.ResumeRedaction(app, TEAM)(scope, receive, send)
    assert SECRET.encode() not in seen["body"]
    assert b"[redacted]" in seen["body"]
    assert seen["headers"][b"content-length"] == str(len(seen["body"])).encode()
    assert seen["next"] == {"type": "http.disconnect"}

    # Any other route is passed through untouched, its body unread.
    chunks[:] = [{"type": "http.request", "body": raw, "more_body": False}, {"type": "x"}]
    other = {**scope, "path": "/threads/5f1c/state"}
    await server_app.ResumeRedaction(app, TEAM)(other, receive, send)
    assert seen["body"] == raw


# --- Every route of the Agent Server that could carry a resume is cleaned or refused -------

# The routes that take a body but no resume value: what the server does with each (read in
# langgraph_api 0.16.7). A route not listed here, not cleaned (RUN_PATH) and not refused
# (REFUSED_PATH) fails the test below: a server release that adds one is looked at first.
NO_RESUME = [
    ("POST", r"/internal/truncate"),  # test-only wipe of the in-memory server
    ("POST", r"/deploy"),
    ("POST", r"/assistants(/search|/count|/\{assistant_id\}/latest|/\{assistant_id\}/versions)?"),
    ("PATCH", r"/assistants/\{assistant_id\}"),
    ("POST", r"(/threads/\{thread_id\})?/runs(/\{run_id\})?/cancel"),
    ("POST", r"/runs/crons/(search|count)"),
    ("POST", r"/threads(/search|/count|/prune)?"),
    ("PATCH", r"/threads/\{thread_id\}"),  # metadata
    # update_state: values are stored as sent (the module's docstring); no Command resume
    ("POST", r"/threads/\{thread_id\}/(state|state/checkpoint|copy|history)"),
    ("PUT", r"/store/items"),
    ("POST", r"/store/(items/search|namespaces)"),
    ("POST", r"/ui/\{graph_id\}"),
    ("POST", r"/mcp/?"),  # tools/call runs an assistant with an input, never a Command
]

ROUTES_SCRIPT = """
import json, os, sys
from langgraph_api.server import app
from starlette.routing import Mount, WebSocketRoute

def walk(routes, prefix=""):
    for r in routes:
        if isinstance(r, Mount):
            yield from walk(r.routes, prefix + r.path)
        elif isinstance(r, WebSocketRoute):
            yield ("WEBSOCKET", prefix + r.path)
        else:
            for m in sorted(getattr(r, "methods", None) or []):
                yield (m, prefix + r.path)

print(json.dumps(sorted(set(walk(app.routes)))))
"""


def server_routes() -> list[tuple[str, str]]:
    """The routes `langgraph dev` serves for this export (its langgraph.json's http.app)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from common_project import PACKAGE

    env = {
        **os.environ,
        "MIGRATIONS_PATH": "__inmem",
        "DATABASE_URI": ":memory:",
        "REDIS_URI": "fake",
        "LANGGRAPH_RUNTIME_EDITION": "inmem",
        "LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev",
        "LANGSERVE_GRAPHS": "{}",
        "LANGGRAPH_HTTP": json.dumps({"app": f"{PACKAGE}.server:app"}),
        "LANGSMITH_TRACING": "false",
    }
    done = subprocess.run(
        [sys.executable, "-c", ROUTES_SCRIPT],
        env=env,
        cwd=Path(__file__).parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [tuple(r) for r in json.loads(done.stdout.strip().splitlines()[-1])]


def test_every_server_route_that_may_carry_a_resume_is_cleaned_or_refused() -> None:
    import re

    routes = server_routes()
    assert ("POST", "/threads/{thread_id}/runs/wait") in routes  # the app's routes were read
    unknown = []
    for method, path in routes:
        concrete = path.replace("{", "").replace("}", "")  # /threads/thread_id/commands
        if method in ("GET", "HEAD", "DELETE", "OPTIONS"):
            continue
        if server_app.REFUSED_PATH.search(concrete):
            continue  # refused, HTTP and WebSocket alike
        if method in server_app.CLEANED_METHODS and server_app.RUN_PATH.search(concrete):
            continue
        if method != "WEBSOCKET" and any(
            m == method and re.fullmatch(p, path) for m, p in NO_RESUME
        ):
            continue
        unknown.append((method, path))
    assert unknown == [], f"routes neither cleaned, refused nor known to take no resume: {unknown}"
    # Protocol v2 (input.respond resumes a run) and A2A are served: refused, not absent.
    for method, path in [
        ("POST", "/threads/{thread_id}/commands"),
        ("WEBSOCKET", "/threads/{thread_id}/stream/events"),
        ("POST", "/a2a/{assistant_id}"),
    ]:
        assert (method, path) in routes
        assert server_app.REFUSED_PATH.search(path.replace("{", "").replace("}", ""))


async def test_protocol_v2_and_a2a_are_refused_over_http_and_websocket() -> None:
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a refused route never reaches the server")

    async def receive() -> Any:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(message)

    middleware = server_app.ResumeRedaction(app, TEAM)
    for path in ("/threads/5f1c/commands", "/threads/5f1c/stream/events", "/a2a/team"):
        sent.clear()
        await middleware(
            {"type": "http", "method": "POST", "path": path, "headers": []}, receive, send
        )
        assert sent[0]["status"] == 403
        assert json.loads(sent[1]["body"])["status"] == 403
    sent.clear()
    ws = {"type": "websocket", "path": "/threads/5f1c/stream/events", "headers": []}
    await middleware(ws, receive, send)
    assert sent == [{"type": "websocket.close", "code": 1008, "reason": "refused"}]


async def test_a_body_over_max_body_is_refused_with_413_and_a_large_one_is_rewritten_off_loop() -> (
    None
):
    sent: list[Any] = []
    reached: list[bytes] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append((await receive())["body"])

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/threads/5f1c/runs", "headers": []}
    middleware = server_app.ResumeRedaction(app, TEAM)
    # Announced too large: refused before any of it is read.
    big = {**scope, "headers": [(b"content-length", str(server_app.MAX_BODY + 1).encode())]}

    async def unread() -> Any:
        raise AssertionError("the body of a request announced too large is not read")

    await middleware(big, unread, send)
    assert sent[0]["status"] == 413 and reached == []
    # Not announced (chunked): refused as soon as it passes the limit.
    sent.clear()
    chunk = b"x" * (1024 * 1024)
    reads = 0

    async def endless() -> Any:
        nonlocal reads
        reads += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    await middleware(scope, endless, send)
    assert sent[0]["status"] == 413 and reached == []
    assert reads == server_app.MAX_BODY // len(chunk) + 1
    assert json.loads(sent[1]["body"])["status"] == 413

    # Larger than THREAD_BODY: parsed and rewritten in a worker thread.
    threaded: list[Any] = []

    async def in_thread(fn: Any, *args: Any) -> Any:
        threaded.append(fn)
        return fn(*args)

    raw = json.dumps({"command": {"resume": decisions(SECRET + "y" * 100_000)}}).encode()
    messages = [{"type": "http.request", "body": raw, "more_body": False}]

    async def once() -> Any:
        return messages.pop(0)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(team, "SECRETS", (*team.SECRETS, "ENVELOPE_TEST_SECRET"))
        patch.setenv("ENVELOPE_TEST_SECRET", SECRET)
        patch.setattr(server_app, "run_in_threadpool", in_thread)
        await middleware(scope, once, send)
    assert threaded == [server_app.rewritten]
    assert SECRET.encode() not in reached[-1]


def test_a_body_without_a_command_is_not_parsed() -> None:
    calls: list[Any] = []
    real = json.loads
    body = json.dumps({"input": {"text": "y" * 1000}}).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(server_app.json, "loads", lambda *a, **k: calls.append(a) or real(*a, **k))
        assert server_app.rewritten(body, [SECRET], LONGEST) is body
        assert calls == []
        # A key written with escapes is still found.
        escaped = b'{"\\u0063ommand": {"resume": "' + SECRET.encode() + b'"}}'
        assert SECRET.encode() not in server_app.rewritten(escaped, [SECRET], LONGEST)


def test_every_part_of_a_resume_is_bounded_and_keys_are_redacted() -> None:
    items = [{"record": f"r{i}", "action": "approve", "feedback": ""} for i in range(100_000)]
    resume = {
        "decisions": [{"record": "r1", "action": "approve", "feedback": "f" * 2_000_000}, *items],
        "note": "n" * 2_000_000,
        SECRET: "a secret as a key",
    }
    out = server_app.cleaned_resume(resume, [SECRET], LONGEST)
    decisions_out = out["decisions"]
    assert len(decisions_out) == server_app.MAX_ITEMS + 1
    assert decisions_out[0]["feedback"].endswith("… (2000000 characters)")
    assert len(decisions_out[0]["feedback"]) == server_app.TEXT_LIMIT
    assert decisions_out[-1]["record"] == f"… and {100_001 - server_app.MAX_ITEMS} more items"
    assert len(out["note"]) == server_app.TEXT_LIMIT
    assert SECRET not in json.dumps(out) and "[redacted]" in out
    # A resume that is not a map: bounded all the same.
    assert len(server_app.cleaned_resume("z" * 2_000_000, [], LONGEST)) == server_app.TEXT_LIMIT
    deep: Any = "leaf"
    for _ in range(50):
        deep = [deep]
    assert "nested deeper" in json.dumps(server_app.cleaned_resume(deep, [], LONGEST))
    body = json.dumps({"command": {"resume": resume}}).encode()
    assert len(server_app.rewritten(body, [SECRET], LONGEST)) < 300_000
