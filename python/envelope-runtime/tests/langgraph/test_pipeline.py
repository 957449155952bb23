"""The pipeline as a StateGraph: the wiring, what each step receives, parallel branches in
one super-step, joins, node timeouts and what the state keeps.

Skipped for teams without a pipeline.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import threading
from typing import Any

import fakes
import helpers
import pytest
from fakes import Call, FakeBoard
from langchain_core.messages import AIMessage
from project import TEAM, llms, main, models, pipeline, redaction, runtime, state, team

pytestmark = pytest.mark.anyio

if team.MODE != "pipeline":
    pytest.skip("the team has no pipeline", allow_module_level=True)


def test_graph_py_wires_the_contract() -> None:
    generated = helpers.build(FakeBoard())
    expected = helpers.wire(FakeBoard().model_for, escalation=False)

    assert helpers.topology(generated) == helpers.topology(expected)
    assert helpers.joins(generated) == helpers.joins(expected)
    for key in team.PIPELINE:
        waits = helpers.waits_for(key)
        if len(waits) > 1:  # one list edge: LangGraph waits for all of them
            assert (tuple(sorted(waits)), pipeline.step_node(key)) in helpers.joins(generated), key


def test_node_timeouts_leave_room_for_every_attempt_of_a_model_call() -> None:
    generated = helpers.build(FakeBoard())
    for key, step in team.PIPELINE.items():
        node = generated.builder.nodes[pipeline.step_node(key)]
        assert node.timeout is not None, key
        timeout_s = models.MODELS[step.agent_key].timeout_s
        # Each request is bounded by the agent's timeout (llms.model_kwargs); the node by
        # MODEL_ATTEMPTS of them and the retries' waits (1 + 2 + 4 s, +25 %).
        assert node.timeout.run_timeout == llms.MODEL_ATTEMPTS * timeout_s + 8.75, key


async def test_a_model_request_that_timed_out_is_sent_again_within_the_step(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The README: a timed out request is sent again. The client's per-request timeout is
    # the agent's timeout, so the first request of the first step takes all of it and
    # fails as a client's timeout does; the node must still be there for the second.
    import httpx

    monkeypatch.setattr(llms, "RETRY_DELAY_S", 0.0)
    helpers.approve_everything(monkeypatch)
    first = next(iter(team.PIPELINE))
    agent_key = team.PIPELINE[first].agent_key
    spec = dataclasses.replace(models.MODELS[agent_key], timeout_s=30)
    monkeypatch.setitem(models.MODELS, agent_key, spec)
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 3_600_000)  # the run's own limit: far later
    task = first

    def timed_out(call: Call) -> Any:
        raise httpx.ReadTimeout("timed out")

    board.script_task(task, timed_out)
    board.hold = threading.Event()
    board.hold.set()  # no call waits: `arrived` only marks the first
    # The first request's whole timeout passes while it is under way (the loop's clock
    # moves on), however long the machine takes for the rest.
    with helpers.clock_ahead_on_arrival(board, spec.timeout_s):
        code = await main.amain(helpers.run_argv(interactive=True))

    assert code == runtime.EXIT_OK, capsys.readouterr().err
    assert len(board.calls_for_task(task)) >= 2


async def _run_with_tasks(board: FakeBoard) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """A whole run (every record approved); the final state and each node's super-steps."""
    g = helpers.build(board)
    steps: dict[str, list[int]] = {}
    payload: Any = helpers.start()
    for _ in range(len(team.GATES) * 4 + 1):
        async for event in g.astream(payload, helpers.config(), stream_mode="debug"):
            if event["type"] == "task":
                steps.setdefault(event["payload"]["name"], []).append(event["step"])
        snapshot = await g.aget_state(helpers.config())
        if not snapshot.interrupts:
            return snapshot.values, steps
        payload = helpers.approve_all(snapshot.interrupts)
    raise AssertionError("the run kept waiting for review")


async def test_each_step_receives_exactly_what_it_waits_for(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    values, _ = await _run_with_tasks(board)

    dumped = json.dumps(values["inputs"], indent=2, ensure_ascii=False)
    for key, step in team.PIPELINE.items():
        calls = board.calls_for_task(key)
        assert calls, f"step {key} did not run"
        assert {call.agent_key for call in calls} == {step.agent_key}, key
        task = calls[0].human
        assert f"{task}\n\n".startswith(f"{step.label}\n\nRun inputs (JSON):\n{dumped}\n\n"), key
        # A reviewed dependency reaches the step only as records some gate released.
        reviewed = {spec.after_step for spec in team.GATES.values()} & set(step.depends_on)
        plain = [dep for dep in step.depends_on if dep not in reviewed]
        for dep in plain:
            label = team.PIPELINE[dep].label
            assert f"Output of step {dep} ({label}):\n{values['answers'][dep]}" in task, key
        assert task.count("Output of step ") == len(plain), key
        given = [name for name in team.GATES if f" approved at gate {name} (JSON):" in task]
        assert task.count(" approved at gate ") == len(given), key
        assert set(pipeline.gates_into(TEAM, key)) <= set(given), key
        assert reviewed <= {team.GATES[name].after_step for name in given}, key
        for name in given:
            spec = team.GATES[name]
            assert spec.triggers_step == key or spec.after_step in reviewed, (key, name)
            assert helpers.approved_records(calls[0], name) == values["approved"][name]


def _siblings() -> list[tuple[str, str]]:
    """Step pairs that wait for exactly the same nodes: they run in one super-step."""
    return [
        (a, b)
        for a, b in itertools.combinations(team.PIPELINE, 2)
        if set(helpers.waits_for(a)) == set(helpers.waits_for(b))
    ]


@pytest.mark.parametrize("pair", _siblings() or [None])
async def test_parallel_branches_run_in_one_super_step(
    pair: tuple[str, str] | None,
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if pair is None:
        pytest.skip("no two steps of this pipeline wait for the same steps")

    _, steps = await _run_with_tasks(board)

    first, second = (steps[pipeline.step_node(key)] for key in pair)
    assert first == second, pair
    # ...and their model calls run at once: each waits until the other's has started too
    # (run one after the other, the first would wait in vain).
    started: set[str] = set()
    both_running = asyncio.Event()
    waited_in_vain: list[str] = []

    async def meet(call: Call) -> AIMessage:
        started.add(str(call.task))
        if started >= set(pair):
            both_running.set()
        try:
            await asyncio.wait_for(both_running.wait(), timeout=30)  # only stops a broken run
        except TimeoutError:
            waited_in_vain.append(str(call.task))
        return board.generic_reply(call)

    for key in pair:
        board.script_task(key, meet)
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 3_600_000)  # no deadline ends a wait in vain
    await _run_with_tasks(board)

    assert started >= set(pair) and waited_in_vain == [], pair


async def test_a_step_runs_once_after_everything_it_waits_for(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    _, steps = await _run_with_tasks(board)

    for key in team.PIPELINE:
        (mine,) = steps[pipeline.step_node(key)]
        for waited in helpers.waits_for(key):
            assert max(steps[waited]) < mine, (key, waited)
        assert len(board.calls_for_task(key)) == 1, key
    (last,) = steps["finalize"]
    assert all(max(ran) <= last for ran in steps.values())


async def test_the_final_step_answer_is_the_team_result(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    values, _ = await _run_with_tasks(board)

    final = board.calls_for_task(str(team.FINAL_STEP))[-1]
    assert final.structured_tool() == state.TeamResult.__name__
    expected = state.TeamResult.model_validate_json(values["answers"][team.FINAL_STEP])
    assert values["result"] == expected.model_dump(mode="json", by_alias=True)
    state.TeamResult.model_validate(values["result"])


async def test_a_slow_step_hits_its_node_timeout_with_a_clear_message(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = next(iter(team.PIPELINE))
    agent_key = team.PIPELINE[first].agent_key
    spec = dataclasses.replace(models.MODELS[agent_key], timeout_s=2.5)
    monkeypatch.setitem(models.MODELS, agent_key, spec)
    monkeypatch.setattr(llms, "RETRY_DELAY_S", 0.0)  # the node's limit: 4 × 2.5 s
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 3_600_000)  # the run's own: far later
    release = threading.Event()
    board.hold = release  # the step's model call lasts until the test says
    # The node's limit passes once its call is under way (the loop's clock moves on).
    with helpers.clock_ahead_on_arrival(board, llms.node_timeout(spec.timeout_s)):
        code = await main.amain(helpers.run_argv())
    held = list(board.calls)
    under_way = [call.ended == 0.0 for call in held]
    release.set()

    # The run failed on the node's timeout without waiting for the call: cancelled.
    assert code == runtime.EXIT_FAILED
    assert board.calls_for_task(first) and all(under_way), "the node timeout cancelled no call"
    err = capsys.readouterr().err
    node = pipeline.step_node(first)
    assert f"Run failed: Node '{node}' exceeded its run timeout of 10.000s" in err
    assert "A step is bounded by 4 times its agent's timeout" in err


async def test_answers_are_stored_without_secret_values(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    if not team.SECRETS:
        pytest.skip("the team has no secrets")
    secret = team_env[team.SECRETS[0]]
    first = next(iter(team.PIPELINE))

    def leak(call: Call) -> Any:
        # The first step's answer quotes the secret, in a string field when structured.
        reply = board.generic_reply(call)
        if not reply.tool_calls:
            return f"note {secret}"
        dumped = json.dumps(reply.tool_calls[0]["args"]).replace('"sample ', f'"{secret} ', 1)
        return fakes.tool_call(reply.tool_calls[0]["name"], **json.loads(dumped))

    board.script_task(first, leak)

    values, _ = await _run_with_tasks(board)

    text = json.dumps(values)
    assert secret not in text
    assert redaction.REDACTED in values["answers"][first]


async def test_each_steps_conversation_is_checkpointed_under_its_node(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    conversations = await helpers.checkpointed_conversations(board)

    for key in team.PIPELINE:
        calls = board.calls_for_task(key)
        assert calls, f"step {key} was never run"
        stored = conversations.get((pipeline.step_node(key),), [])
        assert calls[0].human in stored, key


def test_each_step_is_drawn_with_its_agent_graph(board: FakeBoard) -> None:
    drawn = helpers.build(board, None).get_graph(xray=True).draw_mermaid()

    for key, step in team.PIPELINE.items():
        node = pipeline.step_node(key)
        agent = team.AGENTS[step.agent_key].name
        assert f"subgraph {node}" in drawn, key
        assert f"{node}\\3amodel" in drawn, (key, agent)
