"""Refused resume values do not pile up in the thread: LangGraph keeps every value a task's
interrupts were answered with (and replays them on each resume) until the task ends, so a
gate that asked again in the same task forever kept one more value per bad resume. A lone
gate ends the task on a refused value; one waiting beside other gates keeps at most
pipeline.REASKS values in a task, then refuses a value by failing its resume. Synthetic
pipelines (test_parallel_gates' one or two parallel gated steps), for every team with gates."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import helpers
import pytest
from fakes import FakeBoard
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.pregel.remote import RemoteGraph
from langgraph.types import Command
from project import TEAM, gates, pipeline, runtime, state, team
from pydantic import ValidationError

from envelope_runtime.langgraph import run_client

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


async def test_a_gate_beside_others_keeps_at_most_reasks_values_and_stays_answerable(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    parallel._two_parallel_gates(monkeypatch, "skip")
    saver = InMemorySaver()
    g = helpers.wire(board.model_for, saver)
    waiting = await parallel._two_waiting(g)
    for _ in range(pipeline.REASKS):
        await g.ainvoke(Command(resume={waiting["g1"].id: BAD}), helpers.config())
        waiting = parallel._pending(await g.aget_state(helpers.config()))
    assert await _kept(saver) == pipeline.REASKS and set(waiting) == {"g1", "g2"}
    strict = waiting["g1"]
    assert strict.value["problems"] == ["gate g1: unknown record 'zz'"]

    # Past the bound a refused value fails its resume and is not kept: the gate still waits
    # beside the other, under the same id, for an API client to answer it.
    for _ in range(2):
        with pytest.raises(ValidationError, match="gate g1: unknown record 'zz'"):
            await g.ainvoke(Command(resume={strict.id: BAD}), helpers.config())
        waiting = parallel._pending(await g.aget_state(helpers.config()))
        assert set(waiting) == {"g1", "g2"} and waiting["g1"].id == strict.id
        assert await _kept(saver) == pipeline.REASKS

    approve = {"decisions": helpers.approvals(strict.value)}
    await g.ainvoke(Command(resume={strict.id: approve}), helpers.config())
    snapshot = await g.aget_state(helpers.config())
    assert set(parallel._pending(snapshot)) == {"g2"}
    assert snapshot.values["gates"]["g1"]["status"] == "released"


async def test_a_step_that_fails_beside_a_gate_leaves_nothing_for_a_sweep(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep resumes a thread for its interrupts (gates past their deadline), and lists the
    server's `error` threads for those a refused value failed. A step failing in the superstep
    of a gate's first ask keeps no interrupt of that gate: the thread is resumed by `resume`
    only, its failed step with it (as CrewAI's sweep takes no failed run)."""
    parallel._two_parallel_gates(monkeypatch, "skip", tracks=1)
    agent_key = next(iter(team.AGENTS))
    steps: dict[str, tuple[str, ...]] = {"a1": (), "b0": (), "b": ("b0",), "c": ("a1", "b")}
    specs = {
        k: runtime.StepSpec(agent_key=agent_key, label=k, depends_on=d) for k, d in steps.items()
    }
    monkeypatch.setattr(team, "PIPELINE", specs)
    for key in ("b0", "b"):
        monkeypatch.setitem(state.RECORD_MODELS, key, parallel._records_model("title"))

    def fails(call: Any) -> Any:
        raise RuntimeError("the model is down")

    board.script_task("b", fails)  # b runs beside g1's first ask
    g = helpers.wire(board.model_for, InMemorySaver())
    with pytest.raises(RuntimeError, match="the model is down"):
        await g.ainvoke(helpers.start(), helpers.config())

    snapshot = await g.aget_state(helpers.config())
    assert {task.name: bool(task.error) for task in snapshot.tasks} == {
        pipeline.gate_node("g1"): False,
        pipeline.step_node("b"): True,
    }
    assert snapshot.interrupts == ()


async def test_a_sweep_through_a_server_finds_threads_whose_last_run_a_gate_failed() -> None:
    # The Agent Server marks a thread "error" when its run failed, as a value the strict ask
    # refused fails it; its gates still wait, so a sweep looks at those threads too.
    class Threads:
        def __init__(self) -> None:
            self.by_status = {"interrupted": [f"i{n}" for n in range(150)], "error": ["e1"]}

        async def search(self, *, status: str, limit: int, offset: int, **_: Any) -> list[Any]:
            return [{"thread_id": t} for t in self.by_status[status][offset : offset + limit]]

    graph = RemoteGraph(TEAM.name, client=SimpleNamespace(threads=Threads()))  # type: ignore[arg-type]

    found = await run_client.waiting_threads(TEAM, graph)

    assert found == [*(f"i{n}" for n in range(150)), "e1"]
