"""Event and condition schedules (schedule.type `event` / `condition`): the webhook receiver
and the condition poll. The same in every target (templates/python-common); nothing here
imports a framework: each target's schedule_commands.py gives the environment check and
the yes/no model call.

Webhook signatures (one scheme, Stripe's): the header `X-Envelope-Signature` (or
`Stripe-Signature`, the same scheme) is `t=<unix seconds>,v1=<hex>`, where the hex is
HMAC-SHA256 over `<t>.<raw body>` keyed with the secret's UTF-8 bytes; several `v1=`
entries may be given (a secret being rolled). A timestamp more than TOLERANCE_S from now
is refused, and so is a signed request accepted before (the same timestamp and body: a
replay, 409), which `Replays` keeps in a SQLite file for that window, across restarts and
for every receiver sharing the file. `sign` computes the header.

Payload to inputs: the body is a JSON object (other JSON answers 422, a body that is not
JSON 400); its keys that name one of the team's inputs are those inputs, every other key is
ignored (and listed on stderr). An input the payload does not give takes its default; a
required one missing (or a value of the wrong type) answers 422 and runs nothing.

Each accepted request, and each yes of the condition, runs the team in its own process:
`python -m <package>.main --inputs @FILE [run options]`, the console script's own checks,
deadline and exit codes; one run at a time, in order.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import http.server
import json
import os
import queue
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .checks import RUN_OPTIONS_USAGE, parse_run_options
from .input_spec import InputSpec
from .inputs import InputError, checked, strict_json

__all__ = [
    "Accepted",
    "CONDITION_SYSTEM",
    "ConditionAnswer",
    "DEFAULT_REPLAYS",
    "MAX_BODY_BYTES",
    "QUEUE_LIMIT",
    "REPLAYS_ENV",
    "Ready",
    "Replays",
    "RunQueue",
    "SIGNATURE_HEADERS",
    "TOLERANCE_S",
    "add_poll_options",
    "add_webhook_options",
    "condition_text",
    "main",
    "payload_inputs",
    "poll",
    "poll_command",
    "run_id",
    "run_process",
    "run_team",
    "serve",
    "serve_webhook_command",
    "sign",
    "verify",
    "webhook_handler",
]

SIGNATURE_HEADERS = ("X-Envelope-Signature", "Stripe-Signature")
TOLERANCE_S = 300
"""How far a signature's timestamp may be from now, in seconds."""
MAX_BODY_BYTES = 1_048_576
HOST_ENV, PORT_ENV, MAX_BODY_ENV = "WEBHOOK_HOST", "WEBHOOK_PORT", "WEBHOOK_MAX_BYTES"
REPLAYS_ENV = "WEBHOOK_REPLAYS_DB"
DEFAULT_REPLAYS = ".envelope-webhooks.sqlite3"
"""Where the accepted requests are kept (Replays) when REPLAYS_ENV is unset: in the
directory the receiver runs in."""
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8787
QUEUE_LIMIT = 64
"""Accepted runs waiting for their turn; more get 503."""


# --- signatures --------------------------------------------------------------------


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The signature header's value for `body` sent at `timestamp`."""
    signed = str(timestamp).encode() + b"." + body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def _parse(header: str) -> tuple[int | None, list[str]]:
    """The header's timestamp (None: none given) and its v1 signatures."""
    timestamp: int | None = None
    given: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        # ASCII digits only ("²".isdigit() is True, int() refuses it), and no more than a
        # Unix time in seconds has.
        if key == "t" and value.isascii() and value.isdigit() and len(value) <= 12:
            timestamp = int(value)
        elif key == "v1":
            given.append(value)
    return timestamp, given


def verify(secret: str, header: str | None, body: bytes, now: float) -> str | None:
    """None when `header` signs `body` with `secret` within TOLERANCE_S of `now`; else why not."""
    if not header:
        return "no signature header"
    timestamp, given = _parse(header)
    if timestamp is None or not given:
        return "the signature header is not t=<unix seconds>,v1=<hex>"
    if abs(now - timestamp) > TOLERANCE_S:
        return f"the signature's timestamp is more than {TOLERANCE_S} s from now"
    expected = sign(secret, body, timestamp).rpartition("v1=")[2]
    # Every candidate is compared (constant time each), so timing tells nothing either.
    matched = [hmac.compare_digest(expected.encode(), value.encode()) for value in given]
    return None if any(matched) else "the signature does not match"


@dataclass(frozen=True)
class Accepted:
    """A request accepted before: when (ISO 8601 UTC), and its run (None until it has one)."""

    at: str
    run_id: str | None


class Replays:
    """The signed requests accepted within TOLERANCE_S, kept in a SQLite file: the same
    signed timestamp and body again is a replay. Keyed by the request's expected signature
    (an HMAC of `<t>.<body>` with the team's secret: every `v1=` of the request signs the
    same, so a replay with other signatures is the same request; receivers with different
    secrets sharing a file never collide; the file tells nobody what was sent). A record is
    pruned once its timestamp is past the window, when `verify` refuses it anyway. Claims
    are one transaction each, so two identical requests at once, in one receiver or in two
    sharing the file, are accepted once. The file is readable by its owner only."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        self.conn = sqlite3.connect(
            self.path, timeout=30, isolation_level=None, check_same_thread=False
        )
        self.lock = threading.Lock()
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS webhook_accepted (key TEXT PRIMARY KEY,"
            " signed_at INTEGER NOT NULL, accepted_at TEXT NOT NULL, run_id TEXT)"
        )
        # A claim that never got its run (the receiver stopped between the two) ran nothing:
        # the sender's retry of that request must be taken.
        self.conn.execute("DELETE FROM webhook_accepted WHERE run_id IS NULL")

    @staticmethod
    def key(secret: str, header: str, body: bytes) -> tuple[str, int]:
        """What identifies a verified request: its expected `v1` signature, and `t`."""
        timestamp, _ = _parse(header)
        if timestamp is None:
            raise ValueError("the signature header has no timestamp: verify it first")
        return sign(secret, body, timestamp).rpartition("v1=")[2], timestamp

    def claim(self, key: str, signed_at: int, now: float) -> Accepted | None:
        """Record the request as accepted (None), or what was recorded of it before."""
        accepted_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                self.conn.execute(
                    "DELETE FROM webhook_accepted WHERE signed_at < ?", (now - TOLERANCE_S,)
                )
                found = self.conn.execute(
                    "SELECT accepted_at, run_id FROM webhook_accepted WHERE key = ?", (key,)
                ).fetchone()
                if found is None:
                    self.conn.execute(
                        "INSERT INTO webhook_accepted VALUES (?, ?, ?, NULL)",
                        (key, signed_at, accepted_at),
                    )
                self.conn.execute("COMMIT")
            except BaseException:
                # A COMMIT that failed too (the file locked past the timeout) must not leave
                # the connection inside the transaction: every later claim would fail.
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        return None if found is None else Accepted(found[0], found[1])

    def started(self, key: str, run_id: str) -> None:
        """The run a claimed request started (what a replay's answer names)."""
        with self.lock:
            self.conn.execute("UPDATE webhook_accepted SET run_id = ? WHERE key = ?", (run_id, key))

    def release(self, key: str) -> None:
        """Forget a claim whose run was not taken (queue full): the sender may retry."""
        with self.lock:
            self.conn.execute("DELETE FROM webhook_accepted WHERE key = ?", (key,))


def payload_inputs(
    payload: object, specs: Mapping[str, InputSpec]
) -> tuple[dict[str, Any], list[str]]:
    """The inputs a webhook payload gives (its keys naming inputs), and its other keys."""
    if not isinstance(payload, dict):
        return {}, []
    given = {key: value for key, value in payload.items() if key in specs}
    return given, [key for key in payload if key not in specs]


# --- running the team --------------------------------------------------------------


def run_id() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ-", time.gmtime()) + secrets.token_hex(3)


def run_team(package: str, inputs: Mapping[str, Any], options: Sequence[str], rid: str) -> int:
    """One run in its own process (the console script's checks and exit codes); its exit code."""
    with tempfile.TemporaryDirectory(prefix="envelope-run-") as folder:
        path = Path(folder) / "inputs.json"
        path.write_text(json.dumps(dict(inputs), ensure_ascii=False), encoding="utf-8")
        path.chmod(0o600)
        return run_process(package, ["--inputs", f"@{path}", *options], rid)


def run_process(package: str, arguments: Sequence[str], rid: str) -> int:
    """`python -m <package>.main ARGUMENTS` (a run), its start and exit code on stderr."""
    print(f"[{rid}] run started", file=sys.stderr, flush=True)
    command = [sys.executable, "-m", f"{package}.main", *arguments]
    code = subprocess.call(command, stdin=subprocess.DEVNULL)
    print(f"[{rid}] run finished: exit {code}", file=sys.stderr, flush=True)
    return code


class RunQueue:
    """Accepted runs, one at a time in arrival order, on a worker thread."""

    def __init__(self, start: Callable[[dict[str, Any], str], int]) -> None:
        self._start = start
        self._runs: queue.Queue[tuple[dict[str, Any], str]] = queue.Queue(QUEUE_LIMIT)
        threading.Thread(target=self._work, name="envelope-runs", daemon=True).start()

    def submit(self, inputs: dict[str, Any]) -> str | None:
        """The new run's id, or None when the queue is full."""
        rid = run_id()
        try:
            self._runs.put_nowait((inputs, rid))
        except queue.Full:
            return None
        return rid

    def _work(self) -> None:
        while True:
            inputs, rid = self._runs.get()
            try:
                self._start(inputs, rid)
            except Exception as error:  # noqa: BLE001 - the receiver keeps serving
                print(f"[{rid}] run failed to start: {error}", file=sys.stderr, flush=True)


# --- serve-webhook -----------------------------------------------------------------


def add_webhook_options(parser: argparse.ArgumentParser) -> None:
    host = os.environ.get(HOST_ENV, "").strip() or DEFAULT_HOST
    port = os.environ.get(PORT_ENV, "").strip() or str(DEFAULT_PORT)
    size = os.environ.get(MAX_BODY_ENV, "").strip() or str(MAX_BODY_BYTES)
    parser.add_argument("--host", default=host, help=f"address to listen on ({HOST_ENV}; {host})")
    parser.add_argument(
        "--port", type=int, default=int(port), help=f"port, 0 for any free one ({PORT_ENV}; {port})"
    )
    parser.add_argument(
        "--max-bytes", type=int, default=int(size), help=f"largest body ({MAX_BODY_ENV}; {size})"
    )
    replays = os.environ.get(REPLAYS_ENV, "").strip() or DEFAULT_REPLAYS
    parser.add_argument(
        "--replays-db",
        default=replays,
        help=f"file keeping accepted requests, to refuse replays ({REPLAYS_ENV}; {replays})",
    )


def webhook_handler(
    secret: str,
    team: Any,
    runs: RunQueue,
    max_bytes: int,
    replays: Replays,
) -> type[http.server.BaseHTTPRequestHandler]:
    """The request handler: POST (any path) with a signed JSON body -> 202 {"run_id": ...},
    the payload's inputs checked by the team's (team.py's) TeamInputs.
    A refusal is a problem (RFC 9457: `title`, `status`, `detail`) that also says why under
    `error`."""

    channels: Mapping[str, str] = getattr(team, "INPUT_CHANNELS", {})

    class Handler(http.server.BaseHTTPRequestHandler):
        server_version = "envelope-webhook"

        def _answer(self, status: int, body: dict[str, Any]) -> None:
            kind = "application/json"
            if status >= 400:
                kind = "application/problem+json"
                title = body.pop("title", None) or HTTPStatus(status).phrase
                body = {"title": title, "status": status, "detail": body["error"], **body}
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._answer(405, {"error": "POST a signed JSON payload"})

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = self.headers.get("Content-Length", "")
            if not (length.isascii() and length.isdigit() and len(length) <= 18):
                self._answer(411, {"error": "Content-Length is required"})
                return
            if int(length) > max_bytes:
                self.close_connection = True
                self._answer(413, {"error": f"the body is larger than {max_bytes} bytes"})
                return
            body = self.rfile.read(int(length))
            header = next(
                (self.headers[name] for name in SIGNATURE_HEADERS if self.headers.get(name)), None
            )
            problem = verify(secret, header, body, time.time())
            if problem is not None:
                self._answer(401, {"error": problem})
                return
            try:
                payload = strict_json(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as error:
                self._answer(400, {"error": f"the body is not JSON: {error}"})
                return
            if not isinstance(payload, dict):
                self._answer(422, {"error": "the payload is not a JSON object"})
                return
            given, unused = payload_inputs(payload, team.INPUTS)
            try:
                inputs = checked(team.TeamInputs, given, (), channels)
            except InputError as error:
                self._answer(422, {"error": "; ".join(error.problems)})
                return
            assert header is not None  # verified above
            key, signed_at = Replays.key(secret, header, body)
            try:
                seen = replays.claim(key, signed_at, time.time())
            except sqlite3.Error as error:
                # Nothing was recorded and nothing runs: the sender may retry.
                self._answer(503, {"error": f"accepted requests cannot be recorded now: {error}"})
                return
            if seen is not None:
                run = f" (run {seen.run_id})" if seen.run_id else ""
                problem = (
                    f"this signed request was already accepted at {seen.at}{run}: a replay "
                    "runs nothing (a new event is signed with a new timestamp)"
                )
                answer = {"title": "Replayed request", "error": problem, "run_id": seen.run_id}
                self._answer(409, answer)
                return
            rid = runs.submit(inputs)
            if rid is None:
                replays.release(key)
                self._answer(503, {"error": "too many runs waiting"})
                return
            replays.started(key, rid)
            if unused:
                print(f"[{rid}] not inputs, unused: {', '.join(unused)}", file=sys.stderr)
            self._answer(202, {"run_id": rid})

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's
            print(f"{self.address_string()} {format % args}", file=sys.stderr, flush=True)

    return Handler


def serve(
    args: argparse.Namespace,
    secret: str,
    team: Any,
    runs: RunQueue,
) -> int:
    try:
        replays = Replays(args.replays_db)
    except (OSError, sqlite3.Error) as error:
        problem = f"serve-webhook: cannot keep accepted requests in {args.replays_db}: {error}"
        print(problem, file=sys.stderr)
        return 2
    handler = webhook_handler(secret, team, runs, args.max_bytes, replays)
    with http.server.ThreadingHTTPServer((args.host, args.port), handler) as server:
        host, port = server.server_address[:2]
        print(f"Listening on http://{host}:{port}/ (POST signed payloads)", file=sys.stderr)
        sys.stderr.flush()
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


# --- poll --------------------------------------------------------------------------


def add_poll_options(parser: argparse.ArgumentParser, interval_s: int) -> None:
    parser.add_argument("--once", action="store_true", help="check once and exit")
    parser.add_argument(
        "--interval",
        type=int,
        default=interval_s,
        help=f"seconds between checks (schedule.conditionInterval: {interval_s})",
    )


def poll(
    once: bool, interval_s: int, holds: Callable[[], tuple[bool, str]], start: Callable[[], int]
) -> int:
    """Check the condition every `interval_s` and run the team when it holds. With `once`:
    the run's exit code when it held, else 0."""
    while True:
        began = time.monotonic()
        try:
            met, reason = holds()
        except Exception as error:  # noqa: BLE001 - a failed check runs nothing
            print(f"Condition check failed: {type(error).__name__}: {error}", file=sys.stderr)
            if once:
                return 1
        else:
            print(f"Condition {'met' if met else 'not met'}: {reason}", file=sys.stderr, flush=True)
            code = start() if met else 0
            if once:
                return code
        time.sleep(max(0.0, interval_s - (time.monotonic() - began)))


# --- the commands (each target's schedule_commands.py calls these) -----------------

Ready = Callable[[str | None, Sequence[str]], bool]
"""(env file, more variables to require) -> True when every check passed (else all printed)."""


class ConditionAnswer(BaseModel):
    """The condition check's answer (both targets ask for it as structured output)."""

    met: bool = Field(description="true: yes, the condition holds; false: no")
    reason: str = Field(description="why, in one sentence")


CONDITION_SYSTEM = (
    "You decide whether a scheduled team should run now. Answer the user's question with "
    "met=true for yes and met=false for no, and give the reason in one sentence."
)


def serve_webhook_command(
    argv: Sequence[str],
    *,
    command: str,
    package: str,
    team: Any,
    secret_env: str,
    ready: Ready,
) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{command} serve-webhook",
        description=f"Receive signed webhooks ({SIGNATURE_HEADERS[0]}: t=...,v1=...; the "
        f"secret in {secret_env}) and run the team with each payload as its inputs.",
    )
    add_webhook_options(parser)
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    args = parser.parse_args(argv)
    if not ready(args.env_file, [secret_env]):
        return 2
    options = ["--env-file", args.env_file] if args.env_file else []
    runs = RunQueue(lambda inputs, rid: run_team(package, inputs, options, rid))
    return serve(args, os.environ[secret_env].strip(), team, runs)


def condition_text(prompt: str, variables: Sequence[str], environ: Mapping[str, str]) -> str:
    """The condition prompt with each `{{NAME}}` of requiredVariables filled (secrets never)."""
    from . import placeholders

    return placeholders.render(prompt, placeholders.placeholder_values(variables, environ, {}))


def poll_command(
    argv: Sequence[str],
    *,
    command: str,
    package: str,
    interval_s: int,
    ready: Ready,
    holds: Callable[[], tuple[bool, str]],
) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{command} poll",
        usage=f"%(prog)s [-h] [--once] [--interval S] [--env-file F] {RUN_OPTIONS_USAGE}",
        description="Check the team's condition (schedule.conditionPrompt) every interval and "
        "run the team when it holds. RUN OPTIONS go to each run (inputs, --trace, ...: see "
        f"{command} --help).",
    )
    add_poll_options(parser, interval_s)
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    args, run_options = parse_run_options(parser, argv)
    if not ready(args.env_file, []):
        return 2
    options = [*(["--env-file", args.env_file] if args.env_file else []), *run_options]
    return poll(args.once, args.interval, holds, lambda: run_process(package, options, run_id()))


def main(
    argv: Sequence[str],
    team: Any,
    command: str,
    ready: Ready,
    holds: Callable[[], tuple[bool, str]],
) -> int | None:
    """Run `serve-webhook` or `poll` when argv names the one the team's schedule has (team.py:
    WEBHOOK_SECRET_ENV / CONDITION_INTERVAL_S); None otherwise."""
    data = vars(team)
    if argv[:1] == ["serve-webhook"] and "WEBHOOK_SECRET_ENV" in data:
        secret_env = str(data["WEBHOOK_SECRET_ENV"])
        return serve_webhook_command(
            argv[1:],
            command=command,
            package=command,
            team=team,
            secret_env=secret_env,
            ready=ready,
        )
    if argv[:1] == ["poll"] and "CONDITION_INTERVAL_S" in data:
        interval_s = int(data["CONDITION_INTERVAL_S"])
        return poll_command(
            argv[1:],
            command=command,
            package=command,
            interval_s=interval_s,
            ready=ready,
            holds=holds,
        )
    return None
