"""A gate that pauses waits for the other branches of its run, counted by review.watched
(review.Branches): runs at once on one loop (an async host awaiting two kickoffs) each count
their own, whatever order they end in, and the loop keeps one counting task factory. Also on
a loop whose tasks start eagerly (asyncio.eager_task_factory, Python 3.12 on).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from envelope_runtime.crewai.review import Branches, watched


class _Flow:
    """What watched takes of a flow: it sets `branches`."""

    branches: Branches


async def _two_runs(order: list[str]) -> None:
    """Two runs on this loop: the first ends before the second's branches begin; the second's
    gate pauses beside a step that ends only after the loop went round a few times."""
    first, second = _Flow(), _Flow()
    first_ended, step_may_end = asyncio.Event(), asyncio.Event()

    async def gate() -> None:
        await second.branches.pause()
        order.append("gate paused")

    async def step() -> None:
        await step_may_end.wait()
        order.append("step ended")

    async def later() -> None:  # a gate that does not wait for the step pauses meanwhile
        for _ in range(10):
            await asyncio.sleep(0)
        order.append("step let end")
        step_may_end.set()

    async def second_run() -> None:
        await first_ended.wait()
        await asyncio.gather(gate(), step(), later())  # CrewAI's listeners, as tasks

    async def first_run() -> None:
        await watched(first, asyncio.sleep(0))
        first_ended.set()

    await asyncio.gather(first_run(), watched(second, second_run()))


@pytest.mark.parametrize("tasks", ["lazy", "eager"])
def test_runs_at_once_on_one_loop_each_count_their_own_branches(tasks: str) -> None:
    eager = getattr(asyncio, "eager_task_factory", None)
    if tasks == "eager" and eager is None:
        pytest.skip("asyncio.eager_task_factory is Python 3.12's")

    async def rounds() -> list[Any]:
        loop = asyncio.get_running_loop()
        loop.set_task_factory(eager if tasks == "eager" else None)
        orders, factories = [], []
        for _ in range(3):
            orders.append([])
            await _two_runs(orders[-1])
            factories.append(loop.get_task_factory())
        return [orders, factories]

    orders, factories = asyncio.run(rounds())

    assert orders == [["step let end", "step ended", "gate paused"]] * 3
    assert factories[0] is not None and factories == [factories[0]] * 3
