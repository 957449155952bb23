"""The Agent Server's resume redaction (server_app.py, langgraph.json's http.app): the body
of a request that creates a run, as the server would read it after the middleware.

The real server is driven in test/realpath/gate-resume-values.test.ts; these pin down the
request shapes it does not send (a resume map, a batch, no command, not JSON, a body in
several chunks). Skipped for teams without gates (no server_app.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from common_project import module

server_app = module("envelope_support.server_app")
if server_app is None:
    pytest.skip("the team has no gates: its export ships no server_app.py", allow_module_level=True)

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
    out = json.loads(server_app.rewritten(json.dumps(body).encode(), [SECRET]))
    item = out["command"]["resume"]["decisions"][0]
    assert item["feedback"] == "the key is [redacted]"
    assert item["action"].endswith(f"… ({len(HUGE)} characters)")
    assert len(item["action"]) == server_app.ECHO_LIMIT
    assert item["record"] == "r1"
    assert out["command"]["goto"] == "x" and out["input"] == body["input"]

    resume_map = {"0" * 32: decisions(SECRET), "f" * 32: decisions("fine")}
    body = {"command": {"resume": resume_map}}
    out = json.loads(server_app.rewritten(json.dumps(body).encode(), [SECRET]))
    assert [v["decisions"][0]["feedback"] for v in out["command"]["resume"].values()] == [
        "[redacted]",
        "fine",
    ]


def test_a_batch_is_cleaned_run_by_run_and_other_bodies_pass_unchanged() -> None:
    batch = [{"command": {"resume": decisions(SECRET)}}, {"input": {}}]
    out = json.loads(server_app.rewritten(json.dumps(batch).encode(), [SECRET]))
    assert out[0]["command"]["resume"]["decisions"][0]["feedback"] == "[redacted]"
    assert out[1] == {"input": {}}
    for body in (b'{"input": {"a": "sk-live-0123456789"}}', b"not json", b'{"command": {}}'):
        assert server_app.rewritten(body, [SECRET]) is body


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
        patch.setattr(server_app, "secret_values", lambda: [SECRET])
        await server_app.ResumeRedaction(app)(scope, receive, send)
    assert SECRET.encode() not in seen["body"]
    assert b"[redacted]" in seen["body"]
    assert seen["headers"][b"content-length"] == str(len(seen["body"])).encode()
    assert seen["next"] == {"type": "http.disconnect"}

    # Any other route is passed through untouched, its body unread.
    chunks[:] = [{"type": "http.request", "body": raw, "more_body": False}, {"type": "x"}]
    other = {**scope, "path": "/threads/5f1c/state"}
    await server_app.ResumeRedaction(app)(other, receive, send)
    assert seen["body"] == raw
