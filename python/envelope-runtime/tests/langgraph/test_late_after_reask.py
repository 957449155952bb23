"""A gate waiting beside another asks again in the same task after a refused value, and
LangGraph replays that value first on every later resume of the task. Past the deadline,
the gate's message names decisions given late only when this resume gave some: a sweep
after a refused value says nothing of them. Synthetic pipeline (test_parallel_gates' two
parallel gated steps), for every team with gates."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import helpers
import pytest
from fakes import FakeBoard
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from project import gates, pipeline, runtime, team

pytestmark = pytest.mark.anyio

if gates is None or not team.GATES:
    pytest.skip("the team has no gates", allow_module_level=True)

import test_parallel_gates as parallel  # noqa: E402 - its synthetic pipelines

BAD = {"decisions": [{"record": "zz", "action": "approve"}]}
LATE = "decisions given after the gate's deadline"


@pytest.mark.parametrize("given", [True, False], ids=["decisions", "sweep"])
async def test_a_late_resume_after_a_refused_value_is_judged_by_its_own_value(
    given: bool, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    parallel._two_parallel_gates(monkeypatch, "skip")
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour="proceed")
        monkeypatch.setitem(team.GATES, name, timed)
    g = helpers.wire(board.model_for, InMemorySaver())
    waiting = await parallel._two_waiting(g)
    await g.ainvoke(Command(resume={waiting["g1"].id: BAD}), helpers.config())
    waiting = parallel._pending(await g.aget_state(helpers.config()))
    assert waiting["g1"].value["problems"] == ["gate g1: unknown record 'zz'"]
    later = runtime.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)

    # As a sweep resumes: one value per interrupt, decisions only where given.
    given_g1 = helpers.approvals(waiting["g1"].value) if given else []
    values = {i.id: {"decisions": given_g1 if n == "g1" else []} for n, i in waiting.items()}
    await g.ainvoke(Command(resume=values), helpers.config())

    state = (await g.aget_state(helpers.config())).values["gates"]
    for name in ("g1", "g2"):
        gate = gates.GateState.model_validate(state[name])
        assert gate.status == "released" and gate.message is not None
        assert gate.message.startswith(f"gate {name}: no decision within 1h (proceed: ")
        assert (LATE in gate.message) is (given and name == "g1"), gate.message


@pytest.mark.parametrize("value", ["valid", "refused"])
async def test_a_late_value_for_the_strict_ask_applies_the_timeout(
    value: str, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Past REASKS refused values a gate's value is checked as LangGraph reads it (its
    # response_schema, pipeline.STRICT); past the deadline the timeout still applies: a value
    # that would apply is named late, one that would be refused fails nothing.
    parallel._two_parallel_gates(monkeypatch, "skip")
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour="proceed")
        monkeypatch.setitem(team.GATES, name, timed)
    g = helpers.wire(board.model_for, InMemorySaver())
    waiting = await parallel._two_waiting(g)
    for _ in range(pipeline.REASKS):
        await g.ainvoke(Command(resume={waiting["g1"].id: BAD}), helpers.config())
        waiting = parallel._pending(await g.aget_state(helpers.config()))
    later = runtime.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(runtime, "utc_now", lambda: later)

    given = {"decisions": helpers.approvals(waiting["g1"].value)} if value == "valid" else BAD
    values = {i.id: given if n == "g1" else {"decisions": []} for n, i in waiting.items()}
    await g.ainvoke(Command(resume=values), helpers.config())

    gate = gates.GateState.model_validate(
        (await g.aget_state(helpers.config())).values["gates"]["g1"]
    )
    assert gate.status == "released" and gate.message is not None
    assert gate.message.startswith("gate g1: no decision within 1h (proceed: ")
    assert (LATE in gate.message) is (value == "valid"), gate.message
