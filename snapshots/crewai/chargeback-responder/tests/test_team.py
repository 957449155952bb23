"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline, and no model is called: its agents and their
tools,
and the checks of its inputs; and serve-webhook's rules for this team's payloads (its request
handler on a loopback port in this process, no run started). envelope-export tests the
support code (envelope_support/) itself. Run them with `uv run pytest`.
"""

from __future__ import annotations

import http.client
import http.server
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from crewai import BaseLLM

from chargeback_responder import crew, models, team
from chargeback_responder.envelope_support import checks, runner, schedules

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


def test_a_run_without_inputs_is_refused_naming_each_required_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    args = runner._run_parser().parse_args([])

    with pytest.raises(checks.InputError) as refused:
        checks.collect_inputs(args, team.INPUTS)

    for key in REQUIRED_INPUTS:
        assert f"input {key!r} is required" in refused.value.problems, key


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


@pytest.fixture
def receiver() -> Iterator[tuple[tuple[str, int], _Accepted]]:
    """serve-webhook's request handler with the team's inputs, on a free loopback port in
    this process: its address, and the runs it accepted."""
    accepted = _Accepted()
    handler = schedules.webhook_handler(SECRET, team.INPUTS, accepted, schedules.MAX_BODY_BYTES)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield (str(server.server_address[0]), int(server.server_address[1])), accepted
    finally:
        server.shutdown()
        server.server_close()


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
        if key not in required and spec.default is not checks.NO_DEFAULT
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
