"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline: its agents and their tools,
and the checks of its inputs; and serve-webhook's rules for this team's payloads (its request
handler on a loopback port in this process, no run started).
And the whole team runs offline, against scripted models that never reach a network:
every agent.
The runtime library, envelope-runtime, has its own tests. Run these with `uv run pytest`.
"""

from __future__ import annotations

import http.client
import http.server
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from crewai import BaseLLM
from envelope_runtime import schedules
from envelope_runtime.crewai.testing import run_offline
from envelope_runtime.input_spec import NO_DEFAULT
from pydantic import ValidationError

from chargeback_responder import crew, models, team

# agents[]: key -> CrewAI role (config/agents.yaml)
ROLES: dict[str, str] = {
    # agents[0] evidence-collector
    "evidence-collector": "Eve",
    # agents[1] response-writer
    "response-writer": "Rhys",
}

# agents[].accessPolicy / allowedHosts: who holds the http_request tool (a crew's manager
# holds no tool: a worker makes its requests)
HTTP_AGENTS: tuple[str, ...] = ()

# agents[].reportsToKey: who runs a sub-team of their own (the delegate_to_team tool)
SUB_TEAM_AGENTS: tuple[str, ...] = ()

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("dispute_id", "charge_id", "reason")


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


def test_a_run_without_inputs_is_refused_naming_each_required_one() -> None:
    with pytest.raises(ValidationError) as refused:
        team.TeamInputs.model_validate({})

    missing = [error["loc"][0] for error in refused.value.errors() if error["type"] == "missing"]
    assert missing == list(REQUIRED_INPUTS)


# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.evidence_packet
    "evidence_packet",
    # outputs.win_likelihood
    "win_likelihood",
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


# --- schedule.type "event": `serve-webhook`, its rules for this team's inputs ---------

# inputs: a payload naming each input, with a value of its type (an enum's first value)
PAYLOAD: dict[str, Any] = {
    # inputs.dispute_id
    "dispute_id": "from the webhook: dispute_id",
    # inputs.charge_id
    "charge_id": "from the webhook: charge_id",
    # inputs.reason
    "reason": "from the webhook: reason",
}
SECRET = "test-webhook-secret"


class _Accepted(schedules.RunQueue):
    """The runs the receiver accepts, kept here in order: none is started."""

    def __init__(self) -> None:
        self.inputs: list[dict[str, Any]] = []

    def submit(self, inputs: dict[str, Any]) -> str | None:
        self.inputs.append(inputs)
        return f"run-{len(self.inputs)}"


class _Serving:
    """serve-webhook's request handler with the team's inputs, on a free loopback port in
    this process, keeping accepted requests in a Replays file; `with` gives its address."""

    def __init__(
        self,
        replays_file: str,
        accepted: schedules.RunQueue,
        replays: schedules.Replays | None = None,
    ) -> None:
        self.replays = replays or schedules.Replays(replays_file)
        handler = schedules.webhook_handler(
            SECRET, team, accepted, schedules.MAX_BODY_BYTES, self.replays
        )
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)

    def __enter__(self) -> tuple[str, int]:
        # shutdown() waits for serve_forever's next poll (every 0.5 s by default) each test
        poll = {"poll_interval": 0.05}
        threading.Thread(target=self.server.serve_forever, kwargs=poll, daemon=True).start()
        return str(self.server.server_address[0]), int(self.server.server_address[1])

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def replays_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("webhook") / "accepted.sqlite3")


@pytest.fixture
def receiver(replays_file: str) -> Iterator[tuple[tuple[str, int], _Accepted]]:
    """A receiver (_Serving) of its own: its address, and the runs it accepted."""
    accepted = _Accepted()
    with _Serving(replays_file, accepted) as address:
        yield address, accepted


def _post(
    address: tuple[str, int], headers: dict[str, str], body: bytes | None = None
) -> tuple[int, dict[str, Any]]:
    """POST to the receiver (no body: only the headers given): its status and JSON answer."""
    connection = http.client.HTTPConnection(*address, timeout=10)
    try:
        connection.putrequest("POST", "/")
        for name, value in headers.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def _signed(payload: object, secret: str = SECRET, age_s: float = 0) -> dict[str, Any]:
    """The body of `payload` and its X-Envelope-Signature, signed `age_s` seconds ago."""
    body = json.dumps(payload).encode()
    header = schedules.sign(secret, body, int(time.time() - age_s))
    return {"headers": {"X-Envelope-Signature": header}, "body": body}


def test_a_signed_payload_runs_the_team_with_its_inputs(receiver: Any) -> None:
    address, accepted = receiver

    status, answer = _post(address, **_signed(PAYLOAD))

    assert (status, set(answer)) == (202, {"run_id"}), answer
    assert accepted.inputs == [PAYLOAD]


def test_stripe_signature_is_the_same_scheme(receiver: Any) -> None:
    address, accepted = receiver
    signed = _signed(PAYLOAD)
    headers = {"Stripe-Signature": signed["headers"]["X-Envelope-Signature"]}

    status, answer = _post(address, headers, signed["body"])

    assert status == 202, answer
    assert accepted.inputs == [PAYLOAD]


@pytest.mark.parametrize(
    "signed",
    [
        pytest.param({}, id="no signature header"),
        pytest.param({"secret": "not-the-secret"}, id="another secret"),
        pytest.param({"age_s": schedules.TOLERANCE_S + 60}, id="stale timestamp"),
        pytest.param({"age_s": -schedules.TOLERANCE_S - 60}, id="future timestamp"),
    ],
)
def test_a_request_not_signed_now_with_the_secret_gets_401_and_runs_nothing(
    receiver: Any, signed: dict[str, Any]
) -> None:
    address, accepted = receiver
    request = _signed(PAYLOAD, **signed)
    headers = request["headers"] if signed else {}

    status, answer = _post(address, headers, request["body"])

    assert status == 401, answer
    assert accepted.inputs == []


def test_a_body_signed_for_another_body_gets_401(receiver: Any) -> None:
    address, accepted = receiver
    request = _signed(PAYLOAD)

    status, _ = _post(address, request["headers"], request["body"] + b" ")

    assert status == 401
    assert accepted.inputs == []


def test_a_body_over_the_limit_gets_413_before_it_is_read(receiver: Any) -> None:
    address, accepted = receiver
    headers = {"Content-Length": str(schedules.MAX_BODY_BYTES + 1)}

    status, answer = _post(address, headers)

    assert status == 413, answer
    assert accepted.inputs == []


def test_a_body_without_content_length_gets_411(receiver: Any) -> None:
    address, accepted = receiver

    status, _ = _post(address, _signed(PAYLOAD)["headers"])

    assert status == 411
    assert accepted.inputs == []


@pytest.mark.parametrize(
    "payload", [[PAYLOAD], "text", 7, None], ids=["array", "string", "number", "null"]
)
def test_a_json_body_that_is_not_an_object_gets_422(receiver: Any, payload: object) -> None:
    address, accepted = receiver

    status, answer = _post(address, **_signed(payload))

    assert status == 422, answer
    assert accepted.inputs == []


def test_a_body_that_is_not_json_gets_400(receiver: Any) -> None:
    address, accepted = receiver
    body = b"not json"
    headers = {"X-Envelope-Signature": schedules.sign(SECRET, body, int(time.time()))}

    status, _ = _post(address, headers, body)

    assert status == 400
    assert accepted.inputs == []


def test_keys_that_name_no_input_are_ignored(receiver: Any) -> None:
    address, accepted = receiver
    # Longer than every input's key: no input's.
    unused = "u" * (1 + max((len(key) for key in team.INPUTS), default=0))

    status, _ = _post(address, **_signed({**PAYLOAD, unused: "ignored"}))

    assert status == 202
    assert accepted.inputs == [PAYLOAD]


def test_inputs_the_payload_leaves_out_take_their_defaults(receiver: Any) -> None:
    address, accepted = receiver
    required = {key: value for key, value in PAYLOAD.items() if team.INPUTS[key].required}
    defaults = {
        key: spec.default
        for key, spec in team.INPUTS.items()
        if key not in required and spec.default is not NO_DEFAULT
    }

    status, _ = _post(address, **_signed(required))

    assert status == 202
    assert accepted.inputs == [{**defaults, **required}]


@pytest.mark.parametrize("key", REQUIRED_INPUTS)
def test_a_payload_without_a_required_input_gets_422_naming_it(receiver: Any, key: str) -> None:
    address, accepted = receiver
    payload = {name: value for name, value in PAYLOAD.items() if name != key}

    status, answer = _post(address, **_signed(payload))

    assert status == 422
    assert f"input {key!r} is required" in answer["error"]
    assert accepted.inputs == []


def test_a_value_of_another_type_gets_422(receiver: Any) -> None:
    address, accepted = receiver
    key = REQUIRED_INPUTS[0]
    wrong = 7 if team.INPUTS[key].type != "number" else "seven"

    status, answer = _post(address, **_signed({**PAYLOAD, key: wrong}))

    assert status == 422
    assert repr(key) in answer["error"]
    assert accepted.inputs == []


def test_a_replayed_request_gets_409_and_runs_nothing(receiver: Any) -> None:
    address, accepted = receiver
    request = _signed(PAYLOAD)

    first = _post(address, **request)
    status, answer = _post(address, **request)

    assert first[0] == 202, first
    assert status == 409, answer
    assert answer["title"] == "Replayed request" and answer["status"] == 409
    assert answer["run_id"] == first[1]["run_id"]
    assert accepted.inputs == [PAYLOAD]


def test_the_same_request_signed_again_later_is_a_new_event(receiver: Any) -> None:
    address, accepted = receiver

    first, _ = _post(address, **_signed(PAYLOAD, age_s=1))
    second, _ = _post(address, **_signed(PAYLOAD))

    assert (first, second) == (202, 202)
    assert accepted.inputs == [PAYLOAD, PAYLOAD]


def test_two_identical_requests_at_once_run_once(receiver: Any) -> None:
    address, accepted = receiver
    request = _signed(PAYLOAD)
    ready = threading.Barrier(2)
    statuses: list[int] = []

    def send() -> None:
        ready.wait()
        statuses.append(_post(address, **request)[0])

    senders = [threading.Thread(target=send) for _ in range(2)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()

    assert sorted(statuses) == [202, 409]
    assert accepted.inputs == [PAYLOAD]


def test_a_replay_is_refused_after_a_restart(replays_file: str) -> None:
    request = _signed(PAYLOAD)
    accepted = _Accepted()
    with _Serving(replays_file, accepted) as address:
        assert _post(address, **request)[0] == 202
    with _Serving(replays_file, accepted) as address:
        status, answer = _post(address, **request)

    assert status == 409, answer
    assert accepted.inputs == [PAYLOAD]


class _Full(_Accepted):
    """A queue with no room for the first run."""

    full = True

    def submit(self, inputs: dict[str, Any]) -> str | None:
        if self.full:
            self.full = False
            return None
        return super().submit(inputs)


def test_a_request_refused_for_a_full_queue_may_be_sent_again(replays_file: str) -> None:
    request = _signed(PAYLOAD)
    full = _Full()
    with _Serving(replays_file, full) as address:
        first, _ = _post(address, **request)
        second, _ = _post(address, **request)

    assert (first, second) == (503, 202)
    assert full.inputs == [PAYLOAD]


def test_accepted_requests_are_kept_for_the_tolerance_window_only(replays_file: str) -> None:
    replays = schedules.Replays(replays_file)
    now = int(time.time())  # a whole second: the window's edge is exact
    old_key, old_t = schedules.Replays.key(SECRET, schedules.sign(SECRET, b"{}", int(now)), b"{}")
    assert replays.claim(old_key, old_t, now) is None
    assert replays.claim(old_key, old_t, now + schedules.TOLERANCE_S) is not None

    later = now + schedules.TOLERANCE_S + 2
    new_key, new_t = schedules.Replays.key(SECRET, schedules.sign(SECRET, b"{}", int(later)), b"{}")
    assert replays.claim(new_key, new_t, later) is None

    kept = replays.conn.execute("SELECT key FROM webhook_accepted").fetchall()
    assert kept == [(new_key,)]


def test_a_timestamp_of_other_digits_is_refused_not_a_crash(receiver: Any) -> None:
    address, accepted = receiver
    body = json.dumps(PAYLOAD).encode()
    # "²" is a digit to str.isdigit() and no number to int().
    digest = schedules.sign(SECRET, body, int(time.time())).rpartition("v1=")[2]

    status, _ = _post(address, {"X-Envelope-Signature": f"t=²,v1={digest}"}, body)

    assert status == 401
    assert accepted.inputs == []


def test_the_accepted_requests_file_is_its_owners_and_names_no_payload(replays_file: str) -> None:
    replays = schedules.Replays(replays_file)
    signed = _signed(PAYLOAD)
    header = signed["headers"]["X-Envelope-Signature"]
    key, signed_at = schedules.Replays.key(SECRET, header, signed["body"])
    assert replays.claim(key, signed_at, time.time()) is None

    assert os.stat(replays_file).st_mode & 0o077 == 0
    # The key is the request's signature under the team's secret: no plain hash of the body
    # that a reader of the file could check a guess against.
    assert key == header.rpartition("v1=")[2]
    assert schedules.Replays.key("another-secret", header, signed["body"])[0] != key


def test_a_claim_whose_run_never_started_is_released_on_restart(replays_file: str) -> None:
    signed = _signed(PAYLOAD)
    key, signed_at = schedules.Replays.key(
        SECRET, signed["headers"]["X-Envelope-Signature"], signed["body"]
    )
    assert schedules.Replays(replays_file).claim(key, signed_at, time.time()) is None

    accepted = _Accepted()
    with _Serving(replays_file, accepted) as address:
        status, _ = _post(address, **signed)

    assert status == 202
    assert accepted.inputs == [PAYLOAD]


def test_a_store_that_cannot_commit_answers_503_and_the_next_request_is_taken(
    replays_file: str,
) -> None:
    signed = _signed(PAYLOAD)
    accepted = _Accepted()
    serving = _Serving(replays_file, accepted)
    serving.replays.conn.execute("PRAGMA busy_timeout = 100")
    blocker = sqlite3.connect(replays_file, isolation_level=None)
    with serving as address:
        blocker.execute("BEGIN EXCLUSIVE")
        locked, _ = _post(address, **signed)
        blocker.execute("ROLLBACK")
        taken, _ = _post(address, **signed)
    blocker.close()

    assert (locked, taken) == (503, 202)
    assert accepted.inputs == [PAYLOAD]
