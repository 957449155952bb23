"""An exception that ends a run reaches no checkpoint with a secret value in it.

LangGraph stores a failed task's exception (its repr, the `__error__` write) in every
namespace it passes through: the agent's model or tool node, the agent's own graph, each
report's node up to the team's. A provider error that echoes a prompt with `{{SECRET}}`
filled in, or a tool's exception quoting a credential, must be stored redacted (README:
secret values are never written to checkpoints), its type kept for `except` clauses.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import helpers
import pytest
from fakes import Call, FakeBoard, tool_call
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from project import TEAM, agents, redaction, team, tools

from envelope_runtime.langgraph import redacted_errors

pytestmark = pytest.mark.anyio

ERROR = "__error__"
"""The channel of a failed task's exception in the checkpointer's writes (langgraph.constants
names it, deprecated as public since LangGraph 1.0)."""


def _chain(error: BaseException) -> Iterator[BaseException]:
    """The exception, its causes and contexts (each once)."""
    seen: set[int] = set()
    todo = [error]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        todo += [e for e in (current.__cause__, current.__context__) if e is not None]


def _shown(error: BaseException) -> str:
    """What a traceback or a checkpoint shows of the exception and its chain."""
    return "\n".join(f"{e!r} {e} {getattr(e, '__notes__', '')}" for e in _chain(error))


def _failing_agent() -> str:
    """An agent a run reaches: in hierarchy mode a report when there is one (its error
    leaves through its manager's ask node too), else the first step's agent."""
    if team.MODE == "hierarchy":
        reports = [key for key in team.AGENTS if team.AGENTS[key].reports_to]
        return reports[-1] if reports else agents.entry_agent(TEAM)
    return next(iter(team.PIPELINE.values())).agent_key


def _secret(env: dict[str, str]) -> str:
    if not team.SECRETS:
        pytest.skip("the team has no secrets")
    return env[team.SECRETS[0]]


async def _failed_run(board: FakeBoard, path: Path) -> tuple[BaseException, list[Any], bytes]:
    """A run on an SQLite checkpointer that must fail: its exception, the `__error__`
    writes of every namespace, and the database's bytes (journal files included)."""
    async with AsyncSqliteSaver.from_conn_string(str(path / "checkpoints.sqlite")) as saver:
        with pytest.raises(Exception) as raised:
            await helpers.build(board, saver).ainvoke(helpers.start(), helpers.config())
        errors = [
            value
            async for saved in saver.alist(helpers.config())
            for _, channel, value in saved.pending_writes or []
            if channel == ERROR
        ]
    stored = b"".join(p.read_bytes() for p in sorted(path.iterdir()) if p.is_file())
    return raised.value, errors, stored


def _assert_redacted(error: BaseException, errors: list[Any], stored: bytes, secret: str) -> None:
    assert all(secret not in str(value) for value in errors)
    # The failed tasks' (the others, running beside them, were cancelled).
    failed = [str(value) for value in errors if str(value) != "CancelledError()"]
    assert failed, "the failed task wrote no __error__"
    assert all(redaction.REDACTED in value for value in failed), failed
    assert secret.encode() not in stored
    assert secret not in _shown(error)
    assert redaction.REDACTED in str(error)


async def test_a_model_error_quoting_a_secret_is_stored_redacted(
    team_env: dict[str, str], board: FakeBoard, tmp_path: Path
) -> None:
    secret = _secret(team_env)

    def fail(call: Call) -> NoReturn:
        # A provider error echoing the prompt, caused by another quoting the key.
        try:
            raise LookupError(f"no account for key {secret}")
        except LookupError as cause:
            raise ValueError(f"upstream rejected the request: Bearer {secret}") from cause

    board.script(_failing_agent(), fail)

    error, errors, stored = await _failed_run(board, tmp_path)

    assert type(error) is ValueError  # the type kept: retry policies, except clauses
    assert str(error) == f"upstream rejected the request: Bearer {redaction.REDACTED}"
    assert isinstance(error.__cause__, LookupError)
    assert str(error.__cause__) == f"no account for key {redaction.REDACTED}"
    assert "ValueError('upstream rejected" in " ".join(str(value) for value in errors), errors
    _assert_redacted(error, errors, stored, secret)


def _egress_agent() -> str | None:
    """An agent with the http_request tool that a run reaches."""
    return next((key for key in helpers.reached_agents() if key in team.POLICIES), None)


def _script_first_reply(board: FakeBoard, agent_key: str, reply: Any) -> None:
    if team.MODE == "hierarchy":
        board.script(agent_key, reply)
        return
    step = next(k for k, s in team.PIPELINE.items() if s.agent_key == agent_key)
    board.script_task(step, reply)


@pytest.mark.parametrize("with_ask", [False, True], ids=["tool-alone", "tool-beside-an-ask"])
async def test_a_tool_error_quoting_a_secret_is_stored_redacted(
    with_ask: bool,
    team_env: dict[str, str],
    board: FakeBoard,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = _secret(team_env)
    agent_key = _egress_agent()
    if agent_key is None:
        pytest.skip("no agent a run reaches has egress")
    reports = agents.reports_of(TEAM, agent_key) if team.MODE == "hierarchy" else []
    if with_ask and not reports:
        pytest.skip("the agent with egress has no reports (its manager's call-tools node)")

    async def explode(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
        raise PermissionError(f"credential {secret} was refused")

    # An exception inside the tool (http_request itself returns failures as text).
    monkeypatch.setattr(tools.HttpRequestTool, "_request", explode)
    http = tool_call("http_request", method="GET", url="https://example.invalid/")
    if with_ask:
        # A reply that asks a report runs its other tool calls in the call-tools node.
        ask = tool_call(agents.ask_tool_name(TEAM, reports[0]), task="look into it")
        http.tool_calls = [*ask.tool_calls, *http.tool_calls]
    _script_first_reply(board, agent_key, http)

    error, errors, stored = await _failed_run(board, tmp_path)

    assert type(error) is PermissionError
    assert str(error) == f"credential {redaction.REDACTED} was refused"
    _assert_redacted(error, errors, stored, secret)


# --- redacted_errors.without_secrets, team-independent ---------------------------------

SECRET = "s3cr3t-value-0001"


class ProviderError(Exception):
    """Like a provider SDK's: keyword-only arguments, the message also an attribute."""

    def __init__(self, message: str, *, status_code: int, body: dict[str, Any]) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.body = body


def test_an_error_without_a_secret_is_kept_as_it_is() -> None:
    error = ValueError("nothing to hide")
    assert redacted_errors.without_secrets(error, [SECRET]) is error
    quoting = ValueError(SECRET)
    assert redacted_errors.without_secrets(quoting, []) is quoting  # no secrets to redact


def test_a_copy_keeps_the_type_and_attributes_with_text_redacted() -> None:
    error = ProviderError(f"bad key {SECRET}", status_code=401, body={"echo": SECRET, "n": 1})
    error.add_note(f"request used {SECRET}")

    safe = redacted_errors.without_secrets(error, [SECRET])

    assert type(safe) is ProviderError
    assert isinstance(safe, ProviderError)
    assert safe.args == ("bad key [redacted]",)
    assert safe.message == "bad key [redacted]"
    assert safe.status_code == 401
    assert safe.body == {"echo": "[redacted]", "n": 1}
    assert safe.__notes__ == ["request used [redacted]"]
    assert error.message == f"bad key {SECRET}"  # the original is left alone


def test_the_chain_is_redacted_and_a_group_s_exceptions_too() -> None:
    # ExceptionGroup: Python 3.11, as the LangGraph side (asyncio.timeout); ruff targets 3.10.
    group_type = ExceptionGroup  # noqa: F821
    try:
        try:
            raise KeyError(SECRET)
        except KeyError:
            raise group_type("calls failed", [OSError(f"no {SECRET}"), ValueError("ok")])  # noqa: B904
    except group_type as group:
        error = group

    safe = redacted_errors.without_secrets(error, [SECRET])

    assert isinstance(safe, group_type)
    assert [type(e) for e in safe.exceptions] == [OSError, ValueError]
    assert isinstance(safe.__context__, KeyError)
    assert SECRET not in _shown(safe)
    assert "no [redacted]" in repr(safe)


def test_an_error_that_cannot_be_copied_becomes_a_redacted_error() -> None:
    class Stubborn(Exception):
        def __new__(cls, *args: Any) -> Stubborn:
            if args and "[redacted]" in str(args[0]):
                raise TypeError("no copies")
            return super().__new__(cls, *args)

    safe = redacted_errors.without_secrets(Stubborn(f"key {SECRET}"), [SECRET])

    assert isinstance(safe, redacted_errors.RedactedError)
    assert str(safe) == "Stubborn: key [redacted]"
