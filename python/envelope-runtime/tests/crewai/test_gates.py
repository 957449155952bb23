"""Review gates (gates[]): each of this team's gates run end to end (pause, decisions,
onReject, timeout, resume in a new process). The rules of gates.py, on synthetic gates,
are python-common's (python/envelope-runtime/tests/common/test_gate_rules.py).

Skipped for teams without gates.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import subprocess
import sys
import threading
from datetime import timedelta
from functools import partialmethod
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels, final
from project import PACKAGE, TEAM, crew_base, gates, llms, main, runtime, state, team

from envelope_runtime.crewai.deadline import Deadline

if not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

# --- this team's gates, end to end --------------------------------------------------

GATE_NAMES = list(team.GATES)


def _needed(spec: gates.GateSpec) -> int:
    """Approvals that release the gate (all_resolved: one, the others skipped)."""
    return (spec.threshold_count or 1) if spec.trigger == "threshold" else 1


def _resume(run_id: str, path: Path | None = None) -> int:
    argv = ["resume", run_id] + (["--decisions", str(path)] if path is not None else [])
    return main.main(argv)


def _pending_at(name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> dict[str, Any]:
    """Start a run; approve earlier gates until `name` waits. The pending summary."""
    code = main.main(helpers.run_argv())
    for attempt in range(len(team.GATES) + 1):
        out = capsys.readouterr()
        assert code == runtime.EXIT_PENDING, out.err
        pending: dict[str, Any] = json.loads(out.out)
        if name in pending["gates"]:
            return pending
        decisions = helpers.approve_all(pending)
        path = helpers.write_decisions(
            tmp_path / f"before-{attempt}.json", pending["run_id"], decisions
        )
        code = _resume(pending["run_id"], path)
    raise AssertionError(f"gate {name} never waited for review")


def _finish(code: int, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> int:
    """Approve every gate that still waits until the run ends; the final exit code."""
    for attempt in range(len(team.GATES) * gates.MAX_ROUNDS + 1):
        if code != runtime.EXIT_PENDING:
            return code
        pending = json.loads(capsys.readouterr().out)
        path = tmp_path / f"after-{attempt}.json"
        helpers.write_decisions(path, pending["run_id"], helpers.approve_all(pending))
        code = _resume(pending["run_id"], path)
    return code


def _fields(spec: gates.GateSpec, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{field: record[field] for field in spec.fields} for record in records]


def _to_itself(spec: gates.GateSpec) -> bool:
    """Whether the gate's escalation would go to its step's own agent (the first root): it
    halts the run instead, as test_self_escalation.py tests."""
    agent = team.PIPELINE[spec.after_step].agent_key
    first_root = next(key for key, a in team.AGENTS.items() if a.reports_to is None)
    return (team.AGENTS[agent].reports_to or first_root) == agent


def _received(board: FakeModels, spec: gates.GateSpec) -> list[dict[str, Any]]:
    """The records the gate's triggersStep received (its last run)."""
    calls = [c for c in board.calls_for_task(spec.triggers_step) if "approved at gate" in c.text()]
    assert calls, f"step {spec.triggers_step} did not run"
    return _fields(spec, helpers.approved_records(calls[-1], spec.name))


@pytest.mark.parametrize("name", GATE_NAMES)
def test_the_gated_step_answers_records_with_the_gate_fields(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    spec = team.GATES[name]
    record_schema = team.RECORD_MODELS[spec.after_step].model_json_schema()
    record_fields = next(iter(record_schema["$defs"].values()))["properties"]
    assert set(spec.fields) <= set(record_fields)

    pending = _pending_at(name, capsys, tmp_path)

    waiting = pending["gates"][name]
    assert waiting["actions"] == [action.label for action in spec.actions]
    assert len(waiting["decisions"]) == fake_models.list_length
    for item in waiting["decisions"]:
        assert set(item) == {"record", *spec.fields, "action", "feedback"}
    assert fake_models.calls_for_task(spec.triggers_step) == []
    template = json.loads(Path(pending["decisions_file"]).read_text(encoding="utf-8"))
    assert template["gates"][name] == waiting


def _offers(spec: gates.GateSpec, verb: str) -> bool:
    """Whether the gate's reviewers have an action with this verb (recordActions)."""
    return any(action.verb == verb for action in spec.actions)


def _approve_enough(
    spec: gates.GateSpec, items: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The records to approve so the gate releases, and the decisions for all records.

    The rest are skipped when the gate offers skip; otherwise they stay undecided, unless
    every record must be decided (all_resolved, scheduled): then all are approved.
    """
    chosen, others = items[: _needed(spec)], items[_needed(spec) :]
    if not _offers(spec, "skip") and spec.trigger in ("all_resolved", "scheduled"):
        chosen, others = items, []
    decisions = [{"record": i["record"], "action": "approve"} for i in chosen]
    if _offers(spec, "skip"):
        decisions += [{"record": i["record"], "action": "skip"} for i in others]
    return chosen, decisions


@pytest.mark.parametrize("name", GATE_NAMES)
def test_approving_releases_the_gate_with_only_the_approved_records(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    spec = team.GATES[name]
    pending = _pending_at(name, capsys, tmp_path)
    approve, decisions = _approve_enough(spec, pending["gates"][name]["decisions"])
    path = helpers.write_decisions(tmp_path / "d.json", pending["run_id"], {name: decisions})

    code = _finish(_resume(pending["run_id"], path), capsys, tmp_path)

    assert code == runtime.EXIT_OK, capsys.readouterr().err
    assert _received(fake_models, spec) == _fields(spec, approve)


@pytest.mark.parametrize("on_reject", ["skip", "halt", "rerun", "escalate"])
@pytest.mark.parametrize("name", GATE_NAMES)
def test_a_rejection_follows_on_reject(
    name: str,
    on_reject: gates.OnReject,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    spec = dataclasses.replace(team.GATES[name], on_reject=on_reject)
    monkeypatch.setitem(team.GATES, name, spec)
    if on_reject == "escalate" and _to_itself(spec):
        pytest.skip(f"gate {name}'s escalation would go to its step's own agent: it halts")
    pending = _pending_at(name, capsys, tmp_path)
    run_id, items = pending["run_id"], pending["gates"][name]["decisions"]
    feedback = "Not this one: {tools} \\ stays as written"

    if on_reject in ("skip", "halt"):
        rejected, approved = items[:1], items[1:]
        decisions = [{"record": rejected[0]["record"], "action": "reject", "feedback": feedback}]
        decisions += [{"record": i["record"], "action": "approve"} for i in approved]
        path = helpers.write_decisions(tmp_path / "d.json", run_id, {name: decisions})
        code = _resume(run_id, path)
        if on_reject == "halt":
            assert code == runtime.EXIT_HALTED
            err = capsys.readouterr().err
            assert f"gate {name}: rejected {rejected[0]['record']} (onReject: halt)" in err
            assert fake_models.calls_for_task(spec.triggers_step) == []
            return
        assert _finish(code, capsys, tmp_path) == runtime.EXIT_OK
        assert _received(fake_models, spec) == _fields(spec, approved)
        return

    before = len(fake_models.calls_for_task(spec.after_step))
    decisions = [{"record": i["record"], "action": "reject", "feedback": feedback} for i in items]
    path = helpers.write_decisions(tmp_path / "d.json", run_id, {name: decisions})

    assert _resume(run_id, path) == runtime.EXIT_PENDING

    again = json.loads(capsys.readouterr().out)["gates"][name]["decisions"]
    assert {i["record"] for i in again}.isdisjoint({i["record"] for i in items})
    rerun = fake_models.calls_for_task(spec.after_step)[before:]
    revised = fake_models.calls_for_task(f"revise:{name}")
    if on_reject == "rerun":
        assert rerun and revised == []
        task = rerun[0].content("user")
    else:
        from envelope_runtime.crewai.gate_revision import manager_of  # a rejection's module

        manager = manager_of(TEAM, team.PIPELINE[spec.after_step].agent_key)
        assert revised and rerun == []
        assert revised[0].agent_key == manager
        task = revised[0].content("user")
        # The manager sees what the step worked from: the run's inputs and its own inputs.
        assert f"Step {spec.after_step} worked from:\n\nRun inputs (JSON):\n" in task
    assert f"Reviewers rejected these records at gate {name} (round 1 of" in task
    assert json.dumps(feedback)[1:-1] in task
    path = helpers.write_decisions(
        tmp_path / "d2.json",
        run_id,
        {name: [{"record": i["record"], "action": "approve"} for i in again]},
    )
    assert _finish(_resume(run_id, path), capsys, tmp_path) == runtime.EXIT_OK
    assert _received(fake_models, spec) == _fields(spec, again)


@pytest.mark.parametrize("name", GATE_NAMES)
def test_a_release_without_approved_records_tells_the_step_why(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    spec = dataclasses.replace(team.GATES[name], trigger="all_resolved", on_reject="skip")
    monkeypatch.setitem(team.GATES, name, spec)
    pending = _pending_at(name, capsys, tmp_path)
    run_id, items = pending["run_id"], pending["gates"][name]["decisions"]
    rejected = [{"record": i["record"], "action": "reject"} for i in items]
    decisions = {**helpers.approve_all(pending), name: rejected}
    path = helpers.write_decisions(tmp_path / "d.json", run_id, decisions)

    assert _finish(_resume(run_id, path), capsys, tmp_path) == runtime.EXIT_OK

    assert _received(fake_models, spec) == []
    calls = fake_models.calls_for_task(spec.triggers_step)
    task = calls[-1].content("user")
    assert f"No record was approved at gate {name} (gate {name}: every record resolved)." in task


@pytest.mark.parametrize("behaviour", ["halt", "proceed", "escalate"])
@pytest.mark.parametrize("name", GATE_NAMES)
def test_a_gate_timeout_applies_its_behaviour_on_resume(
    name: str,
    behaviour: gates.TimeoutBehaviour,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    after = team.GATES[name].timeout_after or "1h"
    spec = dataclasses.replace(team.GATES[name], timeout_after=after, timeout_behaviour=behaviour)
    monkeypatch.setitem(team.GATES, name, spec)
    if behaviour == "escalate" and _to_itself(spec):
        pytest.skip(f"gate {name}'s escalation would go to its step's own agent: it halts")
    # The clock jumps past this gate's deadline only: a gate waiting beside it (parallel
    # steps) keeps no deadline here, so its own timeout cannot halt or release the run.
    for other, other_spec in list(team.GATES.items()):
        if other != name:
            untimed = dataclasses.replace(other_spec, timeout_after=None, timeout_behaviour=None)
            monkeypatch.setitem(team.GATES, other, untimed)
    pending = _pending_at(name, capsys, tmp_path)
    run_id, items = pending["run_id"], pending["gates"][name]["decisions"]
    # Gates waiting beside it are approved; this gate gets no decision.
    others = {k: v for k, v in helpers.approve_all(pending).items() if k != name}
    beside = helpers.write_decisions(tmp_path / "beside.json", run_id, others)
    later = state.utc_now() + gates.parse_duration(after) + timedelta(minutes=1)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    chosen = items[: _needed(spec)]
    if behaviour == "escalate":
        decided = [{"record": i["record"], "action": "approve", "feedback": "ok"} for i in chosen]
        fake_models.script_task(f"escalate:{name}", final({"decisions": decided}))

    code = _resume(run_id, beside)

    if behaviour == "halt":
        assert code == runtime.EXIT_HALTED
        assert f"gate {name}: no decision within {after} (halt)" in capsys.readouterr().err
        assert fake_models.calls_for_task(spec.triggers_step) == []
        return
    assert _finish(code, capsys, tmp_path) == runtime.EXIT_OK
    if behaviour == "proceed":
        # The undecided records are released (by the timeout), as the step is told.
        assert _received(fake_models, spec) == _fields(spec, items)
        return
    assert _received(fake_models, spec) == _fields(spec, chosen)
    escalation = fake_models.calls_for_task(f"escalate:{name}")[0].content("user")
    assert f"Step {spec.after_step} worked from:\n\nRun inputs (JSON):\n" in escalation
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    from envelope_runtime.crewai.gate_revision import manager_of  # a timeout's module

    manager = manager_of(TEAM, team.PIPELINE[spec.after_step].agent_key)
    by_id = {r["id"]: r for r in saved["gates"][name]["records"]}
    for item in items:
        record = by_id[item["record"]]
        expected = ("approve", f"agent:{manager}") if item in chosen else ("skip", "timeout")
        assert (record["decision"], record["decided_by"]) == expected
    # Like halt's and proceed's, the gate's message says its deadline passed, then what the
    # manager's decisions did (no decisions were given for it: none came late).
    message = saved["gates"][name]["message"]
    assert message.startswith(f"gate {name}: no decision within {after} (escalate); the ")
    assert "manager decided: " in message and "decisions given after" not in message


@pytest.mark.parametrize("name", GATE_NAMES)
def test_a_paused_run_resumes_in_a_new_process(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    spec = team.GATES[name]
    pending = _pending_at(name, capsys, tmp_path)
    run_id = pending["run_id"]
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    finished_steps = set(saved["outputs"])
    chosen, mine = _approve_enough(spec, pending["gates"][name]["decisions"])
    decisions = {name: mine}
    for other, waiting in pending["gates"].items():
        if other != name:
            decisions[other] = helpers.approve_all({"gates": {other: waiting}})[other]
    path = helpers.write_decisions(tmp_path / "d.json", run_id, decisions)
    log = tmp_path / "calls.jsonl"
    env = {
        **os.environ,
        llms.FACTORY_ENV: "fake_llm:llm_from_env",
        "FAKE_LLM_LOG": str(log),
        "FAKE_LLM_LIST_LENGTH": str(fake_models.list_length),
        "PYTHONPATH": os.pathsep.join(
            [
                str(Path(__file__).parent),
                str(Path(__file__).parents[1] / "common"),
                os.environ.get("PYTHONPATH", ""),
            ]
        ),
    }
    command = [
        sys.executable,
        "-m",
        f"{PACKAGE}.main",
        "resume",
        run_id,
        "--decisions",
        str(path),
    ]

    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    result = done.stdout
    if done.returncode == runtime.EXIT_PENDING:
        # Later gates: approved and resumed in this process (one new process is the point;
        # one per later gate made this test quadratic in the gates).
        later = json.loads(done.stdout)
        path = helpers.write_decisions(tmp_path / "later.json", run_id, helpers.approve_all(later))
        capsys.readouterr()
        code = _finish(_resume(run_id, path), capsys, tmp_path)
        result = capsys.readouterr().out
        assert code == runtime.EXIT_OK, result
    else:
        assert done.returncode == runtime.EXIT_OK, done.stderr
    team.TeamResult.model_validate(json.loads(result))
    calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert calls, "the new process called no model"
    assert not finished_steps & {call["task"] for call in calls}, "finished steps ran again"
    triggered = [c for c in calls if c["task"] == spec.triggers_step]
    user = next(m["content"] for m in triggered[0]["messages"] if m["role"] == "user")
    marker = f"approved at gate {name} (JSON):\n"
    received, _ = json.JSONDecoder().raw_decode(user[user.index(marker) + len(marker) :])
    assert _fields(spec, received) == _fields(spec, chosen)
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    assert saved["status"] == "done"


@pytest.mark.parametrize("name", GATE_NAMES)
def test_review_at_the_terminal(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = team.GATES[name]
    helpers.approve_everything(monkeypatch)

    code = main.main(helpers.run_argv(interactive=True))

    out = capsys.readouterr()
    assert code == runtime.EXIT_OK, out.err
    # CrewAI's console review (@human_feedback): the records, then the gate's question; one
    # line of verdicts ("approve": every record's) on stderr, stdout keeps the result.
    labels = ", ".join(action.label for action in spec.actions)
    # Without whitespace: CrewAI's console wraps long lines, inside a long key too.
    said = "".join(out.err.split())
    asked = f"Gate {name} ({spec.type}) after step {spec.after_step}: "
    asked += f"give each record one of {labels}"
    assert "OUTPUT FOR REVIEW" in out.err
    assert "".join(asked.split()) in said
    team.TeamResult.model_validate(json.loads(out.out))
    assert len(_received(fake_models, spec)) == fake_models.list_length


@pytest.mark.parametrize("name", GATE_NAMES)
def test_invalid_decisions_are_refused_before_anything_runs(
    name: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    pending = _pending_at(name, capsys, tmp_path)
    run_id, first = pending["run_id"], pending["gates"][name]["decisions"][0]["record"]
    calls_before = len(fake_models.calls)
    bad = [
        {"record": "r999", "action": "approve"},
        {"record": first, "action": "publish it"},
    ]
    path = helpers.write_decisions(tmp_path / "d.json", run_id, {name: bad, "no-such-gate": []})

    assert _resume(run_id, path) == runtime.EXIT_CONFIG

    err = capsys.readouterr().err
    assert f"gate {name}: unknown record 'r999'" in err
    assert f"record {first}: unknown action 'publish it'" in err
    assert f"gate 'no-such-gate' is not waiting for review in run {run_id}" in err
    assert len(fake_models.calls) == calls_before


class _Clock:
    """The runs' Deadline clock, moved by the test alone: what a run counts is the time the
    test says passed, however fast the machine is."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 0.0
        self._lock = threading.Lock()
        # Every Deadline made meanwhile reads this clock: its `clock` argument, by name.
        monkeypatch.setattr(Deadline, "__init__", partialmethod(Deadline.__init__, clock=self))

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:  # parallel steps advance it from their threads
            self.now += seconds


def test_reviewer_time_does_not_count_against_the_run_deadline(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock = _Clock(monkeypatch)
    answers = iter(["approve"] * 500)
    slow: list[bool] = []

    def slow_human(*args: object) -> str:
        if not slow:
            clock.advance(team.RUN_TIMEOUT_MS / 1000 + 3600)  # longer than the whole run may take
            slow.append(True)
        return next(answers)

    monkeypatch.setattr("builtins.input", slow_human)

    assert main.main(helpers.run_argv(interactive=True)) == runtime.EXIT_OK, capsys.readouterr()
    assert slow


def test_a_run_that_waits_at_a_gate_saves_the_time_it_worked(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A resume's deadline starts from the saved spent_ms (issue 34): 0 here gave every
    # resume the whole timeout.runMs again.
    if not team.GATES:
        pytest.skip("the team has no gates: a run never waits for review")
    clock = _Clock(monkeypatch)
    steps = "envelope_runtime.crewai.pipeline.kickoff"
    work = crew_base.kickoff
    kickoffs: list[bool] = []

    def kickoff(*args: Any, **kwargs: Any) -> Any:
        clock.advance(0.25)  # working time a step spends before its gate
        kickoffs.append(True)
        return work(*args, **kwargs)

    monkeypatch.setattr(steps, kickoff)
    assert main.main(helpers.run_argv()) == runtime.EXIT_PENDING
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    assert saved["status"] == "pending"
    assert kickoffs and saved["spent_ms"] == 250 * len(kickoffs)


def test_the_printed_resume_command_finds_the_run_where_it_was_kept(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not team.GATES:
        pytest.skip("the team has no gates: a run never waits for review")
    # One required name lives only in the env file: a resume without --env-file would miss it.
    env_file = tmp_path / "team.env"
    only_in_file = [*team.SECRETS, *team.VARIABLES][:1]
    env_file.write_text("".join(f"{n}={team_env[n]}\n" for n in only_in_file), encoding="utf-8")
    for name in only_in_file:
        monkeypatch.delenv(name)
    argv = [
        *helpers.run_argv(),
        "--state-dir",
        "kept runs",
        "--env-file",
        str(env_file),
    ]
    assert main.main(argv) == runtime.EXIT_PENDING
    pending = json.loads(capsys.readouterr().out)
    for name in only_in_file:
        monkeypatch.delenv(name)  # the run loaded it from the file into this process

    words = shlex.split(pending["resume"])
    assert words[:3] == [PACKAGE, "resume", pending["run_id"]]
    path = Path(words[words.index("--decisions") + 1])
    assert path.parent.resolve() == Path("kept runs").resolve()
    helpers.write_decisions(path, pending["run_id"], helpers.approve_all(pending))
    code = main.main(words[1:])

    assert code in (runtime.EXIT_OK, runtime.EXIT_PENDING), capsys.readouterr().err
    first = team.GATES[next(iter(pending["gates"]))]
    assert fake_models.calls_for_task(first.triggers_step) != []


def test_a_short_secret_that_occurs_in_timestamps_corrupts_no_stored_run(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Only free text is redacted when a run is saved: a secret such as `20` (in every run
    id and timestamp of this century) must leave the run loadable and resumable."""
    if not team.GATES or not team.SECRETS:
        pytest.skip("the team has no gates or no secrets")
    monkeypatch.setenv(team.SECRETS[0], "20")
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    pending = json.loads(out.out)

    path = helpers.write_decisions(
        tmp_path / "d.json", pending["run_id"], helpers.approve_all(pending)
    )
    assert _finish(_resume(pending["run_id"], path), capsys, tmp_path) == runtime.EXIT_OK


def test_sweep_applies_the_timeouts_that_passed_and_leaves_the_rest(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour="halt")
        monkeypatch.setitem(team.GATES, name, timed)
    first = next(iter(team.GATES))
    run_id = _pending_at(first, capsys, tmp_path)["run_id"]

    assert main.main(["sweep"]) == runtime.EXIT_OK
    assert "No gate is past its deadline." in capsys.readouterr().err
    calls = len(fake_models.calls)
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)

    assert main.main(["sweep"]) == runtime.EXIT_OK

    err = capsys.readouterr().err
    assert f"Run {run_id}: " in err and "past the deadline; resuming" in err
    assert "no decision within 1h (halt)" in err
    assert len(fake_models.calls) == calls
    saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text(encoding="utf-8"))
    assert saved["status"] == "halted"
    assert main.main(["sweep"]) == runtime.EXIT_OK  # nothing waits any more
    assert "No gate is past its deadline." in capsys.readouterr().err
