"""CrewAI AMP's resume of a pipeline paused at one gate while another waits beside it
(parallel steps, each followed by a gate): `TeamFlow.from_pending(id).resume(answer)`.
CrewAI's resume runs only what follows the gate it resumes; the waiting gate and the steps
after it are reached by the flow kicked off again over the saved state (kickoff_deadline.py),
as is a gate beside past its deadline when the resume pauses again at its own gate.
Skipped unless a gate waits beside the paused one (parallel-gates)."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import re
import sys
import threading
from collections.abc import Iterator
from datetime import timedelta
from functools import partialmethod
from pathlib import Path
from typing import Any

import helpers
import pytest
from crewai.flow.async_feedback import HumanFeedbackPending
from fake_llm import FakeModels
from project import PACKAGE, main, runtime, state, team

from envelope_runtime.crewai.deadline import Deadline, RunTimeout

# A hierarchy team has no flow, no run store (project.state is None) and no gate.
pytestmark = pytest.mark.skipif(
    team.MODE != "pipeline" or len(team.GATES) < 2, reason="no pipeline with two gates"
)


@pytest.fixture
def store(team_env: dict[str, str], fake_models: FakeModels, tmp_path: Path) -> state.RunStore:
    """A test's run store, the team's environment set and its models faked."""
    return state.RunStore(tmp_path / "runs")


def _paused_beside(store: state.RunStore) -> tuple[Any, str]:
    """AMP's kickoff (no terminal, no decisions: it pauses), the run's id; skipped unless
    another gate waits beside the one CrewAI paused at."""
    if team.MODE != "pipeline" or len(team.GATES) < 2:
        pytest.skip("no pipeline with two gates")
    flow = importlib.import_module(f"{PACKAGE}.flow").TeamFlow(persistence=store)
    flow.kickoff(inputs=helpers.valid_inputs())
    paused = store.load(flow.state.id)
    if sum(gate.status == "waiting" for gate in paused.gates.values()) < 2:
        pytest.skip("no gate waits beside the paused one")
    return type(flow), paused.id


def _action(flow: Any, verb: str) -> str:
    """The label of the paused gate's first action with `verb` (one for every record)."""
    gate = team.GATES[flow.pending_feedback.metadata["gate"]]
    return next(action.label for action in gate.actions if action.verb == verb)


def _waiting(run: state.RunState) -> list[str]:
    return sorted(name for name, gate in run.gates.items() if gate.status == "waiting")


def _resumed_once(store: state.RunStore) -> tuple[Any, str, str]:
    """The run paused, then AMP's resume approving every record of the paused gate: the
    flow class, the run's id and the gate that waits on."""
    team_flow, run_id = _paused_beside(store)
    first = team_flow.from_pending(run_id, store)
    gate = first.pending_feedback.metadata["gate"]

    outcome = first.resume(_action(first, "approve"))

    after = store.load(run_id)
    # A run saved done is over: `resume RUN_ID` refuses it, so the waiting gate's records
    # and the steps after it would never be reached. It pauses at that gate instead.
    assert isinstance(outcome, HumanFeedbackPending), (after.status, _waiting(after))
    assert (after.status, gate in _waiting(after)) == ("pending", False)
    (beside,) = _waiting(after)
    assert team_flow.from_pending(run_id, store).pending_feedback.metadata["gate"] == beside
    return team_flow, run_id, beside


def _finished(run: state.RunState) -> None:
    assert (run.status, _waiting(run)) == ("done", []), run.message
    assert sorted(run.outputs) == sorted(team.PIPELINE)
    assert run.result is not None


def test_an_amp_resume_pauses_at_the_gate_beside_and_the_next_one_finishes_the_run(
    store: state.RunStore,
) -> None:
    team_flow, run_id, _ = _resumed_once(store)
    second = team_flow.from_pending(run_id, store)

    outcome = second.resume(_action(second, "approve"))

    assert not isinstance(outcome, HumanFeedbackPending)
    _finished(store.load(run_id))
    assert second.state.status == "done"  # the caller's flow holds the run as saved


def test_our_resume_finishes_a_run_an_amp_resume_left_at_the_gate_beside(
    store: state.RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, run_id, beside = _resumed_once(store)
    records = store.load(run_id).gates[beside].records
    approved = [{"record": record.id, "action": "approve"} for record in records]
    path = helpers.write_decisions(tmp_path / "decisions.json", run_id, {beside: approved})
    capsys.readouterr()

    code = main.main(
        ["resume", run_id, "--decisions", str(path), "--state-dir", str(store.directory)]
    )

    assert code == runtime.EXIT_OK, capsys.readouterr().err
    _finished(store.load(run_id))


def test_an_amp_resume_whose_answer_halts_the_run_leaves_it_halted(
    store: state.RunStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    team_flow, run_id = _paused_beside(store)
    resumed = team_flow.from_pending(run_id, store)
    gate = resumed.pending_feedback.metadata["gate"]
    monkeypatch.setitem(team.GATES, gate, dataclasses.replace(team.GATES[gate], on_reject="halt"))
    outputs = sorted(store.load(run_id).outputs)

    outcome = resumed.resume(_action(resumed, "reject"))

    after = store.load(run_id)
    assert not isinstance(outcome, HumanFeedbackPending)
    assert (after.status, after.gates[gate].status, after.result) == ("halted", "halted", None)
    assert sorted(after.outputs) == outputs  # not kicked off again: a halted run is over


@pytest.mark.parametrize("behaviour", ["proceed", "halt"])
def test_an_amp_resume_pausing_again_at_its_gate_applies_the_passed_timeout_of_the_gate_beside(
    behaviour: str, store: state.RunStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    team_flow, run_id = _paused_beside(store)
    resumed = team_flow.from_pending(run_id, store)
    gate = resumed.pending_feedback.metadata["gate"]
    beside = next(name for name in _waiting(store.load(run_id)) if name != gate)
    # Only the gate beside has a deadline, and it passed (the clock the gates read, moved on).
    for name, spec in team.GATES.items():
        limit, then = ("1h", behaviour) if name == beside else (None, None)
        changed = dataclasses.replace(spec, timeout_after=limit, timeout_behaviour=then)
        monkeypatch.setitem(team.GATES, name, changed)
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    # One record set aside (none when the gate holds one): not every record is decided, so
    # the gate waits on and the resume pauses at it again.
    undecided = store.load(run_id).gates[gate].undecided()
    answer = f"{undecided[0].id} skip" if len(undecided) > 1 else ""

    outcome = resumed.resume(answer)

    # Applied at once, as our `resume` applies it (test_gate_beside_timeout.py), not left to
    # the next resume or `sweep`.
    after = store.load(run_id)
    timed = after.gates[beside]
    assert timed.message is not None, (after.status, _waiting(after))
    assert timed.message.startswith(f"gate {beside}: no decision within 1h ({behaviour}")
    if behaviour == "halt":
        assert (after.status, timed.status, after.result) == ("halted", "halted", None)
        # The halt wins over the pause at its own gate (the resume's, again in the flow kicked
        # off again): the host is told what a halt returns, not that the run waits, and the
        # store keeps no pause to resume.
        assert outcome == f"{beside}:halted"
        assert store.load_pending_feedback(run_id) is None
        return
    assert isinstance(outcome, HumanFeedbackPending)
    assert (after.status, _waiting(after), timed.status) == ("pending", [gate], "released")
    assert {(r.decision, r.decided_by) for r in timed.records} == {("approve", "timeout")}
    assert team_flow.from_pending(run_id, store).pending_feedback.metadata["gate"] == gate


def test_an_amp_resume_pausing_again_loads_no_gate_timeouts_when_no_gate_has_one(
    store: state.RunStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    team_flow, run_id = _paused_beside(store)
    for name, spec in team.GATES.items():
        untimed = dataclasses.replace(spec, timeout_after=None, timeout_behaviour=None)
        monkeypatch.setitem(team.GATES, name, untimed)
    resumed = team_flow.from_pending(run_id, store)
    gate = resumed.pending_feedback.metadata["gate"]
    undecided = store.load(run_id).gates[gate].undecided()
    answer = f"{undecided[0].id} skip" if len(undecided) > 1 else ""
    # Loaded by an earlier test, maybe: this resume must not load it again.
    monkeypatch.delitem(sys.modules, "envelope_runtime.gate_timeouts", raising=False)

    outcome = resumed.resume(answer)

    assert isinstance(outcome, HumanFeedbackPending)  # paused again at its gate
    assert "envelope_runtime.gate_timeouts" not in sys.modules


class _CallClock(threading.Event):
    """The runs' Deadline clock (patched in), moved by the fake models' calls alone:
    set as their `hold`, it lets every call through at once and counts it as the next of
    `durations` seconds long, however fast the machine is."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__()
        self.set()
        self.now = 0.0
        self.durations: Iterator[float] = itertools.repeat(1.0)
        self._lock = threading.Lock()
        # Every Deadline made meanwhile reads this clock: its `clock` argument, by name.
        monkeypatch.setattr(Deadline, "__init__", partialmethod(Deadline.__init__, clock=self.read))

    def read(self) -> float:
        return self.now

    def wait(self, timeout: float | None = None) -> bool:
        with self._lock:  # parallel steps call from their threads
            self.now += next(self.durations)
        return True


def test_run_ms_bounds_the_flow_an_amp_resume_kicks_off_again(
    store: state.RunStore, fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _CallClock(monkeypatch)
    fake_models.hold = clock
    team_flow, run_id, _ = _resumed_once(store)
    spent = store.load(run_id).spent_ms
    assert spent >= 1000  # a second per call: the run's kickoff and first resume spent this
    # A second of runMs left. The second resume makes its calls in the flow kicked off again
    # (CrewAI's resume does not run a join whose other side was released in an earlier
    # process); its first call takes 1.5 s and the rest none. Only a deadline that carries
    # the spent time expires: a fresh runMs would still have `spent` - 500 ms left.
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", spent + 1000)
    clock.durations = itertools.chain([1.5], itertools.repeat(0.0))
    second = team_flow.from_pending(run_id, store)

    with pytest.raises(RunTimeout, match=re.escape("(timeout.runMs)")):
        second.resume(_action(second, "approve"))

    after = store.load(run_id)
    assert (after.status, after.spent_ms) == ("timed_out", spent + 1500)
