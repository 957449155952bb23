"""The runner's command line around a paused or failed run: a reviewer's decisions file is
never lost, the printed resume command keeps the run's models, a server that does not
answer is named as such, and what a failure or `--verbose` prints is accurate."""

from __future__ import annotations

import argparse
import json
import os
import shlex
from pathlib import Path
from typing import Any

import helpers
import httpx
import pytest
from fakes import FakeBoard
from langgraph.pregel.remote import RemoteGraph
from project import TEAM, main, review, runtime, team

from envelope_runtime.langgraph import run_client
from envelope_runtime.langgraph.runner import STATE_DIR

pytestmark = pytest.mark.anyio

NO_GATES = "the team has no gates: a run never waits for review"
DOWN = "http://127.0.0.1:9"


def _gated() -> None:
    if not team.GATES:
        pytest.skip(NO_GATES)


async def _pause(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    """A run without a reviewer, stopped at its first gates: the pending summary."""
    code = await main.amain([*helpers.run_argv(), *extra])
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    summary: dict[str, Any] = json.loads(out.out)
    return summary


def _fill_in(path: Path) -> str:
    """A reviewer's work in the runner's decisions file: every record rejected, with why."""
    template = json.loads(path.read_text(encoding="utf-8"))
    for items in template.values():
        for item in items:
            item.update(action="reject", feedback="clause 4 is one-sided")
    text = json.dumps(template, indent=2)
    path.write_text(text, encoding="utf-8")
    return text


async def test_a_resume_without_decisions_keeps_a_filled_in_decisions_file(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _gated()
    summary = await _pause(capsys)
    path = Path(summary["decisions_file"])
    filled = _fill_in(path)
    calls = len(board.calls)

    # --decisions forgotten, no terminal (stdin not one)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    code = await main.amain(["resume", summary["thread_id"]])

    err = capsys.readouterr().err
    assert code == runtime.EXIT_CONFIG, err
    assert f"no decisions given: pass --decisions FILE ({path} holds your filled-in" in err
    assert path.read_text(encoding="utf-8") == filled
    assert len(board.calls) == calls


async def test_end_of_input_at_the_review_prompt_keeps_a_filled_in_decisions_file(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _gated()
    summary = await _pause(capsys)
    path = Path(summary["decisions_file"])
    filled = _fill_in(path)

    def end_of_input(*args: object) -> str:
        raise EOFError  # Ctrl-D

    monkeypatch.setattr("builtins.input", end_of_input)
    code = await main.amain(["resume", summary["thread_id"], "--interactive"])

    assert code == runtime.EXIT_CONFIG
    assert "holds your filled-in decisions" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == filled


async def test_a_resume_without_decisions_or_a_terminal_does_not_wait_again_silently(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _gated()
    summary = await _pause(capsys)
    path = Path(summary["decisions_file"])
    template = path.read_text(encoding="utf-8")

    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    code = await main.amain(["resume", summary["thread_id"]])

    out = capsys.readouterr()
    assert code == runtime.EXIT_CONFIG, out.err
    assert f"no decisions given: pass --decisions FILE (fill in {path})" in out.err
    assert out.out == "" and path.read_text(encoding="utf-8") == template


async def test_a_run_waiting_again_keeps_a_decisions_file_it_did_not_read(
    team_env: dict[str, str],
    board: FakeBoard,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    _gated()
    summary = await _pause(capsys)
    path = Path(summary["decisions_file"])
    filled = _fill_in(path)
    # Decisions for one gate only, from another file: the thread waits again.
    first = sorted(summary["gates"])[0]
    other = helpers.write_decisions(
        tmp_path / "one-gate.json", {first: helpers.approve_pending(summary)[first]}
    )

    await main.amain(
        ["resume", summary["thread_id"], "--decisions", str(other), "--no-interactive"]
    )

    capsys.readouterr()
    # Kept where it is while the thread still waits for a record it decides; moved aside
    # (`.1`) when the thread now waits for other records only (the next gate): never lost.
    aside = path.with_name(path.name + ".1")
    assert filled in [p.read_text(encoding="utf-8") for p in (path, aside) if p.exists()]


async def test_the_decisions_template_is_replaced_whole_or_not_at_all(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _gated()
    summary = await _pause(capsys)
    path = Path(summary["decisions_file"])
    before = path.read_text(encoding="utf-8")
    runner = review.GateRunner(TEAM, None, argparse.Namespace(**_args()))

    def fail(*args: object) -> None:
        raise OSError("disk full")  # the write stops before the file is in place

    monkeypatch.setattr(os, "replace", fail)
    snapshot = await _snapshot(summary["thread_id"])
    with pytest.raises(OSError, match="disk full"):
        runner._report_pending(summary["thread_id"], snapshot.interrupts)

    assert path.read_text(encoding="utf-8") == before


def _args(**given: Any) -> dict[str, Any]:
    """A run's parsed options, as the runner's parsers give them."""
    return {
        "state_dir": STATE_DIR,
        "env_file": None,
        "url": None,
        "model": [],
        "trace": None,
        "verbose": False,
        "interactive": False,
        **given,
    }


async def _snapshot(thread_id: str) -> Any:
    async with run_client.open_graph(TEAM, argparse.Namespace(**_args())) as graph:
        return await graph.aget_state(run_client.thread_config(TEAM, thread_id))


async def test_a_resume_with_a_directory_for_decisions_is_refused(
    team_env: dict[str, str],
    board: FakeBoard,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    _gated()
    summary = await _pause(capsys)

    code = await main.amain(["resume", summary["thread_id"], "--decisions", str(tmp_path)])

    assert code == runtime.EXIT_CONFIG
    assert f"--decisions: cannot read {tmp_path}" in capsys.readouterr().err


async def test_another_threads_decisions_file_is_refused(
    team_env: dict[str, str],
    board: FakeBoard,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _gated()
    first, second = await _pause(capsys), await _pause(capsys)
    theirs = Path(second["decisions_file"])
    kept = _fill_in(theirs)
    calls = len(board.calls)

    code = await main.amain(["resume", first["thread_id"], "--decisions", str(theirs)])

    assert code == runtime.EXIT_CONFIG
    err = capsys.readouterr().err
    assert (
        f"holds the decisions of thread {second['thread_id']}, not of {first['thread_id']}" in err
    )
    assert len(board.calls) == calls and theirs.read_text(encoding="utf-8") == kept


async def test_the_printed_resume_command_keeps_the_runs_models(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _gated()
    monkeypatch.setenv("OPENAI_API_KEY", "test-openai-key")

    summary = await _pause(capsys, "--model", "openai:per-run")

    resume = shlex.split(summary["resume"])
    assert resume[-2:] == ["--model", "openai:per-run"]


def _server_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """An Agent Server that does not answer (what httpx raises for a refused connection)."""

    async def refused(*args: object, **kwargs: object) -> Any:
        raise httpx.ConnectError("All connection attempts failed")

    monkeypatch.setattr(RemoteGraph, "aget_state", refused)
    monkeypatch.setattr(review, "waiting_threads", refused)


@pytest.mark.parametrize(
    "argv",
    [["resume", "some-thread", "--url", DOWN], ["sweep", "--url", DOWN], ["--url", DOWN]],
    ids=["resume", "sweep", "run"],
)
async def test_a_server_that_does_not_answer_is_named_not_a_missing_thread(
    argv: list[str],
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if argv[0] == "sweep":
        _gated()
    if argv[0] == "--url":
        argv = [*helpers.run_argv(), *argv]
    _server_down(monkeypatch)

    code = await main.amain(argv)

    err = capsys.readouterr().err
    assert code == runtime.EXIT_CONFIG, err
    assert f"cannot reach the Agent Server at {DOWN} (ConnectError: " in err
    assert "not found" not in err and "Run failed" not in err and "Traceback" not in err
    assert board.calls == []


class _FailingGraph:
    """A graph whose run fails with an error that echoes a prompt, secret filled in."""

    def __init__(self, secret: str) -> None:
        self.secret = secret

    async def aget_state(self, config: Any) -> Any:
        return argparse.Namespace(values={}, interrupts=(), next=())

    async def astream(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(f"could not send the prompt 'use token {self.secret}'")
        yield {}  # an async generator, as LangGraph's


async def test_a_failed_runs_message_has_no_secret_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "h6-secret-value-91c2"
    monkeypatch.setattr(team, "SECRETS", (*team.SECRETS, "H6_TOKEN"))
    monkeypatch.setenv("H6_TOKEN", secret)
    runner = run_client.Runner(TEAM, _FailingGraph(secret), argparse.Namespace(**_args()))

    assert await runner.drive("t1", {}) == runtime.EXIT_FAILED

    err = capsys.readouterr().err
    assert "Run failed: ValueError: could not send the prompt" in err
    assert secret not in err


class _StreamingGraph:
    """A graph streaming updates as LangGraph's `stream_mode="updates"` shapes them on a
    resume (langgraph.pregel._io.map_output_updates): a task whose writes the checkpoint
    already held comes back under `__metadata__: {"cached": True}`."""

    def __init__(self, updates: list[dict[str, Any]]) -> None:
        self.updates = updates

    async def aget_state(self, config: Any) -> Any:
        return argparse.Namespace(values={"result": {}}, interrupts=(), next=())

    async def astream(self, *args: Any, **kwargs: Any) -> Any:
        for update in self.updates:
            yield update


async def test_verbose_names_the_nodes_that_ran_not_replays_or_metadata(
    capsys: pytest.CaptureFixture[str],
) -> None:
    updates: list[dict[str, Any]] = [
        {"step_a": {"outputs": {}}, "__metadata__": {"cached": True}},  # ran before the stop
        {"step_b": {"outputs": {}}},
        {"__interrupt__": ()},
    ]
    runner = run_client.Runner(
        TEAM, _StreamingGraph(updates), argparse.Namespace(**_args(verbose=True))
    )

    assert await runner.drive("t1", None) == runtime.EXIT_OK

    printed = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[t1] ")]
    assert printed == ["[t1] step_b", "[t1] waiting for review"]
