"""The Agent Server's side of review gates: `build_app(package)`, the app a gated team's
server module gives `langgraph.json`'s `http.app`.

The server keeps a run's `command.resume` as it arrives (in the run and in the checkpoint,
before any node runs), so this ASGI middleware rewrites the JSON body of each request that
creates a run (or a cron that will) first: every secret value of the team (SECRETS as set in
the server's environment), in keys as in values, becomes `[redacted]`, and the value is
`bounded` (a too long record or action cut so the gates refuse it, other text cut at
TEXT_LIMIT, lists and maps past MAX_ITEMS ended with a count). A body over MAX_BODY is
refused (413). The server's other ways to resume a run (protocol v2's commands and event
stream, A2A), which cannot be cleaned so, are refused (403, or a WebSocket closed before it
opens): `http.disable_event_streaming` would not turn v2 off (langgraph_api 0.16.7 drops it).
Nothing else of any request is read or changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from itertools import islice
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware

from .. import redaction
from ..echo import ECHO_LIMIT, cut
from ..gates import MAX_PROBLEMS
from ..team_package import TeamPackage

__all__ = [
    "CLEANED_METHODS",
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_ITEMS",
    "REFUSED_PATH",
    "RUN_PATH",
    "TEXT_LIMIT",
    "THREAD_BODY",
    "ResumeRedaction",
    "bounded",
    "build_app",
    "cleaned_resume",
    "longest_accepted",
    "may_hold_command",
    "rewritten",
]

Message = MutableMapping[str, Any]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The routes that create runs, or crons that will (and a cron's PATCH).
RUN_PATH = re.compile(r"/runs(?:/wait|/stream|/batch|/crons(?:/[^/]+)?)?/?$")

CLEANED_METHODS = ("POST", "PATCH")

# The routes that resume a run in a shape this middleware does not clean: refused.
REFUSED_PATH = re.compile(r"/threads/[^/]+/(?:commands|stream/events)/?$|/a2a(?:/.*)?$")

MAX_BODY = 8 * 1024 * 1024  # bytes of a request that creates a run, at most
THREAD_BODY = 64 * 1024  # a larger body is parsed and rewritten off the event loop
TEXT_LIMIT = 2000  # characters of feedback (or any other text) kept
MAX_ITEMS = 1000  # decisions (or items of any list or map) kept
MAX_DEPTH = 8  # levels of lists and maps kept

assert MAX_PROBLEMS < MAX_ITEMS  # a gate answers at most MAX_PROBLEMS problems anyway


def longest_accepted(package: TeamPackage) -> int:
    """A record id or action longer than this is no gate's of the team (ids are `r<n>`)."""
    gates = package.team.GATES.values()
    return max([ECHO_LIMIT, *(len(a.label) for spec in gates for a in spec.actions)])


def cleaned_resume(resume: Any, secrets: Sequence[str], longest: int) -> Any:
    """A resume value without secret values (keys included), bounded (`bounded`; `longest`:
    longest_accepted)."""
    # Redacted part by part as `bounded` keeps it: the items past MAX_ITEMS (a hostile
    # 100 000) are never redacted, and each text is redacted whole before it is cut, so a
    # secret across the cut shows no part of itself.
    return bounded(resume, longest, clean=lambda text: redaction.redact(text, secrets))


def _same(text: str) -> str:
    return text


def _text(text: str, limit: int = TEXT_LIMIT) -> str:
    """`text` whole up to `limit` characters, else its start and length (echo.cut's form)."""
    if len(text) <= limit:
        return text
    suffix = f"… ({len(text)} characters)"
    return text[: max(limit - len(suffix), 0)] + suffix


def bounded(
    value: Any,
    longest: int,
    depth: int = 0,
    key: str = "",
    clean: Callable[[str], str] = _same,
) -> Any:
    """`value` with every text, list, map and nesting bounded: a decision's `record` or
    `action` longer than `longest` (longest_accepted) is cut to what the gates refuse
    (echo.cut), any other text to TEXT_LIMIT
    characters; a list or map past MAX_ITEMS items ends with one that says how many there
    were; past MAX_DEPTH levels a list or map is replaced by a text that says so. `clean`
    changes each text and key that is kept, before it is cut (and before keys that become
    equal merge, the last one's item kept)."""
    if isinstance(value, str):
        value = clean(value)
        if key in ("record", "action") and len(value) > longest:
            return cut(value)
        return _text(value)
    if isinstance(value, list | dict) and depth >= MAX_DEPTH:
        return f"… (nested deeper than {MAX_DEPTH} levels)"
    if isinstance(value, list):
        kept = [bounded(item, longest, depth + 1, "", clean) for item in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            more = f"… and {len(value) - MAX_ITEMS} more items"
            kept.append({"record": more, "action": more} if key == "decisions" else more)
        return kept
    if isinstance(value, dict):
        items = {clean(str(k)): item for k, item in islice(value.items(), MAX_ITEMS)}
        out = {
            _text(k, ECHO_LIMIT): bounded(item, longest, depth + 1, k, clean)
            for k, item in items.items()
        }
        if len(value) > MAX_ITEMS:
            out["…"] = f"and {len(value) - MAX_ITEMS} more keys"
        return out
    return value


def may_hold_command(body: bytes) -> bool:
    """Whether a JSON body may hold a `command` key (written plainly or with escapes)."""
    return b'"command"' in body or b"\\u" in body


def rewritten(body: bytes, secrets: Sequence[str], longest: int) -> bytes:
    """The request body with each run's `command.resume` cleaned (`longest`:
    longest_accepted); `body` itself when it holds none (or is not JSON: the server answers
    that)."""
    if not may_hold_command(body):
        return body
    try:
        payload = json.loads(body)
    except ValueError:
        return body
    runs = payload if isinstance(payload, list) else [payload]
    changed = False
    for run in runs:
        if not isinstance(run, dict):
            continue
        for holder in (run, run.get("payload")):  # a cron's PATCH nests its run's fields
            command = holder.get("command") if isinstance(holder, dict) else None
            if isinstance(command, dict) and command.get("resume") is not None:
                command["resume"] = cleaned_resume(command["resume"], secrets, longest)
                changed = True
    return json.dumps(payload, ensure_ascii=False).encode() if changed else body


def _problem(status: int, title: str, detail: str) -> tuple[Message, Message]:
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail})
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
        ],
    }
    return start, {"type": "http.response.body", "body": body.encode()}


REFUSED_DETAIL = (
    "this team's server takes a gate's decisions only through its runs routes "
    "(POST /threads/<id>/runs[/wait|/stream] with command.resume), where secret values are "
    "redacted before they are stored; protocol v2 event streaming and A2A are off"
)


class ResumeRedaction:
    """ASGI middleware of the team `package`'s server: the body of a request that creates a
    run, rewritten (`rewritten`); the routes that resume runs otherwise (REFUSED_PATH),
    refused."""

    def __init__(self, app: ASGIApp, package: TeamPackage) -> None:
        self.app = app
        self.package = package
        self.longest = longest_accepted(package)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] in ("http", "websocket") and REFUSED_PATH.search(path):
            await self._refuse(scope, receive, send)
            return
        if (
            scope["type"] != "http"
            or scope.get("method") not in CLEANED_METHODS
            or not RUN_PATH.search(path)
        ):
            await self.app(scope, receive, send)
            return
        too_large = _problem(413, "Content Too Large", f"a run's body is {MAX_BODY} bytes at most")
        for name, value in scope.get("headers", []):
            if name.lower() == b"content-length" and value.isdigit() and int(value) > MAX_BODY:
                for message in too_large:
                    await send(message)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its request was whole: nothing to run
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                for answer in too_large:
                    await send(answer)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        raw = b"".join(chunks)
        secrets = redaction.secret_values(self.package.team.SECRETS)
        if len(raw) > THREAD_BODY:
            body = await run_in_threadpool(rewritten, raw, secrets, self.longest)
        else:
            body = rewritten(raw, secrets, self.longest)
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

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect; closing before accepting answers 403
            await send({"type": "websocket.close", "code": 1008, "reason": "refused"})
            return
        for message in _problem(403, "Forbidden", REFUSED_DETAIL):
            await send(message)


def build_app(package: TeamPackage) -> Starlette:
    """The app `langgraph.json`'s `http.app` names (a gated team's server module holds it):
    no routes of its own, only the middleware, for the team `package`."""
    return Starlette(middleware=[Middleware(ResumeRedaction, package=package)])
