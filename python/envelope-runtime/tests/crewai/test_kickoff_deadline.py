"""timeout.runMs when the team is kicked off without our runner, as CrewAI AMP (or any Python
caller) does: `TeamCrew().crew().kickoff(inputs=...)` for a hierarchy,
`TeamFlow().kickoff(inputs=...)` and `TeamFlow.from_pending(...).resume(...)` for a pipeline.
The runner's own deadline is test_run.py's, test_pipeline.py's and test_gates.py's.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import helpers
import pytest
from crewai import Agent, Crew, Task
from crewai.llms.base_llm import BaseLLM
from fake_llm import Call, FakeModels, act, final
from project import PACKAGE, crew, state, team

from envelope_runtime.crewai.deadline import Deadline, RunTimeout, active_deadline
from envelope_runtime.crewai.kickoff_deadline import _kickoff_deadline, kickoff_deadline

RUN_MS = 1000
CLOCK_REMAINING = Deadline.remaining
"""What is left of a deadline by its clock (tests patch it: the deadline passes when they say)."""

NOT_AN_ANSWER = act("no_such_tool", why="to think it over")
"""A tool the agent does not have: CrewAI tells it so and asks its model again."""


def _message(run_ms: int) -> str:
    return f"the team did not finish within {run_ms} ms (timeout.runMs)"


@pytest.fixture
def slow_models(fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch) -> FakeModels:
    """The first model call takes longer than the whole run may: the deadline passes once it
    is under way (test_run.py's), however long the kickoff took to get there."""
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", RUN_MS)
    fake_models.hold = threading.Event()
    fake_models.hold.set()  # no call waits: `arrived` only marks the first
    arrived = fake_models.arrived
    monkeypatch.setattr(Deadline, "remaining", lambda self: -1.0 if arrived.is_set() else 3600.0)
    return fake_models


# --- a hierarchy's crew ------------------------------------------------------------


def _crew_kickoff() -> Any:
    """AMP's: the crew built without inputs, the API's inputs given to its kickoff."""
    return crew.TeamCrew().crew().kickoff(inputs=helpers.valid_inputs())


def test_a_crew_kicked_off_past_run_ms_fails_and_calls_no_model_again(
    team_env: dict[str, str], slow_models: FakeModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    if team.MODE != "hierarchy":
        pytest.skip("a pipeline has no @crew: its flow is kicked off")
    # Whoever takes the run's task first answers nothing usable: CrewAI asks again, past runMs.
    slow_models.script_task("handle_request", NOT_AN_ANSWER, NOT_AN_ANSWER)
    assert kickoff_deadline() is None

    with pytest.raises(RunTimeout, match=re.escape(_message(RUN_MS))):
        _crew_kickoff()

    assert len(slow_models.calls) == 1  # the first only: the deadline refused the next
    # The kickoff's deadline ended with it (_kickoff_ended cleared it, not only CrewAI's
    # end of the execution): the next kickoff here gets one of its own.
    assert _kickoff_deadline.get() is None
    slow_models.hold = None
    monkeypatch.setattr(Deadline, "remaining", CLOCK_REMAINING)
    team.RUN_TIMEOUT_MS = 600_000
    assert isinstance(_crew_kickoff().pydantic, team.TeamResult)


def test_a_crew_whose_last_answer_comes_past_run_ms_fails(
    team_env: dict[str, str], slow_models: FakeModels
) -> None:
    # Our runner times such a run out (it stops waiting at runMs): a kickoff does the same.
    if team.MODE != "hierarchy":
        pytest.skip("a pipeline has no @crew: its flow is kicked off")

    with pytest.raises(RunTimeout, match="timeout.runMs"):
        _crew_kickoff()

    assert len(slow_models.calls) == 1
    assert _kickoff_deadline.get() is None


def _interrupted_kickoff(fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kickoff CrewAI ends without its EXECUTION_END (it dispatches none for a
    BaseException: Ctrl-C), whose deadline has passed since (its clock says so)."""
    if team.MODE != "hierarchy":
        pytest.skip("a pipeline has no @crew: its flow is kicked off")
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", RUN_MS)

    def interrupted(_call: Call) -> Any:
        raise KeyboardInterrupt

    fake_models.script_task("handle_request", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _crew_kickoff()
    interrupted_deadline = _kickoff_deadline.get()
    monkeypatch.setattr(
        Deadline,
        "remaining",
        lambda self: -1.0 if self is interrupted_deadline else CLOCK_REMAINING(self),
    )


def test_a_kickoff_crewai_ends_without_its_end_hook_leaves_no_deadline_in_force(
    team_env: dict[str, str], fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The next kickoff here, with a budget of its own, does not inherit the interrupted one's.
    _interrupted_kickoff(fake_models, monkeypatch)

    team.RUN_TIMEOUT_MS = 600_000
    assert isinstance(_crew_kickoff().pydantic, team.TeamResult)
    assert kickoff_deadline() is None


class _DirectLLM(BaseLLM):
    """A model called directly, as a native provider is: it dispatches CrewAI's
    before-LLM-call hooks itself (no executor did)."""

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        self._invoke_before_llm_call_hooks(messages)
        return "an answer"


def test_an_interrupted_kickoffs_deadline_refuses_no_other_model_call_in_its_thread(
    team_env: dict[str, str], fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CrewAI's before-LLM-call hook is global: the deadline of a kickoff that is over must
    # not refuse what the thread calls next outside the team (it did until the next team
    # kickoff replaced it).
    _interrupted_kickoff(fake_models, monkeypatch)

    assert _DirectLLM(model="direct/model").call("Hello?") == "an answer"
    clerk = Agent(
        role="Clerk", goal="File notes.", backstory="A clerk.", llm=fake_models.llm_for("clerk")
    )
    task = Task(description="File the note.", expected_output="Done.", agent=clerk)
    fake_models.script("Clerk", final("Filed."))
    assert Crew(agents=[clerk], tasks=[task]).kickoff().raw == "Filed."
    assert clerk.kickoff("File this one too.").raw


# --- a pipeline's flow --------------------------------------------------------------


def _flow(store: Any) -> Any:
    """AMP's flow: built without arguments but a store in the test's folder (`crewai run`'s,
    .envelope-runs where the flow module was imported, is not one)."""
    return importlib.import_module(f"{PACKAGE}.flow").TeamFlow(persistence=store)


def _pipeline_only() -> None:
    if team.MODE != "pipeline":
        pytest.skip("the team has no pipeline")


def test_a_flow_kicked_off_past_run_ms_fails_and_is_saved_timed_out(
    team_env: dict[str, str], slow_models: FakeModels, tmp_path: Path
) -> None:
    _pipeline_only()
    for key in team.PIPELINE:  # each step asks its model twice: the second is past runMs
        slow_models.script_task(key, NOT_AN_ANSWER, NOT_AN_ANSWER)
    store = state.RunStore(tmp_path / "runs")
    flow = _flow(store)

    with pytest.raises(RunTimeout, match="timeout.runMs") as raised:
        flow.kickoff(inputs=helpers.valid_inputs())

    assert _message(RUN_MS) in str(raised.value)
    # Each step's first call only (parallel steps may each have begun one before the
    # deadline passed): the deadline refused every call after it.
    per_step = Counter(call.task for call in slow_models.calls)
    assert slow_models.calls and set(per_step.values()) == {1}, per_step
    saved = store.load(flow.state.id)
    assert saved.status == "timed_out"
    assert saved.message == str(raised.value)
    assert saved.spent_ms >= RUN_MS  # what `resume` counts against runMs next time
    assert active_deadline() is None


def test_a_flow_failing_without_our_runner_is_saved_failed(
    team_env: dict[str, str], fake_models: FakeModels, tmp_path: Path
) -> None:
    _pipeline_only()

    def down(call: Call) -> str:
        raise RuntimeError("the model is down")

    for key in team.PIPELINE:
        fake_models.script_task(key, *[down] * 20)
    store = state.RunStore(tmp_path / "runs")
    flow = _flow(store)

    with pytest.raises(Exception, match="the model is down"):
        flow.kickoff(inputs=helpers.valid_inputs())

    saved = store.load(flow.state.id)
    assert saved.status == "failed"
    assert "the model is down" in (saved.message or "")


def test_a_paused_flow_keeps_its_working_time_and_a_resume_counts_it(
    team_env: dict[str, str],
    fake_models: FakeModels,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _pipeline_only()
    if not team.GATES:
        pytest.skip("the team has no gates: a run never pauses")
    # The deadline's clock: 250 ms of work so far, whatever the machine.
    monkeypatch.setattr(Deadline, "remaining", lambda self: self.ms / 1000 - 0.25)
    store = state.RunStore(tmp_path / "runs")
    flow = _flow(store)

    flow.kickoff(inputs=helpers.valid_inputs())

    saved = store.load(flow.state.id)
    assert saved.status == "pending"
    assert saved.spent_ms == 250
    # The run has used its whole budget: AMP's resume (from_pending, unconfigured) with the
    # reviewer's answer runs nothing more, not even the gate's router, and is timed out.
    saved.spent_ms = team.RUN_TIMEOUT_MS
    store.save_state(saved.id, "test", saved)
    calls = len(fake_models.calls)
    resumed = type(flow).from_pending(saved.id, store)
    gate = team.GATES[resumed.pending_feedback.metadata["gate"]]
    approve = next(action.label for action in gate.actions if action.verb == "approve")

    with pytest.raises(RunTimeout, match=re.escape(_message(team.RUN_TIMEOUT_MS))):
        resumed.resume(approve)  # one action for every record

    assert len(fake_models.calls) == calls
    after = store.load(saved.id)
    assert after.status == "timed_out"
    assert after.spent_ms >= team.RUN_TIMEOUT_MS
    assert after.gates == saved.gates  # no decision was taken


def test_a_flow_run_holds_the_runs_lock_and_leaves_one_held_elsewhere_alone(
    team_env: dict[str, str], fake_models: FakeModels, tmp_path: Path
) -> None:
    # `resume RUN_ID` tells a run whose process is gone by its free lock: a kickoff without
    # our runner holds it while it works, and does not run a run another process holds.
    _pipeline_only()
    if not team.GATES:
        pytest.skip("the team has no gates: a run never pauses")
    from envelope_runtime.crewai.run_files import RunLock

    store = state.RunStore(tmp_path / "runs")
    flow = _flow(store)
    held: list[bool | None] = []
    step = next(iter(team.PIPELINE))

    def answer(call: Call) -> str:
        held.append(RunLock(store, flow.state.id).acquire())
        return fake_models.generic_reply(call)

    fake_models.script_task(step, answer)

    flow.kickoff(inputs=helpers.valid_inputs())

    assert held[:1] == [False]  # taken while the flow worked
    saved = store.load(flow.state.id)
    other = RunLock(store, saved.id)  # another open file: another holder
    assert other.acquire() is True
    calls = len(fake_models.calls)
    resumed = type(flow).from_pending(saved.id, store)
    with pytest.raises(RuntimeError, match="has it"):
        resumed.resume("")
    other.release()
    assert len(fake_models.calls) == calls
    assert store.load(saved.id).model_dump() == saved.model_dump()  # untouched
