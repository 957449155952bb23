"""A gate waiting beside the one CrewAI pauses at is reached however long its branch takes
between its step and the gate: the pause waits until every other branch has ended or waits at
a gate (review.py), not for a moment in which nothing seems to run.

Skipped unless the team has two gates.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import main, pipeline, runtime, state, team

from envelope_runtime.crewai import review

if team.MODE != "pipeline" or len(team.GATES) < 2:
    pytest.skip("the team has fewer than two gates", allow_module_level=True)


def _upstream(*keys: str) -> set[str]:
    """Every step the steps `keys` wait for, however far back."""
    found: set[str] = set()
    todo = [dep for key in keys for dep in team.PIPELINE[key].depends_on]
    while todo:
        key = todo.pop()
        if key not in found:
            found.add(key)
            todo += team.PIPELINE[key].depends_on
    return found


def test_a_gate_whose_branch_is_slow_after_its_step_waits_in_the_same_pause(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The last gated step's branch is held between its step and its gate (CrewAI saves the
    # state there, in a thread) until another gate, asked meanwhile and waiting to pause, has
    # counted the run's branches and found it still at work: however long that takes, the
    # pause must wait for it (a pause that went by a quiet moment was over by then).
    gated = [key for key in team.PIPELINE if any(g.after_step == key for g in team.GATES.values())]
    at_once = [b for a in gated for b in gated if a != b and not {a, b} & _upstream(a, b)]
    if not at_once:
        pytest.skip("no two gates of the team can wait at once (each gated step follows another)")
    slow = f"step_{team.PIPELINE[at_once[-1]].method}"
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 3_600_000)  # the held branch is not timed
    held, counted = threading.Event(), threading.Event()
    save, check = state.RunStore.save_state, review.Branches._check
    request = pipeline.GateReview.request_feedback

    def saving(store: Any, flow_uuid: str, method_name: str, state_data: Any) -> None:
        if method_name == slow:
            held.set()
            counted.wait(timeout=30)  # no assertion on it: the pause must wait either way
        save(store, flow_uuid, method_name, state_data)

    def requested(provider: Any, context: Any, flow: Any) -> Any:
        held.wait(timeout=30)  # CrewAI asks in a thread: the flow goes on meanwhile
        return request(provider, context, flow)

    def checking(branches: review.Branches) -> None:
        check(branches)
        if held.is_set() and branches.at_gate and not branches.quiet.is_set():
            counted.set()

    monkeypatch.setattr(state.RunStore, "save_state", saving)
    monkeypatch.setattr(pipeline.GateReview, "request_feedback", requested)
    monkeypatch.setattr(review.Branches, "_check", checking)

    code = main.main(helpers.run_argv())

    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    saved = state.RunStore.of(team).load(json.loads(out.out)["run_id"])
    reached = {n for n, g in team.GATES.items() if g.after_step in saved.outputs}
    if len(reached) < 2:
        pytest.skip("no two gates of the team are reached at once")
    assert set(json.loads(out.out)["gates"]) == reached
