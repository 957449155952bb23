"""The pipeline as a CrewAI Flow: what each step receives, concurrency, the run state.

Emitted for teams with a pipeline.
"""

from __future__ import annotations

import importlib
import itertools
import json
import sys
import threading
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import Call, FakeModels, final, sample
from project import PACKAGE, crew, main, runtime, team

if team.MODE != "pipeline":
    pytest.skip("the team has no pipeline", allow_module_level=True)


def _finished_run(
    board: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, Any]:
    """Run the whole pipeline (every record approved at the terminal); the saved state."""
    helpers.approve_everything(monkeypatch)
    code = main.main(helpers.run_argv(interactive=True))
    out = capsys.readouterr()
    assert code == 0, out.err
    (state_file,) = Path(".envelope-runs").glob("*[0-9a-f].json")
    return json.loads(state_file.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_each_step_receives_exactly_its_dependencies(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = _finished_run(fake_models, monkeypatch, capsys)

    for key, step in team.PIPELINE.items():
        calls = fake_models.calls_for_task(key)
        assert calls, f"step {key} did not run"
        task = calls[0].content("user")
        # A reviewed dependency reaches the step only as records some gate released.
        reviewed = {spec.after_step for spec in team.GATES.values()} & set(step.depends_on)
        plain = [dep for dep in step.depends_on if dep not in reviewed]
        given = [name for name in team.GATES if f" approved at gate {name} (JSON):" in task]
        assert task.count(" approved at gate ") == len(given), key
        triggering = {name for name, spec in team.GATES.items() if spec.triggers_step == key}
        assert triggering <= set(given), key
        assert reviewed <= {team.GATES[name].after_step for name in given}, key
        for name in given:
            spec = team.GATES[name]
            assert spec.triggers_step == key or spec.after_step in reviewed, (key, name)
        if not step.depends_on and not given:
            dumped = json.dumps(state["inputs"], indent=2, ensure_ascii=False)
            assert f"Run inputs (JSON):\n{dumped}" in task, key
        else:
            assert "Run inputs (JSON)" not in task, key
        # The answers it waits for are its CrewAI context: all of them, in order, nothing else.
        _, *context = task.split("This is the context you're working with:\n")
        answers = "\n\n----------\n\n".join(state["outputs"][dep]["text"] for dep in plain)
        assert len(context) == (1 if plain else 0), key
        if plain:
            assert context[0].startswith(f"{answers}\n\n"), key
        for name in given:
            records = state["gates"][name]["records"]
            approved = [r["data"] for r in records if r["decision"] == "approve"]
            assert helpers.approved_records(calls[0], name) == approved, (key, name)
        assert calls[0].agent_key == step.agent_key


def _siblings() -> list[tuple[str, str]]:
    """Step pairs that wait for the same steps and gates: they must run concurrently."""
    return [
        (a, b)
        for a, b in itertools.combinations(team.PIPELINE, 2)
        if set(team.PIPELINE[a].depends_on) == set(team.PIPELINE[b].depends_on)
        and helpers.gates_before(a) == helpers.gates_before(b)
    ]


@pytest.mark.parametrize("pair", _siblings() or [None])
def test_parallel_branches_run_concurrently(
    pair: tuple[str, str] | None,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if pair is None:
        pytest.skip("no two steps of this pipeline can run at the same time")
    # Each step's model call waits until the other step's call has started too:
    # run one after the other, they would wait in vain.
    both_running = threading.Barrier(2, timeout=10)
    waited_in_vain: list[str] = []

    def meet(call: Call) -> str:
        try:
            both_running.wait()
        except threading.BrokenBarrierError:
            waited_in_vain.append(str(call.task))
        return fake_models.generic_reply(call)

    for key in pair:
        fake_models.script_task(key, meet)

    _finished_run(fake_models, monkeypatch, capsys)

    assert waited_in_vain == []


def test_a_run_to_its_end_loads_no_pause_failure_rejection_or_timeout_code(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The resume and sweep commands (flow_resume.py), checks.py (a paused or failed run's
    resume command) and gate_revision.py (onReject rerun/escalate, timeouts) are imported
    where they are needed, so a run every gate approves loads none of them (issue 37)."""
    lazy = _forget_modules(monkeypatch, "crewai.flow_resume", "checks", "crewai.gate_revision")

    _finished_run(fake_models, monkeypatch, capsys)

    assert [name for name in lazy if name in sys.modules] == []


def test_a_run_that_pauses_loads_no_resume_or_rejection_code(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A run without a terminal pauses at its first gate (exit 3), as most gated runs do: it
    writes its decisions template and resume command, without the resume and sweep
    commands' module or the code for a rejection or a timeout."""
    if not team.GATES:
        pytest.skip("the pipeline has no gates")
    lazy = _forget_modules(monkeypatch, "crewai.flow_resume", "crewai.gate_revision")

    assert main.main(helpers.run_argv()) == runtime.EXIT_PENDING, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["resume"].split()[1] == "resume"
    assert [name for name in lazy if name in sys.modules] == []


def _forget_modules(monkeypatch: pytest.MonkeyPatch, *modules: str) -> list[str]:
    """The library's `modules` unloaded for this test (restored after it)."""
    names = [f"envelope_runtime.{module}" for module in modules]
    for name in names:
        parent, _, module = name.rpartition(".")
        monkeypatch.delitem(sys.modules, name, raising=False)
        monkeypatch.delattr(sys.modules[parent], module, raising=False)  # `from` would find it
    return names


def test_secrets_are_never_written_to_the_run_state(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not team.SECRETS:
        pytest.skip("the team has no secrets")
    secret = team_env[team.SECRETS[0]]

    def leaky(call: Call) -> str:
        # The first step's answer quotes the secret, in a string field when structured.
        if call.schema is None:
            return final(f"note {secret}")
        data = json.dumps(sample(call.schema, fake_models.list_length))
        return final(data.replace('"sample ', f'"{secret} ', 1))

    first = next(iter(team.PIPELINE))
    fake_models.script_task(first, leaky)

    state = _finished_run(fake_models, monkeypatch, capsys)

    text = json.dumps(state)
    assert secret not in text
    assert "[redacted]" in state["outputs"][first]["text"]


# --- runs that fail ---------------------------------------------------------------------


def _state(run_id: str) -> dict[str, Any]:
    path = Path(".envelope-runs") / f"{run_id}.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _run_id(err: str) -> str:
    line = next(line for line in err.splitlines() if " resume " in line)
    return line.split(" resume ", 1)[1].split()[0]


class ProviderError(Exception):
    """What a provider client raises once its own retries are spent."""


def _fails(call: Call) -> str:
    raise ProviderError("Error code: 400")


def test_a_failed_run_keeps_its_work_and_resume_continues_it(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    last = team.FINAL_STEP
    assert last is not None
    # CrewAI retries a failing agent itself (Agent.max_retry_limit): fail every attempt.
    fake_models.script_task(last, *[_fails] * 10)
    assert main.main(helpers.run_argv(interactive=True)) == runtime.EXIT_FAILED
    err = capsys.readouterr().err
    run_id = _run_id(err)
    assert "Run failed: " in err and "Error code: 400" in err
    command = f"{main.COMMAND} resume {run_id}"
    assert f"continue from the last finished step with: {command}" in err
    saved = _state(run_id)
    assert saved["status"] == "failed" and last not in saved["outputs"]
    assert set(saved["outputs"]) == set(team.PIPELINE) - {last}
    counts = {key: len(fake_models.calls_for_task(key)) for key in saved["outputs"]}
    fake_models.scripts.clear()

    assert main.main(["resume", run_id, "--interactive"]) == runtime.EXIT_OK

    team.TeamResult.model_validate(json.loads(capsys.readouterr().out))
    assert {key: len(fake_models.calls_for_task(key)) for key in counts} == counts
    assert _state(run_id)["status"] == "done"


def test_the_run_deadline_counts_across_resumes(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    fake_models.script_task(team.FINAL_STEP or "", *[_fails] * 10)
    assert main.main(helpers.run_argv(interactive=True)) == runtime.EXIT_FAILED
    run_id = _run_id(capsys.readouterr().err)
    path = Path(".envelope-runs") / f"{run_id}.json"
    saved = _state(run_id)
    assert saved["spent_ms"] > 0
    saved["spent_ms"] = team.RUN_TIMEOUT_MS
    path.write_text(json.dumps(saved), encoding="utf-8")
    calls = len(fake_models.calls)

    assert main.main(["resume", run_id, "--interactive"]) == runtime.EXIT_TIMEOUT

    assert f"within {team.RUN_TIMEOUT_MS} ms (timeout.runMs)" in capsys.readouterr().err
    assert len(fake_models.calls) == calls
    assert _state(run_id)["status"] == "timed_out"


def test_an_answer_without_the_step_structure_is_asked_for_once_more(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    gated = [key for key in team.PIPELINE if key in team.RECORD_MODELS]
    if not gated:
        pytest.skip("no step of this team answers with records")
    key = gated[0]
    agent = team.PIPELINE[key].agent_key
    # The step answers prose, and CrewAI's own conversion (the agent's model again) fails.
    fake_models.script_task(key, final("Some records, in prose."))

    def convert(call: Call) -> str:
        # CrewAI's converter calls carry no task; it tries more than once.
        return "still prose" if call.task is None else fake_models.generic_reply(call)

    fake_models.script(agent, *[convert] * 8)
    helpers.approve_everything(monkeypatch)

    assert main.main(helpers.run_argv(interactive=True)) == runtime.EXIT_OK, capsys.readouterr().err

    first, second = fake_models.calls_for_task(key)[:2]
    assert "Your previous answer could not be used" not in first.content("user")
    assert "Your previous answer could not be used (" in second.content("user")


def test_the_flow_is_the_one_way_the_pipeline_runs_and_the_plot_draws_it(
    team_env: dict[str, str],
) -> None:
    """No @crew runs the steps another way (where gates would be CrewAI's free-text
    human_input); `crewai flow plot` draws every step's and gate's edge (static labels)."""
    from crewai.flow.visualization import build_flow_structure

    assert not hasattr(crew.TeamCrew(), "crew")
    structure = build_flow_structure(importlib.import_module(f"{PACKAGE}.flow").TeamFlow)
    edges = {(e["source"], e["target"], e.get("router_event")) for e in structure["edges"]}
    into = {target: source for source, target, label in edges if label is None}
    released: dict[str, str] = {}
    for name, spec in team.GATES.items():
        labels = [f"{name}:released", f"{name}:again", f"{name}:halted"]
        (router,) = [
            n for n, node in structure["nodes"].items() if node.get("router_events") == labels
        ]
        review = into[router]  # the @human_feedback method the router follows
        assert into[review] == f"step_{team.PIPELINE[spec.after_step].method}"
        assert (router, review, f"{name}:again") in edges
        (released[name],) = [t for s, t, label in edges if (s, label) == (router, labels[0])]
    for key, step in team.PIPELINE.items():
        for dep in step.depends_on:
            reviewing = [released[g] for g, spec in team.GATES.items() if spec.after_step == dep]
            sources = reviewing or [f"step_{team.PIPELINE[dep].method}"]
            assert any((s, f"step_{step.method}", None) in edges for s in sources), (key, dep)
