"""A new run on a thread that ran before (Studio's next run, a `runs.wait` on the same
thread_id). A join (add_edge([a, b], x)) is a barrier channel that stays half-filled in
the checkpoint when a run stops partway, and no node update empties it: a new run is
accepted only on a new thread or one whose last run ended done, else START's edge to
prepare (nodes.new_run) refuses it
before any model call. The reviewer's case: one of two parallel gates answered, the other
not; the next run on the thread ran the join after one gate only and ended done.
"""

from __future__ import annotations

from typing import Any

import helpers
import pytest
from fakes import Call, FakeBoard
from project import team

pytestmark = pytest.mark.anyio

REFUSED = "thread test: a new run is refused, as its last run did not end done"


async def test_a_new_run_after_a_done_run_is_accepted(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    g = helpers.build(board)
    assert (await helpers.run_to_end(g)).values["status"] == "done"
    again = await helpers.run_to_end(g)
    assert again.values["status"] == "done" and again.values["result"]


async def test_a_new_run_on_a_thread_whose_run_stopped_partway_is_refused(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    if not team.GATES:
        pytest.skip("the team has no gates: a run never stops at one")
    g = helpers.build(board)
    await g.ainvoke(helpers.start(), helpers.config())
    waiting = (await g.aget_state(helpers.config())).interrupts
    assert waiting, "the run ended without waiting at a gate"
    if len(waiting) >= 2:  # one gate answered: its side of the join is filled, not the other's
        answered = waiting[0].value["gate"]
        await g.ainvoke(
            helpers.decide_one(waiting[:1], answered, helpers.approvals(waiting[0].value)),
            helpers.config(),
        )
    calls = len(board.calls)

    with pytest.raises(ValueError, match=REFUSED) as refused:
        await g.ainvoke(helpers.start(), helpers.config())
    assert "(status waiting)" in str(refused.value)
    assert len(board.calls) == calls  # refused before any model call
    # The refused run is the thread's latest checkpoint now: a resume has nothing to go on with.
    await g.ainvoke(None, helpers.config())
    assert (await g.aget_state(helpers.config())).next == ()
    assert len(board.calls) == calls


async def _failed_run(g: helpers.Graph, board: FakeBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run on thread "test" whose first model call fails (status None, inputs kept)."""

    def down(call: Call) -> Any:
        raise RuntimeError("the model is down")

    with monkeypatch.context() as patched:
        patched.setattr(board, "reply", down)
        with pytest.raises(RuntimeError, match="the model is down"):
            await g.ainvoke(helpers.start(), helpers.config())


async def test_a_new_run_on_a_thread_whose_run_failed_is_refused(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = helpers.build(board)
    await _failed_run(g, board, monkeypatch)
    calls = len(board.calls)
    with pytest.raises(ValueError, match=REFUSED) as refused:
        await g.ainvoke(helpers.start(), helpers.config())
    assert "(status none: it failed or was stopped)" in str(refused.value)
    assert len(board.calls) == calls


async def test_a_failed_run_resumed_to_its_end_lets_a_new_run_in(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = helpers.build(board)
    await _failed_run(g, board, monkeypatch)
    payload: Any = None  # a resume: the failed run goes on
    for _ in range(len(team.GATES) * 4 + 1):
        await g.ainvoke(payload, helpers.config())
        snapshot = await g.aget_state(helpers.config())
        if not snapshot.interrupts:
            break
        payload = helpers.approve_all(snapshot.interrupts)
    assert snapshot.values["status"] == "done"
    assert (await helpers.run_to_end(g)).values["status"] == "done"


async def test_a_new_run_on_a_thread_whose_run_halted_is_refused(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A halted run may leave a join half-filled (a gate that halts ends its branch only).
    g = helpers.build(board)
    with monkeypatch.context() as patched:
        patched.setattr(team, "RUN_TIMEOUT_MS", 0)
        first = await g.ainvoke(helpers.start(), helpers.config())
    assert first["status"] == "halted"
    calls = len(board.calls)
    with pytest.raises(ValueError, match=REFUSED) as refused:
        await g.ainvoke(helpers.start(), helpers.config())
    assert "(status halted)" in str(refused.value)
    assert len(board.calls) == calls
    # The runner's way: each run on a thread of its own.
    assert (await helpers.run_to_end(g, thread_id="next")).values["status"] == "done"
