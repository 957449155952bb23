"""What a resume must never do to a run or a reviewer's work: write a blank template over a
filled-in decisions file, show a secret a step's records hold, apply another run's decisions,
leave a run stopped by Ctrl-C or SIGTERM or killed unresumable, or answer a bad decisions file
without naming the file and the place. Runs in new processes where the point is a signal.

Skipped for teams without gates.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import Call, FakeModels, final, sample
from project import PACKAGE, TEAM, llms, main, redaction, runtime, state, team

if not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

from envelope_runtime.crewai import flow_resume  # noqa: E402
from envelope_runtime.crewai.flow_runner import EXIT_INTERRUPTED, EXIT_TERMINATED  # noqa: E402
from envelope_runtime.crewai.run_files import RunLock  # noqa: E402

FIRST = next(iter(team.GATES))


def _paused(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A new run, waiting at its first gates (no terminal): the pending summary."""
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    return json.loads(out.out)  # type: ignore[no-any-return]


def _saved(run_id: str) -> dict[str, Any]:
    path = Path(".envelope-runs") / f"{run_id}.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _fill(pending: dict[str, Any]) -> tuple[Path, bytes]:
    """The run's own decisions file with one record approved, as a reviewer leaves it."""
    path = Path(pending["decisions_file"])
    document = json.loads(path.read_text(encoding="utf-8"))
    name = next(iter(document["gates"]))
    document["gates"][name]["decisions"][0]["action"] = "approve"
    text = json.dumps(document, indent=2).encode()
    path.write_bytes(text)
    return path, text


# --- a filled-in decisions file is never lost ------------------------------------------


def test_a_resume_without_decisions_refuses_to_pass_over_a_filled_in_decisions_file(
    team_env: dict[str, str], fake_models: FakeModels, capsys: pytest.CaptureFixture[str]
) -> None:
    pending = _paused(capsys)
    run_id = pending["run_id"]
    path, text = _fill(pending)
    calls = len(fake_models.calls)

    # What the README's database section says to run to see what waits.
    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_CONFIG

    err = capsys.readouterr().err
    assert f"{path} holds filled-in decisions" in err
    assert f"resume {run_id} --decisions {os.path.relpath(path)}" in err
    assert path.read_bytes() == text
    assert _saved(run_id)["status"] == "pending"
    assert len(fake_models.calls) == calls
    # The command it names applies them.
    code = main.main(["resume", run_id, "--decisions", os.path.relpath(path)])
    assert code in (runtime.EXIT_OK, runtime.EXIT_PENDING), capsys.readouterr().err


def test_a_run_that_pauses_again_keeps_a_decisions_file_it_did_not_read(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A resume at the terminal whose reviewer leaves (Ctrl-D) pauses again: the template
    it writes must not replace what someone filled in meanwhile."""
    pending = _paused(capsys)
    run_id = pending["run_id"]
    path, text = _fill(pending)

    def gone(prompt: object = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", gone)

    assert main.main(["resume", run_id, "--interactive"]) == runtime.EXIT_PENDING

    out = capsys.readouterr()
    assert path.read_bytes() == text
    assert f"Kept {path}: it holds filled-in decisions" in out.err
    assert json.loads(out.out)["run_id"] == run_id
    assert not list(path.parent.glob("*.tmp"))  # templates go through a rename


# --- secrets -----------------------------------------------------------------------------

SECRET = "s3cret-in-a-record-4b1e"


def _leaky_records(fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch) -> None:
    """A team secret, and gated steps whose records hold it in every text (a step that
    read it somewhere)."""
    monkeypatch.setattr(team, "SECRETS", (*team.SECRETS, "ENVELOPE_TEST_RECORD_SECRET"))
    monkeypatch.setenv("ENVELOPE_TEST_RECORD_SECRET", SECRET)

    def leaky(call: Call) -> str:
        assert call.schema is not None
        records = sample(call.schema, fake_models.list_length)
        return final(redaction.replace_text(records, lambda text: f"{text} {SECRET}"))

    for spec in team.GATES.values():
        fake_models.script_task(spec.after_step, leaky)


def test_the_pause_summary_and_the_decisions_file_redact_the_teams_secrets(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _leaky_records(fake_models, monkeypatch)

    pending = _paused(capsys)

    shown = json.dumps(pending)
    assert redaction.REDACTED in shown  # the records held it
    assert SECRET not in shown
    assert SECRET not in Path(pending["decisions_file"]).read_text(encoding="utf-8")
    assert SECRET not in json.dumps(_saved(pending["run_id"]))


def test_a_review_at_the_terminal_shows_no_secret(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _leaky_records(fake_models, monkeypatch)
    helpers.approve_everything(monkeypatch)

    assert main.main(helpers.run_argv(interactive=True)) == runtime.EXIT_OK

    err = capsys.readouterr().err
    assert "OUTPUT FOR REVIEW" in err and redaction.REDACTED in err
    assert SECRET not in err


# --- another run's decisions -----------------------------------------------------------


def test_decisions_for_another_run_are_refused(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    a, b = _paused(capsys), _paused(capsys)
    path = helpers.write_decisions(tmp_path / "b.json", b["run_id"], helpers.approve_all(b))
    calls = len(fake_models.calls)

    assert main.main(["resume", a["run_id"], "--decisions", str(path)]) == runtime.EXIT_CONFIG

    err = capsys.readouterr().err
    assert f"{path}: its decisions are for run {b['run_id']}, not for run {a['run_id']}" in err
    assert _saved(a["run_id"])["status"] == "pending"
    assert len(fake_models.calls) == calls
    # Written by hand, without "run": taken.
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["run"]
    path.write_text(json.dumps(document), encoding="utf-8")
    code = main.main(["resume", a["run_id"], "--decisions", str(path)])
    assert code in (runtime.EXIT_OK, runtime.EXIT_PENDING), capsys.readouterr().err


# --- a bad decisions file ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, said",
    [
        ("{bad", "not valid JSON (line 1 col 2): Expecting property name"),
        ("[]", 'expected a JSON object with "gates"'),
        ('{"run": null}', 'expected a JSON object with "gates"'),
        (json.dumps({"gates": {FIRST: []}}), f'gates.{FIRST}: expected an object with "decisions"'),
        (
            json.dumps({"gates": {FIRST: {"decisions": "x"}}}),
            f"gates.{FIRST}.decisions: expected a list",
        ),
        (
            json.dumps({"gates": {FIRST: {"decisions": [{"record": "r1", "action": 5}]}}}),
            f"gates.{FIRST}.decisions[0].action: Input should be a valid string",
        ),
        (
            json.dumps({"gates": {FIRST: {"decisions": [{"record": "r1"}, "approve"]}}}),
            f"gates.{FIRST}.decisions[1]: Input should be a valid dictionary",
        ),
    ],
)
def test_a_bad_decisions_file_is_named_with_the_place_of_its_fault(
    text: str,
    said: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    run_id = _paused(capsys)["run_id"]
    path = tmp_path / "decisions.json"
    path.write_text(text, encoding="utf-8")

    assert main.main(["resume", run_id, "--decisions", str(path)]) == runtime.EXIT_CONFIG

    err = capsys.readouterr().err
    assert f"{path}: {said}" in err
    assert "https://" not in err and "object has no attribute" not in err
    assert _saved(run_id)["status"] == "pending"


# --- runs stopped by Ctrl-C, a crash or a kill ------------------------------------------


def test_ctrl_c_at_a_gate_prompt_saves_the_run_as_interrupted_and_resumable(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def interrupt(prompt: object = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)

    assert main.main(helpers.run_argv(interactive=True)) == EXIT_INTERRUPTED

    err = capsys.readouterr().err
    run_id = err.split(" resume ", 1)[1].split()[0]
    assert "Run interrupted\nFinished steps and decisions are kept" in err
    saved = _saved(run_id)
    assert (saved["status"], saved["message"]) == ("failed", "interrupted (Ctrl-C)")
    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_PENDING
    assert _saved(run_id)["status"] == "pending"


def test_a_run_left_running_by_a_process_that_is_gone_resumes(
    team_env: dict[str, str], fake_models: FakeModels, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = _paused(capsys)["run_id"]
    path = Path(".envelope-runs") / f"{run_id}.json"
    saved = _saved(run_id)
    saved["status"] = "running"  # as a crash leaves it: nobody holds its lock
    path.write_text(json.dumps(saved), encoding="utf-8")

    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_PENDING

    assert f"Run {run_id} was left running (its process is gone)" in capsys.readouterr().err
    assert _saved(run_id)["status"] == "pending"


@pytest.mark.parametrize("status", ["running", "pending"])
def test_a_run_another_process_holds_is_left_alone(
    status: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A run another process runs (`running`) or resumes (`pending`, two reviewers at
    once): the second resume does nothing, exit 2 (0 for sweep's)."""
    run_id = _paused(capsys)["run_id"]
    path = Path(".envelope-runs") / f"{run_id}.json"
    saved = _saved(run_id)
    saved["status"] = status
    path.write_text(json.dumps(saved), encoding="utf-8")
    other = RunLock(state.RunStore(".envelope-runs"), run_id)  # another open file: another holder
    assert other.acquire() is True
    calls = len(fake_models.calls)
    try:
        assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_CONFIG
        err = capsys.readouterr().err
        assert f"{path.absolute()}: process {os.getpid()} on " in err
        assert "has it; nothing done here" in err
        swept = flow_resume.resume_run(TEAM, [run_id, "--no-interactive"], swept=True)
        assert swept == runtime.EXIT_OK
    finally:
        other.release()
    assert len(fake_models.calls) == calls
    assert _saved(run_id) == saved


def test_a_run_left_running_in_the_database_needs_force_and_one_resume_takes_it(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """With DATABASE_URL another machine's process may run it: no lock tells, so only
    --force continues it; of two forced resumes at once, one takes it."""
    pytest.importorskip("sqlalchemy")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'runs.db'}")
    run_id = _paused(capsys)["run_id"]
    store = state.RunStore.of(team)
    run = store.load(run_id)
    run.status = "running"
    store.save_state(run_id, "crashed", run)

    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_CONFIG
    err = capsys.readouterr().err
    assert f"run {run_id} is not waiting for review (status: running)" in err
    assert f"resume {run_id} --force" in err

    from envelope_runtime.crewai.flow_resume import ClaimingStore

    first, second = ClaimingStore.of(team), ClaimingStore.of(team)
    first.load(run_id), second.load(run_id)  # both read it before either takes it
    assert first.claim(run_id, "taken over by the first")
    assert not second.claim(run_id, "taken over by the second")
    assert store.load(run_id).message == "taken over by the first"
    run.status = "running"
    store.save_state(run_id, "crashed", run)

    notes: list[str | None] = []
    claim = ClaimingStore.claim
    monkeypatch.setattr(
        ClaimingStore, "claim", lambda s, i, note=None: notes.append(note) or claim(s, i, note)
    )
    assert main.main(["resume", run_id, "--no-interactive", "--force"]) == runtime.EXIT_PENDING
    assert f"Run {run_id} was left running (--force)" in capsys.readouterr().err
    assert len(notes) == 1 and str(notes[0]).startswith(f"taken over by process {os.getpid()} ")
    assert store.load(run_id).status == "pending"


# --- the same, in a process of its own: a real Ctrl-C (SIGINT), SIGTERM and SIGKILL -----


@contextmanager
def _sigint(handler: Callable[..., Any] | int) -> Iterator[None]:
    """This process's SIGINT handler meanwhile, the previous one back after."""
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _start_at_a_prompt(
    tmp_path: Path, fake_models: FakeModels
) -> tuple[subprocess.Popen[bytes], str]:
    """The runner in a new process, at its first gate's terminal prompt (stdin stays open);
    its run id."""
    env = {
        **os.environ,
        llms.FACTORY_ENV: "fake_llm:llm_from_env",
        "FAKE_LLM_LOG": str(tmp_path / "calls.jsonl"),
        "FAKE_LLM_LIST_LENGTH": str(fake_models.list_length),
        "PYTHONPATH": os.pathsep.join(
            [
                str(Path(__file__).parent),
                str(Path(__file__).parents[1] / "common"),
                os.environ.get("PYTHONPATH", ""),
            ]
        ),
    }
    command = [sys.executable, "-m", f"{PACKAGE}.main", *helpers.run_argv(interactive=True)]
    # Started as a terminal starts it, Ctrl-C at its default, though a shell starts a
    # background job (`pytest ... &`) with SIGINT ignored: a child inherits an ignored signal
    # (a handled one is default after exec), and Python then never raises KeyboardInterrupt.
    with _sigint(signal.default_int_handler):
        process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    assert process.stderr is not None
    seen = b""
    while b"Your feedback: " not in seen:  # CrewAI's prompt: the gate waits for an answer
        chunk = process.stderr.read1(4096)
        if not chunk:
            process.kill()
            raise AssertionError(f"the runner ended before its gate's prompt:\n{seen.decode()}")
        seen += chunk
    started = re.search(r"^Run (\S+) \(state: ", seen.decode(), re.MULTILINE)
    assert started is not None, seen.decode()
    return process, started[1]


def _ended(process: subprocess.Popen[bytes]) -> bytes:
    """The rest of the runner's stderr once it has ended, its stdin open until then: closed
    at once (communicate), a loaded machine could hand the prompt its end of input before the
    signal, and the run would pause as for Enter (decide later), not stop."""
    assert process.stderr is not None and process.stdin is not None
    stderr, read = process.stderr, []
    # Read while it runs: a child blocked on a full pipe would never end.
    reader = threading.Thread(target=lambda: read.append(stderr.read()), daemon=True)
    reader.start()
    process.wait(timeout=120)
    process.stdin.close()
    reader.join(timeout=30)
    return b"".join(read)


def test_sigint_at_a_gate_prompt_exits_130_and_the_run_resumes(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # As when these tests run as a shell's background job: the runner's Ctrl-C is its own.
    with _sigint(signal.SIG_IGN):
        process, run_id = _start_at_a_prompt(tmp_path, fake_models)
    try:
        # Meanwhile the run is its process's: a resume does nothing.
        assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_CONFIG
        assert "has it; nothing done here" in capsys.readouterr().err
        process.send_signal(signal.SIGINT)
        err = _ended(process)
    finally:
        process.kill()
    assert process.returncode == EXIT_INTERRUPTED, err.decode()
    assert f"continue from the last finished step with: {main.COMMAND} resume {run_id}" in (
        err.decode()
    )
    assert "Traceback" not in err.decode()
    saved = _saved(run_id)
    assert (saved["status"], saved["message"]) == ("failed", "interrupted (Ctrl-C)")

    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_PENDING


def test_sigterm_at_a_gate_prompt_exits_143_and_the_run_resumes(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """docker stop, systemd, a CI runner cancelling: the run ends as Ctrl-C ends it."""
    process, run_id = _start_at_a_prompt(tmp_path, fake_models)
    try:
        process.send_signal(signal.SIGTERM)
        err = _ended(process)
    finally:
        process.kill()
    assert process.returncode == EXIT_TERMINATED, err.decode()
    assert "Run terminated (SIGTERM)" in err.decode()
    assert f"continue from the last finished step with: {main.COMMAND} resume {run_id}" in (
        err.decode()
    )
    assert "Traceback" not in err.decode()
    saved = _saved(run_id)
    assert (saved["status"], saved["message"]) == ("failed", "terminated (SIGTERM)")

    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_PENDING
    assert "was left running" not in capsys.readouterr().err


def test_a_killed_run_resumes(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    process, run_id = _start_at_a_prompt(tmp_path, fake_models)
    try:
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=120)
    finally:
        process.kill()
    assert _saved(run_id)["status"] == "running"

    assert main.main(["resume", run_id, "--no-interactive"]) == runtime.EXIT_PENDING

    assert f"Run {run_id} was left running (its process is gone)" in capsys.readouterr().err
