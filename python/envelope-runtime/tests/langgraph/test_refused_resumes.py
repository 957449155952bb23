"""Refused resume values do not pile up in the thread: LangGraph keeps every value a task's
interrupts were answered with (and replays them on each resume) until the task ends, so a
gate that asked again in the same task forever kept one more value per bad resume. A lone
gate ends the task on a refused value; one waiting beside other gates reads at most
pipeline.REASKS values in a task. Synthetic pipelines (test_parallel_gates' one or two
parallel gated steps), for every team with gates."""

from __future__ import annotations

from typing import Any

import helpers
import pytest
from fakes import FakeBoard
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from project import gates, pipeline, team

pytestmark = pytest.mark.anyio

if gates is None or not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

import test_parallel_gates as parallel  # noqa: E402 - its synthetic pipelines

NULL_TASK = "00000000-0000-0000-0000-000000000000"  # a resume as given, before a task reads it
BAD = {"decisions": [{"record": "zz", "action": "approve"}]}


async def _kept(saver: BaseCheckpointSaver[Any]) -> int:
    """The most resume values any task of the thread's last checkpoint holds."""
    saved = await saver.aget_tuple(helpers.config())
    assert saved is not None
    return max(
        (
            len(value)
            for task, channel, value in saved.pending_writes or ()
            if channel == "__resume__" and task != NULL_TASK
        ),
        default=0,
    )


async def test_a_lone_gate_keeps_no_refused_value(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    parallel._two_parallel_gates(monkeypatch, "skip", tracks=1)
    saver = InMemorySaver()
    g = helpers.wire(board.model_for, saver)
    await g.ainvoke(helpers.start(), helpers.config())

    for _ in range(4):
        waiting = parallel._pending(await g.aget_state(helpers.config()))
        await g.ainvoke(Command(resume={waiting["g1"].id: BAD}), helpers.config())
        assert await _kept(saver) == 0

    again = helpers.request_of(await g.aget_state(helpers.config()), "g1")
    assert again["problems"] == ["gate g1: unknown record 'zz'"] and again["round"] == 1
    first = again["records"][0]
    approve = {"decisions": [{"record": first["id"], "action": "approve"}]}
    await g.ainvoke(Command(resume=approve), helpers.config())
    done = await g.aget_state(helpers.config())
    assert done.next == () and done.values.get("result") is not None


async def test_a_gate_beside_others_reads_at_most_reasks_values_in_a_task(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    parallel._two_parallel_gates(monkeypatch, "skip")
    saver = InMemorySaver()
    g = helpers.wire(board.model_for, saver)
    waiting = await parallel._two_waiting(g)
    asked = 0

    while "g1" in waiting and asked < 2 * pipeline.REASKS:
        await g.ainvoke(Command(resume={waiting["g1"].id: BAD}), helpers.config())
        asked += 1
        assert await _kept(saver) <= pipeline.REASKS
        waiting = parallel._pending(await g.aget_state(helpers.config()))

    # Past the bound the task ended: the gate asks again once the other gate is answered.
    assert asked == pipeline.REASKS and set(waiting) == {"g2"}
    approve = {"decisions": helpers.approvals(waiting["g2"].value)}
    await g.ainvoke(Command(resume={waiting["g2"].id: approve}), helpers.config())
    again = parallel._pending(await g.aget_state(helpers.config()))
    assert set(again) == {"g1"} and await _kept(saver) == 0
    assert again["g1"].value["problems"] == ["gate g1: unknown record 'zz'"]
    assert again["g1"].value["round"] == 1
