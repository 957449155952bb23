"""Durable runs through the runner: a run stops at a gate (exit 3), says what awaits review,
and continues from the SQLite checkpoint, in this process or in a new one."""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import subprocess
import sys
import threading
import time
import types
import typing
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fakes import FakeBoard, tool_call
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from project import PACKAGE, TEAM, agents, llms, main, nodes, runner, runtime, state, team
from pydantic import ValidationError

from envelope_runtime.langgraph.run_client import EARLIER_STATE_DIR

pytestmark = pytest.mark.anyio

NO_GATES = "the team has no gates: a run never waits for review"


async def _first_gates(list_length: int) -> list[str]:
    """The gates an in-process run of the graph, on fresh fakes, waits at first (sorted)."""
    g = helpers.build(FakeBoard(list_length=list_length))
    await g.ainvoke(helpers.start(), helpers.config())
    snapshot = await g.aget_state(helpers.config())
    return sorted(i.value["gate"] for i in snapshot.interrupts)


def _thread_of(err: str) -> str:
    """The thread id the runner announces on stderr."""
    line = next(line for line in err.splitlines() if line.startswith("Thread "))
    return line.split()[1]


async def _pause(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Start a run without a reviewer: it stops at the first gate, or at the first gates of
    parallel steps. The pending summary."""
    code = await main.amain(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    summary: dict[str, Any] = json.loads(out.out)
    assert _thread_of(out.err) == summary["thread_id"]
    return summary


async def test_resume_of_an_unknown_thread_is_refused(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await main.amain(["resume", "no-such-thread"]) == runtime.EXIT_CONFIG
    assert "thread no-such-thread not found" in capsys.readouterr().err
    assert board.calls == []


async def test_a_finished_run_is_not_resumed(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    assert await main.amain(helpers.run_argv(interactive=True)) == runtime.EXIT_OK
    thread_id = _thread_of(capsys.readouterr().err)
    calls = len(board.calls)

    assert await main.amain(["resume", thread_id]) == runtime.EXIT_CONFIG

    assert f"thread {thread_id} has finished: it is not waiting for review" in (
        capsys.readouterr().err
    )
    assert len(board.calls) == calls


async def test_a_run_stops_at_a_gate_and_says_what_awaits_review(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str]
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)

    summary = await _pause(capsys)

    assert summary["status"] == "pending"
    # Every gate the graph itself waits at first, not only one of them.
    assert summary["gates"] and sorted(summary["gates"]) == await _first_gates(board.list_length)
    template = json.loads(Path(summary["decisions_file"]).read_text(encoding="utf-8"))
    assert sorted(template) == sorted(summary["gates"])
    for name, waiting in summary["gates"].items():
        gate = team.GATES[name]
        assert waiting["step"] == gate.after_step and waiting["round"] == 1
        assert waiting["actions"] == [action.label for action in gate.actions]
        assert len(waiting["records"]) == board.list_length
        for record in waiting["records"]:
            assert set(record["fields"]) == set(gate.fields)
        assert template[name] == [
            {"record": r["record"], "fields": r["fields"], "action": "", "feedback": ""}
            for r in waiting["records"]
        ]
        assert board.calls_for_task(gate.triggers_step) == []
    thread_id = summary["thread_id"]
    expected = f"{PACKAGE} resume {thread_id} --decisions {summary['decisions_file']}"
    assert summary["resume"] == expected


async def test_resuming_without_decisions_keeps_the_run_waiting(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str]
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    summary = await _pause(capsys)
    calls = len(board.calls)

    code = await main.amain(["resume", summary["thread_id"], "--no-interactive"])

    out = capsys.readouterr()
    assert code == runtime.EXIT_CONFIG, out.err  # refused: it would only wait again
    assert "no decisions given" in out.err and out.out == ""
    assert len(board.calls) == calls


async def test_a_paused_run_resumes_in_a_new_process(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    summary = await _pause(capsys)
    thread_id = summary["thread_id"]
    finished = {call.task for call in board.calls}
    log = tmp_path / "calls.jsonl"
    env = {
        **os.environ,
        llms.FACTORY_ENV: "fakes:model_from_env",
        "FAKE_LLM_LOG": str(log),
        "FAKE_LLM_LIST_LENGTH": str(board.list_length),
        "PYTHONPATH": os.pathsep.join(
            [
                str(Path(__file__).parent),
                str(Path(__file__).parents[1] / "common"),
                helpers.source_root(),
                os.environ.get("PYTHONPATH", ""),
            ]
        ),
    }
    command = [sys.executable, "-m", f"{PACKAGE}.main", "resume", thread_id, "--no-interactive"]
    path = helpers.write_decisions(tmp_path / "d0.json", helpers.approve_pending(summary))

    done = subprocess.run(
        [*command, "--decisions", str(path)], env=env, capture_output=True, text=True, timeout=120
    )
    for attempt in range(1, len(team.GATES) + 1):  # later gates: approve them too
        if done.returncode != runtime.EXIT_PENDING:
            break
        decisions = helpers.approve_pending(json.loads(done.stdout))
        path = helpers.write_decisions(tmp_path / f"d{attempt}.json", decisions)
        done = subprocess.run(
            [*command, "--decisions", str(path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert done.returncode == runtime.EXIT_OK, done.stderr
    ended = runtime.utc_now()
    state.TeamResult.model_validate(json.loads(done.stdout))
    calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert calls, "the new process called no model"
    assert not finished & {call["task"] for call in calls}, "finished steps ran again"
    checked = 0
    for name, waiting in summary["gates"].items():  # each gate the run first stopped at
        if waiting["deadline"] and datetime.fromisoformat(waiting["deadline"]) <= ended:
            continue  # a timeout of seconds: it may have passed, the timeout then applied
        checked += 1
        gate = team.GATES[name]
        triggered = next(call for call in calls if call["task"] == gate.triggers_step)
        task = next(m["content"] for m in triggered["messages"] if m["type"] == "human")
        marker = f"approved at gate {name} (JSON):\n"
        received, _ = json.JSONDecoder().raw_decode(task[task.index(marker) + len(marker) :])
        approved = [r["fields"] for r in waiting["records"]]
        assert [{f: row[f] for f in gate.fields} for row in received] == approved
    if not checked:
        pytest.skip("every gate's deadline passed while the test ran: nothing to compare")


async def test_invalid_decisions_are_refused_before_anything_runs(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    summary = await _pause(capsys)
    thread_id = summary["thread_id"]
    first = {name: gate["records"][0]["record"] for name, gate in summary["gates"].items()}
    calls = len(board.calls)
    bad = {
        name: [{"record": "r999", "action": "approve"}, {"record": record, "action": "publish it"}]
        for name, record in first.items()
    }
    path = helpers.write_decisions(tmp_path / "d.json", {**bad, "no-such-gate": []})

    assert await main.amain(["resume", thread_id, "--decisions", str(path)]) == 2

    err = capsys.readouterr().err
    for name, record in first.items():  # every waiting gate's problems, all at once
        assert f"gate {name}: unknown record 'r999'" in err
        assert f"gate {name}: record {record}: unknown action 'publish it'" in err
    assert f"gate 'no-such-gate' is not waiting for review in thread {thread_id}" in err
    assert len(board.calls) == calls
    unreadable = tmp_path / "bad.json"
    unreadable.write_text('{"gate": "not a list"}', encoding="utf-8")
    assert await main.amain(["resume", thread_id, "--decisions", str(unreadable)]) == 2
    assert "a decisions file maps each gate name to a list of decisions" in (
        capsys.readouterr().err
    )


async def test_review_at_the_terminal(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    helpers.approve_everything(monkeypatch)

    code = await main.amain(helpers.run_argv(interactive=True))

    out = capsys.readouterr()
    assert code == runtime.EXIT_OK, out.err
    state.TeamResult.model_validate(json.loads(out.out))
    for name, gate in team.GATES.items():
        count = board.list_length
        header = (
            f"Review gate {name} ({gate.type}) after step {gate.after_step}: {count} record(s)."
        )
        assert header in out.err
        menu = "  ".join(f"[{n}] {a.label}" for n, a in enumerate(gate.actions, start=1))
        assert f"Actions: {menu}" in out.err


async def test_reviewer_feedback_reaches_no_checkpoint_with_a_secret_in_it(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if not team.GATES or not team.SECRETS:
        pytest.skip("the team has no gates or no secrets")
    secret = team_env[team.SECRETS[0]]
    summary = await _pause(capsys)
    decisions = {
        name: [{**item, "feedback": f"looks fine, token {secret}"} for item in items]
        for name, items in helpers.approve_pending(summary).items()
    }
    path = helpers.write_decisions(tmp_path / "d.json", decisions)

    resume = ["resume", summary["thread_id"], "--decisions", str(path), "--no-interactive"]
    assert await main.amain(resume) in (runtime.EXIT_OK, runtime.EXIT_PENDING)

    # The SQLite database and its journal files, as bytes (msgpack keeps text as UTF-8).
    stored = b"".join(path.read_bytes() for path in runner.STATE_DIR.iterdir())
    assert b"looks fine, token [redacted]" in stored
    assert secret.encode() not in stored


async def test_the_run_deadline_counts_the_work_of_every_process(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    summary = await _pause(capsys)
    thread_id = summary["thread_id"]
    # The work so far is the state's (nodes' `work` spans): the runner keeps no table of its own.
    saver_path = str(runner.STATE_DIR / runner.CHECKPOINTS)
    async with AsyncSqliteSaver.from_conn_string(saver_path) as saver:
        values = (await helpers.build(board, saver).aget_state(helpers.config(thread_id))).values
    spent = runtime.worked_ms(values["work"])
    assert spent > 0
    path = helpers.write_decisions(tmp_path / "d.json", helpers.approve_pending(summary))
    calls = len(board.calls)
    resume = ["resume", thread_id, "--decisions", str(path), "--no-interactive"]

    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", spent)  # all of it used before the pause
    assert await main.amain(resume) == runtime.EXIT_TIMEOUT
    assert "Run deadline exceeded" in capsys.readouterr().err
    assert len(board.calls) == calls

    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", spent + 60_000)
    assert await main.amain(resume) in (runtime.EXIT_OK, runtime.EXIT_PENDING)
    assert len(board.calls) > calls


async def test_the_printed_resume_command_finds_the_run_where_it_was_kept(
    team_env: dict[str, str],
    board: FakeBoard,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    # One required name lives only in the env file: a resume without --env-file would miss it.
    env_file = tmp_path / "team.env"
    only_in_file = [*team.SECRETS, *team.VARIABLES][:1]
    env_file.write_text("".join(f"{n}={team_env[n]}\n" for n in only_in_file), encoding="utf-8")
    for name in only_in_file:
        monkeypatch.delenv(name)
    argv = [*helpers.run_argv(), "--state-dir", "kept runs", "--env-file", str(env_file)]
    assert await main.amain(argv) == runtime.EXIT_PENDING
    summary = json.loads(capsys.readouterr().out)
    for name in only_in_file:
        monkeypatch.delenv(name)  # the run loaded it from the file into this process

    words = shlex.split(summary["resume"])
    assert words[:3] == [PACKAGE, "resume", summary["thread_id"]]
    assert (
        Path(words[words.index("--decisions") + 1]).parent.resolve() == Path("kept runs").resolve()
    )
    helpers.write_decisions(Path(summary["decisions_file"]), helpers.approve_pending(summary))
    code = await main.amain(words[1:])

    assert code in (runtime.EXIT_OK, runtime.EXIT_PENDING), capsys.readouterr().err
    assert board.calls_for_task(team.GATES[next(iter(summary["gates"]))].triggers_step) != []


async def test_runs_an_earlier_export_kept_in_its_record_folder_are_moved_and_resumed(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    # An earlier export's runner kept its checkpoints in .envelope/, the export's record.
    earlier = EARLIER_STATE_DIR
    argv = [*helpers.run_argv(), "--state-dir", str(earlier)]
    assert await main.amain(argv) == runtime.EXIT_PENDING
    summary = json.loads(capsys.readouterr().out)
    thread_id = summary["thread_id"]
    decisions = helpers.write_decisions(tmp_path / "d.json", helpers.approve_pending(summary))

    resume = ["resume", thread_id, "--decisions", str(decisions), "--no-interactive"]
    code = await main.amain(resume)  # the default state directory: the thread is found

    err = capsys.readouterr().err
    assert code in (runtime.EXIT_OK, runtime.EXIT_PENDING), err
    assert f"Moved the runs kept in {earlier / runner.CHECKPOINTS}" in err
    assert (runner.STATE_DIR / runner.CHECKPOINTS).is_file()
    # Only the decisions file stays (a printed `resume --decisions` names it): no run data
    # is left to be committed with the record.
    assert [path.name for path in earlier.iterdir()] == [f"{thread_id}.decisions.json"]
    assert board.calls_for_task(team.GATES[next(iter(summary["gates"]))].triggers_step) != []


def test_help_names_the_console_script_and_the_resume_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main.main(["--help"])
    text = capsys.readouterr().out
    assert text.startswith(f"usage: {PACKAGE} ")
    assert f"{PACKAGE} resume THREAD_ID" in " ".join(text.split())
    assert (f"{PACKAGE} sweep applies" in " ".join(text.split())) == bool(team.GATES)
    documents = getattr(team, "WORKSPACE", {})
    said = " ".join(text.split())
    assert (f"{PACKAGE} workspace list|show|edit|import|export|archive|delete" in said) == bool(
        documents
    )
    triggers = any(spec.triggers for spec in documents.values())
    assert (f"{PACKAGE} watch [--once]" in said) == triggers


# --- runs that fail ---------------------------------------------------------------------

LAST_TASK = team.FINAL_STEP or "team"
"""The last model-calling node of a run: the final step, or the hierarchy's team."""


class ProviderError(Exception):
    """What a provider client raises after its own retries (openai, anthropic: status_code)."""

    def __init__(self, status_code: int) -> None:
        super().__init__(f"Error code: {status_code}")
        self.status_code = status_code


def _fails(status_code: int) -> Any:
    def reply(call: Any) -> Any:
        raise ProviderError(status_code)

    return reply


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """No wait between a model call's attempts (read when the graph is built)."""
    monkeypatch.setattr(llms, "RETRY_DELAY_S", 0.0)


@pytest.mark.parametrize("status", [429, 503])
async def test_a_transient_provider_error_is_retried(
    status: int,
    team_env: dict[str, str],
    board: FakeBoard,
    fast_retries: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    board.script_task(LAST_TASK, _fails(status))

    code = await main.amain(helpers.run_argv(interactive=True))

    assert code == runtime.EXIT_OK, capsys.readouterr().err
    assert len(board.calls_for_task(LAST_TASK)) >= 2


async def test_a_failing_model_call_is_tried_model_attempts_times_and_no_more(
    team_env: dict[str, str],
    board: FakeBoard,
    fast_retries: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # One retry layer, around the model call alone: no node retries the step or the team
    # on top of it (the hierarchy's team node and its agent's node each did, 9 calls).
    helpers.approve_everything(monkeypatch)
    board.script_task(LAST_TASK, *[_fails(503)] * (llms.MODEL_ATTEMPTS + 1))

    code = await main.amain(helpers.run_argv(interactive=True))

    assert code == runtime.EXIT_FAILED, capsys.readouterr().err
    assert len(board.calls_for_task(LAST_TASK)) == llms.MODEL_ATTEMPTS
    # Each was the same request: the model call, not the conversation, was tried again.
    sent = {tuple(m.text for m in call.messages) for call in board.calls_for_task(LAST_TASK)}
    assert len(sent) == 1


@pytest.mark.parametrize(("error", "transient"), [(503, True), (429, True), (400, False)])
def test_which_errors_are_transient(error: int, transient: bool) -> None:
    assert llms.transient(ProviderError(error)) is transient
    assert llms.transient(ConnectionResetError()) is True
    assert llms.transient(nodes.StepFailed("no records")) is False


@pytest.mark.parametrize("retryable", [True, False])
def test_langchains_own_error_classification_decides_first(retryable: bool) -> None:
    # langchain_core's ModelError (the integrations raise its subclasses) says itself
    # whether another request could succeed, whatever its status code.
    error = ProviderError(400 if retryable else 503)
    error.is_retryable = retryable  # type: ignore[attr-defined]
    assert llms.transient(error) is retryable


async def test_a_failed_run_keeps_its_work_and_resume_continues_it(
    team_env: dict[str, str],
    board: FakeBoard,
    fast_retries: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    # A bad request is not retried: the run stops, everything before it is kept.
    board.script_task(LAST_TASK, _fails(400))
    assert await main.amain(helpers.run_argv(interactive=True)) == runtime.EXIT_FAILED
    err = capsys.readouterr().err
    thread_id = _thread_of(err)
    assert "Run failed: ProviderError: Error code: 400" in err
    command = shlex.join([PACKAGE, "resume", thread_id])
    assert f"continue from the last finished step with: {command}" in err
    assert len(board.calls_for_task(LAST_TASK)) == 1
    # The steps that finished (a hierarchy's team is one node: nothing before it).
    counts = {key: len(board.calls_for_task(key)) for key in team.PIPELINE if key != LAST_TASK}

    assert (
        await main.amain(["resume", thread_id, *helpers.interactive_flag(False)]) == runtime.EXIT_OK
    )

    state.TeamResult.model_validate(json.loads(capsys.readouterr().out))
    assert {key: len(board.calls_for_task(key)) for key in counts} == counts
    assert len(board.calls_for_task(LAST_TASK)) >= 2


def _malformed_result() -> dict[str, Any]:
    """Arguments for the result tool that TeamResult refuses (one output of a wrong type)."""
    for name, field in state.TeamResult.model_fields.items():
        for wrong in ({"wrong": True}, "wrong", [["wrong"]]):
            try:
                state.TeamResult.model_validate({field.alias or name: wrong})
            except ValidationError:
                return {field.alias or name: wrong}
    pytest.skip("every output of this team accepts any JSON value")


async def test_an_answer_that_does_not_parse_goes_back_to_the_model_with_the_error(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # create_agent's ToolStrategy returns the validation error to the model, which answers
    # again in the same conversation.
    helpers.approve_everything(monkeypatch)
    board.script_task(LAST_TASK, tool_call(state.TeamResult.__name__, **_malformed_result()))

    assert await main.amain(helpers.run_argv(interactive=True)) == runtime.EXIT_OK

    (error,) = board.calls_for_task(LAST_TASK)[1].tool_results()
    assert "error" in str(error.content).lower()
    state.TeamResult.model_validate(json.loads(capsys.readouterr().out))


@pytest.mark.parametrize("answers", [1, 2])
async def test_a_conversation_that_ends_without_its_answer_is_asked_once_more(
    answers: int, team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A conversation can end on prose (e.g. an agent that has other tools besides the
    # answer's): nodes ask once more, told why; a second such end fails the step.
    name = state.TeamResult.__name__
    tasks: list[str] = []
    done = state.TeamResult.model_construct()

    async def ask(agent_key: str, inputs: Any, task: str, *rest: Any) -> dict[str, Any]:
        tasks.append(task)
        return {"structured_response": done} if len(tasks) > answers else {"messages": []}

    team_nodes = nodes.TeamNodes(TEAM, lambda key: None)  # type: ignore[arg-type, return-value]
    monkeypatch.setattr(team_nodes.agents, "ask", ask)
    agent_key = next(iter(team.AGENTS))

    result = await team_nodes._ask(agent_key, {}, "The task.", LAST_TASK, state.TeamResult)

    assert tasks == [
        "The task.",
        f"The task.\n\nYour previous answer could not be used: it did not end with a valid "
        f"call of {name}. Do the task again and finish by calling {name}.",
    ]
    if answers == 1:
        assert result["structured_response"] is done
    else:
        with pytest.raises(nodes.StepFailed, match=f"the answer is not a {name}"):
            team_nodes._structured(result, state.TeamResult, "step")


async def test_an_answer_without_its_structured_call_is_asked_for_in_the_same_conversation(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The re-ask goes on with the conversation (the README: no tool call is made twice):
    # the model sees what it did and said, and the feedback after it, not the task afresh.
    helpers.approve_everything(monkeypatch)
    prose = "Here is my answer in prose, with what my tools found."

    def reply(call: Any) -> Any:  # prose until told that it cannot be used
        told = any("could not be used" in m.text for m in call.messages)
        return board.generic_reply(call) if told else prose

    board.script_task(LAST_TASK, *[reply] * (agents.ANSWER_MISSES + 2))

    assert await main.amain(helpers.run_argv(interactive=True)) == runtime.EXIT_OK, (
        capsys.readouterr().err
    )

    calls = board.calls_for_task(LAST_TASK)
    asked = [c for c in calls if "could not be used" in c.messages[-1].text]
    assert asked, [[m.text[:60] for m in c.messages] for c in calls]
    again = asked[0]
    texts = [m.text for m in again.messages]
    assert texts[: len(calls[0].messages)] == [m.text for m in calls[0].messages]
    assert prose in texts[:-1]
    assert texts[-1].startswith("Your previous answer could not be used")
    assert "Do the task again" not in texts[-1]
    humans = [m for m in again.messages if m.type == "human"]
    assert len(humans) == 2  # the task, once, and the feedback


async def test_a_conversation_to_go_on_with_is_handed_to_the_re_ask(
    team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    conversation = [
        HumanMessage("The task."),
        AIMessage("", tool_calls=[{"name": "http_request", "args": {}, "id": "c1"}]),
        ToolMessage("200 OK", tool_call_id="c1"),
        AIMessage("Done, in prose."),
    ]
    asked: list[tuple[str, Any]] = []
    done = state.TeamResult.model_construct()

    async def ask(agent_key: str, inputs: Any, task: str, *rest: Any) -> dict[str, Any]:
        asked.append((task, rest[3] if len(rest) > 3 else ()))
        return {"messages": conversation} if len(asked) == 1 else {"structured_response": done}

    team_nodes = nodes.TeamNodes(TEAM, lambda key: None)  # type: ignore[arg-type, return-value]
    monkeypatch.setattr(team_nodes.agents, "ask", ask)
    agent_key = next(iter(team.AGENTS))

    result = await team_nodes._ask(agent_key, {}, "The task.", LAST_TASK, state.TeamResult)

    assert result["structured_response"] is done
    (task, history), (again, kept) = asked
    assert (task, list(history)) == ("The task.", [])
    assert list(kept) == conversation  # the tool call and its result: not made again
    assert again.startswith("Your previous answer could not be used") and "The task." not in again


def test_the_output_status_may_be_none_as_after_a_failed_run(board: FakeBoard) -> None:
    # prepare resets status to None on every run: a run that fails (or has not ended)
    # outputs none, and the output schema (state.TeamOutput) says so.
    status = helpers.build(board).get_output_jsonschema()["properties"]["status"]
    kinds = [s.get("type") for s in status.get("anyOf", [status])]
    assert "null" in kinds, status
    assert state.TeamOutput.__annotations__["status"] is not None
    assert type(None) in typing.get_args(typing.get_type_hints(state.TeamOutput)["status"])


async def test_the_graph_counts_the_run_deadline_across_resumes_by_itself(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `langgraph dev` and the SDK see: no runner of ours, only the graph.
    if not team.GATES:
        pytest.skip(NO_GATES)
    g = helpers.build(board)
    await g.ainvoke(helpers.start(), helpers.config())
    paused = await g.aget_state(helpers.config())
    worked = runtime.worked_ms(paused.values["work"])
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", max(worked, 1))  # all of it used already
    calls = len(board.calls)

    await g.ainvoke(helpers.approve_all(paused.interrupts), helpers.config())

    after = await g.aget_state(helpers.config())
    assert after.values["halted"] == nodes.deadline_message(TEAM)
    assert after.values.get("result") is None
    assert len(board.calls) == calls


async def test_a_node_at_work_when_the_deadline_passes_halts_the_run(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Less than any node's own timeout (llms.node_timeout: over 8.75 s; a hierarchy's
    # subtree: runMs and 5 s), far more than any machine takes to its first model call.
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 8000)
    release = threading.Event()
    board.hold = release  # every model call lasts until the test says
    g = helpers.build(board)
    # The wall clock a node's span reads (nodes.py) moves on with the loop's, by as much.
    moved, wall = team.RUN_TIMEOUT_MS / 1000, time.time
    ahead = types.SimpleNamespace(time=lambda: wall() + (moved if board.arrived.is_set() else 0))
    monkeypatch.setattr(nodes, "time", ahead)

    # The deadline passes once a model call is under way (the loop's clock moves on).
    with helpers.clock_ahead_on_arrival(board, moved):
        await g.ainvoke(helpers.start(), helpers.config())
    held = list(board.calls)
    under_way = [call.ended == 0.0 for call in held]
    release.set()

    values = (await g.aget_state(helpers.config())).values
    assert values["halted"] == nodes.deadline_message(TEAM)
    assert held and all(under_way), "the deadline did not cancel the model call in flight"
    # The halted node's work counts (its span, to the deadline): a resume adds it up.
    assert runtime.worked_ms(values["work"]) >= team.RUN_TIMEOUT_MS, values["work"]


def test_working_spans_of_parallel_nodes_count_once() -> None:
    spans = runtime.add_spans([(0.0, 2.0), (5.0, 6.0)], [(1.0, 3.0), (6.0, 6.5)])
    assert spans == [(0.0, 3.0), (5.0, 6.5)]
    assert runtime.worked_ms(spans) == 4500


async def test_a_model_that_never_gives_its_structured_answer_is_bounded(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A server that ignores tool_choice and answers prose would otherwise be asked again
    # until the recursion limit: at most two replies per conversation (an agent with other
    # tools ends on the first), and one more conversation.
    helpers.approve_everything(monkeypatch)
    board.script_task(LAST_TASK, *["Only prose."] * 10)

    assert await main.amain(helpers.run_argv(interactive=True)) == runtime.EXIT_FAILED

    assert f"the answer is not a {state.TeamResult.__name__}" in capsys.readouterr().err
    assert 2 <= len(board.calls_for_task(LAST_TASK)) <= 2 * agents.ANSWER_MISSES


async def test_sweep_applies_the_timeouts_that_passed_and_leaves_the_rest(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour="halt")
        monkeypatch.setitem(team.GATES, name, timed)
    thread_id = (await _pause(capsys))["thread_id"]

    assert await main.amain(["sweep"]) == runtime.EXIT_OK
    assert "No gate is past its deadline." in capsys.readouterr().err
    calls = len(board.calls)
    later = runtime.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)

    assert await main.amain(["sweep"]) == runtime.EXIT_OK

    err = capsys.readouterr().err
    assert f"Thread {thread_id}: " in err and "past the deadline; resuming" in err
    assert "no decision within 1h (halt)" in err
    assert len(board.calls) == calls
    assert await main.amain(["sweep"]) == runtime.EXIT_OK  # nothing waits any more
    assert "No gate is past its deadline." in capsys.readouterr().err
