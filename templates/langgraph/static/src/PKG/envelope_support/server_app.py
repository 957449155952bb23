"""The Agent Server's side of review gates: `langgraph.json` mounts `app` (`http.app`).

Through the server, a gate is resumed with `Command(resume={"decisions": [...]})`. The server
keeps that value as it arrives, in the run it creates and in the thread's checkpoint
(LangGraph stores a resume value before any node runs), so the gate node cannot take a
secret out of it, nor keep a 2 MB action out of storage. This ASGI middleware, which the
server puts in front of every route, rewrites the JSON body of each request that creates a
run before the server reads it: in its `command.resume`, every secret value (team.SECRETS as
set in the server's environment, redaction.MIN_LENGTH characters or more) becomes
`[redacted]`, and a decision's `record` or `action` longer than any the gates accept is cut
(gates.cut): refused all the same, with its start and length in the problem, not stored
whole. Nothing else of any request is read or changed (a run's input, `command.update`,
`threads.update_state` values are stored as sent).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware

from .. import team
from . import redaction
from .gates import ECHO_LIMIT, cut

Message = MutableMapping[str, Any]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

RUN_PATH = re.compile(r"/runs(?:/wait|/stream|/batch)?/?$")
"""The routes that create runs: `/threads/<id>/runs[/wait|/stream]`, `/runs[/…|/batch]`."""

LONGEST = max([ECHO_LIMIT, *(len(a.label) for spec in team.GATES.values() for a in spec.actions)])
"""A record id or action longer than this is no gate's (ids are `r<n>`)."""


def secret_values() -> list[str]:
    return [os.environ[name] for name in team.SECRETS if os.environ.get(name)]


def cleaned_resume(resume: Any, secrets: Sequence[str]) -> Any:
    """A resume value without secret values, its overlong record ids and actions cut."""
    return _cut(redaction.redact(resume, secrets))


def _cut(value: Any) -> Any:
    """`{"decisions": [...]}`, or a map of interrupt ids to such values."""
    if not isinstance(value, dict):
        return value
    items = value.get("decisions")
    if not isinstance(items, list):
        return {key: _cut(item) if isinstance(item, dict) else item for key, item in value.items()}
    return {**value, "decisions": [_cut_item(item) for item in items]}


def _cut_item(item: Any) -> Any:
    if not isinstance(item, dict):
        return item
    return {
        key: cut(value)
        if key in ("record", "action") and isinstance(value, str) and len(value) > LONGEST
        else value
        for key, value in item.items()
    }


def rewritten(body: bytes, secrets: Sequence[str]) -> bytes:
    """The request body with each run's `command.resume` cleaned; `body` itself when it
    holds none (or is not JSON: the server answers that)."""
    try:
        payload = json.loads(body)
    except ValueError:
        return body
    runs = payload if isinstance(payload, list) else [payload]
    changed = False
    for run in runs:
        command = run.get("command") if isinstance(run, dict) else None
        if isinstance(command, dict) and command.get("resume") is not None:
            command["resume"] = cleaned_resume(command["resume"], secrets)
            changed = True
    return json.dumps(payload, ensure_ascii=False).encode() if changed else body


class ResumeRedaction:
    """ASGI middleware: the body of a POST that creates a run, rewritten (`rewritten`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or scope.get("method") != "POST" or not RUN_PATH.search(path):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its request was whole: nothing to run
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = rewritten(b"".join(chunks), secret_values())
        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
        scope = {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: the client's disconnect
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


app = Starlette(middleware=[Middleware(ResumeRedaction)])
"""What `langgraph.json`'s `http.app` names: no routes of its own, only the middleware."""
