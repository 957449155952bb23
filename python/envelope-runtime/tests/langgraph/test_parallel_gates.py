"""Two gates waiting at once (parallel tracks), answered one at a time.

LangGraph ends a superstep in which any task interrupted, and its next superstep waits for
every interrupt of that one to be answered. A gate that refuses a resume value therefore
asks again inside the same node (a second interrupt() of the same task), never in a new
task: it stays among the run's interrupts, with the problems, beside the gate still waiting.
A gate's next round after a rejection that reruns its step (a new task, in a later
superstep) waits until the other gates waiting with it are answered; that is pinned here too.

Skipped for teams where no two gates wait at once (the team's own shape); the synthetic
pipeline (two parallel gated steps) runs for every team with gates.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import helpers
import pytest
from fakes import FakeBoard
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Command
from project import gates, pipeline, runtime, state, team
from pydantic import BaseModel, create_model

pytestmark = pytest.mark.anyio

if gates is None or not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)


@pytest.fixture(params=["memory", "sqlite"])
async def saver(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """In memory, and SQLite as the runner keeps a thread: both store what a task's
    interrupts were answered with, which the gate's node reads again on each resume."""
    if request.param == "memory":
        yield InMemorySaver()
        return
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.sqlite")) as kept:
        yield kept


def _pending(snapshot: Any) -> dict[str, Any]:
    """The run's interrupts by gate name (one each)."""
    by_gate = {i.value["gate"]: i for i in snapshot.interrupts}
    assert len(by_gate) == len(snapshot.interrupts), "a gate asks twice at once"
    return by_gate


async def _two_waiting(g: helpers.Graph) -> dict[str, Any]:
    """Start the run; approve gates until two or more wait at once; their interrupts."""
    await g.ainvoke(helpers.start(), helpers.config())
    for _ in range(len(team.GATES) + 1):
        snapshot = await g.aget_state(helpers.config())
        if len(snapshot.interrupts) >= 2:
            return _pending(snapshot)
        if not snapshot.interrupts:
            break
        await g.ainvoke(helpers.approve_all(snapshot.interrupts), helpers.config())
    pytest.skip("no two gates of this team wait at once")


async def _refused_one_stays_beside_the_other(g: helpers.Graph) -> None:
    waiting = await _two_waiting(g)
    refusing, beside = sorted(waiting)[:2]
    first_ids = {name: i.id for name, i in waiting.items()}
    bad = {"decisions": [{"record": "zz", "action": "Approve"}]}

    # What an SDK client may send: one gate's interrupt id only, with a value it refuses.
    await g.ainvoke(Command(resume={first_ids[refusing]: bad}), helpers.config())

    again = _pending(await g.aget_state(helpers.config()))
    assert refusing in again and beside in again
    assert again[refusing].value["problems"] == [f"gate {refusing}: unknown record 'zz'"]
    assert again[refusing].value["round"] == 1
    assert again[beside].value["problems"] == []
    # The gate beside it still waits for its first answer: the same interrupt.
    assert again[beside].id == first_ids[beside]
    # Its records and deadline are those of round 1: nothing was applied.
    assert again[refusing].value["records"] == waiting[refusing].value["records"]
    assert again[refusing].value["deadline"] == waiting[refusing].value["deadline"]

    # A second refusal (a wrong shape) asks again, still beside the other gate.
    await g.ainvoke(Command(resume={again[refusing].id: "approve all"}), helpers.config())
    third = _pending(await g.aget_state(helpers.config()))
    assert set(third) >= {refusing, beside}
    assert third[refusing].value["problems"] == [
        f'gate {refusing}: resume with {{"decisions": [...]}}'
    ]

    # Answered validly, each in its own resume: the refused values are never replayed.
    ok = {"decisions": helpers.approvals(third[refusing].value)}
    await g.ainvoke(Command(resume={third[refusing].id: ok}), helpers.config())
    fourth = _pending(await g.aget_state(helpers.config()))
    assert refusing not in fourth and beside in fourth
    for _ in range(len(team.GATES) * gates.MAX_ROUNDS + 1):
        snapshot = await g.aget_state(helpers.config())
        if not snapshot.interrupts:
            break
        await g.ainvoke(helpers.approve_all(snapshot.interrupts), helpers.config())
    done = await g.aget_state(helpers.config())
    assert done.next == () and done.values.get("result") is not None
    assert done.values["gates"][refusing]["problems"] == []
    decided = gates.GateState.model_validate(done.values["gates"][refusing])
    assert decided.status == "released" and decided.round == 1


async def test_a_refused_value_asks_again_beside_the_other_waiting_gate(
    team_env: dict[str, str], board: FakeBoard, saver: BaseCheckpointSaver[Any]
) -> None:
    await _refused_one_stays_beside_the_other(helpers.build(board, saver))


# --- synthetic pipeline: two parallel gated steps, for every team with gates ---------------


def _records_model(*fields: str) -> type[BaseModel]:
    record = create_model("SyntheticRecord", **{f: (str, ...) for f in fields})  # type: ignore[call-overload]
    return create_model("SyntheticRecords", records=(list[record], ...))  # type: ignore[valid-type]


def _two_parallel_gates(
    monkeypatch: pytest.MonkeyPatch, on_reject: gates.OnReject, tracks: int = 2
) -> None:
    """a1 -> g1 and a2 -> g2 (the first `tracks` of them), triggering c; every step run by
    the team's first agent."""
    agent_key = next(iter(team.AGENTS))
    afters = [f"a{n}" for n in range(1, tracks + 1)]
    steps: dict[str, tuple[str, ...]] = {**{a: () for a in afters}, "c": tuple(afters)}
    monkeypatch.setattr(team, "MODE", "pipeline")
    monkeypatch.setattr(
        team,
        "PIPELINE",
        {
            key: runtime.StepSpec(agent_key=agent_key, label=f"Synthetic {key}", depends_on=deps)
            for key, deps in steps.items()
        },
    )
    monkeypatch.setattr(
        team,
        "GATES",
        {
            name: gates.GateSpec(
                name=name,
                type="decision",
                after_step=after,
                triggers_step="c",
                fields=("title",),
                trigger="any_approved",
                on_reject=on_reject,
            )
            for name, after in [(f"g{n}", f"a{n}") for n in range(1, tracks + 1)]
        },
    )
    monkeypatch.setattr(team, "FINAL_STEP", "c")
    for after in afters:
        monkeypatch.setitem(state.RECORD_MODELS, after, _records_model("title"))


async def test_synthetic_refused_value_asks_again_beside_the_other_gate(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    saver: BaseCheckpointSaver[Any],
) -> None:
    _two_parallel_gates(monkeypatch, "skip")
    await _refused_one_stays_beside_the_other(helpers.wire(board.model_for, saver))


async def test_a_rerun_round_waits_for_the_other_waiting_gates(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pinned, as the README says it: a rejection that reruns the step is a new task, in a
    # superstep after the one where the other gate still asks, so round 2 (and its deadline)
    # starts once every gate waiting beside it is answered.
    _two_parallel_gates(monkeypatch, "rerun")
    g = helpers.wire(board.model_for, InMemorySaver())
    waiting = await _two_waiting(g)
    reject = {"decisions": helpers.approvals(waiting["g1"].value, "reject")}
    reruns = len(board.calls_for_task("a1"))

    await g.ainvoke(Command(resume={waiting["g1"].id: reject}), helpers.config())

    after = _pending(await g.aget_state(helpers.config()))
    assert set(after) == {"g2"} and after["g2"].id == waiting["g2"].id
    assert len(board.calls_for_task("a1")) == reruns  # the step has not run again yet
    approve = {"decisions": helpers.approvals(after["g2"].value)}
    await g.ainvoke(Command(resume={after["g2"].id: approve}), helpers.config())
    revised = await g.aget_state(helpers.config())
    assert set(_pending(revised)) == {"g1"}
    assert helpers.request_of(revised, "g1")["round"] == 2
    assert len(board.calls_for_task("a1")) == reruns + 1
    assert revised.next == (pipeline.gate_node("g1"),)


async def test_a_lone_gate_resumed_without_ids_reads_each_value_afresh(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    saver: BaseCheckpointSaver[Any],
) -> None:
    # A plain `Command(resume=value)` (one gate waits): after refused values, the next plain
    # value answers the interrupt the gate asks again; the refused ones are not read again.
    _two_parallel_gates(monkeypatch, "skip", tracks=1)
    g = helpers.wire(board.model_for, saver)
    await g.ainvoke(helpers.start(), helpers.config())
    request = helpers.request_of(await g.aget_state(helpers.config()), "g1")
    for bad in ("approve all", {"decisions": [{"record": "zz", "action": "approve"}]}):
        await g.ainvoke(Command(resume=bad), helpers.config())
        again = _pending(await g.aget_state(helpers.config()))
        assert set(again) == {"g1"} and again["g1"].value["problems"]

    first = request["records"][0]
    approve = {"decisions": [{"record": first["id"], "action": "approve"}]}
    await g.ainvoke(Command(resume=approve), helpers.config())

    done = await g.aget_state(helpers.config())
    assert done.next == () and done.values.get("result") is not None
    (call,) = board.calls_for_task("c")
    assert helpers.approved_records(call, "g1") == [first["fields"]]
