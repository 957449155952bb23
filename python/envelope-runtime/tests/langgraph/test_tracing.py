"""The trace of a run (tracing.py): every model call of the run is one turn of its agent,
inside a conversation with whoever asked it, and every reviewer decision a user turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import helpers
import pytest
from fakes import FakeBoard
from project import TEAM, team, tracing

pytestmark = pytest.mark.anyio


async def test_every_model_answer_is_a_turn_of_its_agent_with_whoever_asked(
    tmp_path: Path, team_env: dict[str, str], board: FakeBoard
) -> None:
    compiled = helpers.build(board)
    path = tmp_path / "trace.jsonl"
    handler = tracing.handler(TEAM, path, "thread-1")
    assert handler is not None
    config: Any = {**helpers.config("thread-1"), "callbacks": [handler]}
    payload: Any = helpers.start()
    decided = 0
    for _ in range(len(team.GATES) * 4 + 1):
        await compiled.ainvoke(payload, config)
        snapshot = await compiled.aget_state(helpers.config("thread-1"))
        if not snapshot.interrupts:
            break
        decided += sum(len(i.value["records"]) for i in snapshot.interrupts)
        payload = helpers.approve_all(snapshot.interrupts)

    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    opened = {e["conversationId"]: e for e in events if "initialTurn" in e}
    answers = [e for e in events if "turn" in e]
    # One turn per model call, in the order the calls were made, by the calling agent.
    assert [a["turn"]["speakerId"] for a in answers] == [call.agent_key for call in board.calls]
    for answer, call in zip(answers, board.calls, strict=True):
        turn = answer["turn"]
        assert turn["role"] == "agent" and turn["from"] == call.agent_key
        assert turn["agent"]["agentId"] == call.agent_key
        assert call.reply is not None
        if not call.reply.tool_calls:
            assert turn["content"] == call.reply.content
        # Said to whoever opened the conversation: the run, or the asking manager.
        asker = opened[answer["conversationId"]]["initialTurn"]["from"]
        assert turn["to"] == asker
        manager = team.AGENTS[call.agent_key].reports_to
        assert asker in (trace_user(), manager)
    # Each conversation closes once, after its turns.
    closed = [e for e in events if "finalTurn" in e]
    assert sorted(e["conversationId"] for e in closed) == sorted(opened)
    decisions = [e for e in closed if e["finalTurn"]["role"] == "user"]
    assert len(decisions) == decided
    assert all(e["finalTurn"]["content"]["action"] == "approve" for e in decisions)
    # No secret value the models saw is in the trace.
    text = path.read_text(encoding="utf-8")
    seen = " ".join(str(m.content) for call in board.calls for m in call.messages)
    for name in team.SECRETS:
        value = team_env[name]
        if len(value) >= 8 and value in seen:
            assert value not in text, name


def trace_user() -> str:
    return tracing.trace.USER


def test_no_file_no_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tracing.trace.ENV, raising=False)
    assert tracing.handler(TEAM, None, "thread-1") is None


def test_lines_are_written_when_the_nodes_of_a_super_step_have_ended(tmp_path: Path) -> None:
    # A process that dies mid-run loses at most the lines of the nodes that were running:
    # each super-step's lines are written when its last node ends, not only at the run's end.
    from uuid import uuid4

    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.outputs import ChatGeneration, LLMResult

    path = tmp_path / "trace.jsonl"
    handler = tracing.handler(TEAM, path, "thread-1")
    assert handler is not None
    name = next(iter(team.AGENTS.values())).name

    def lines() -> int:
        return len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0

    root = uuid4()
    handler.on_chain_start(None, {}, run_id=root, parent_run_id=None, name="LangGraph")

    def node_with_a_conversation() -> Any:
        node, agent, model = uuid4(), uuid4(), uuid4()
        handler.on_chain_start(None, {}, run_id=node, parent_run_id=root, name="step")
        handler.on_chain_start(
            None, {"messages": [HumanMessage("task")]}, run_id=agent, parent_run_id=node, name=name
        )
        handler.on_chat_model_start(None, [[]], run_id=model, parent_run_id=agent)
        answer = ChatGeneration(message=AIMessage("answer"))
        handler.on_llm_end(LLMResult(generations=[[answer]]), run_id=model)
        handler.on_chain_end({"messages": [AIMessage("answer")]}, run_id=agent)
        return node

    first = node_with_a_conversation()
    assert lines() == 0  # the node is still running
    handler.on_chain_end({}, run_id=first)
    written = lines()
    assert written == 3  # its conversation: opened, one turn, closed
    # Two nodes in one super-step: written when the second ends.
    a, b = node_with_a_conversation(), node_with_a_conversation()
    handler.on_chain_end({}, run_id=a)
    assert lines() == written
    handler.on_chain_error(RuntimeError("x"), run_id=b)
    assert lines() == written + 6
    handler.on_chain_end({}, run_id=root)
    assert lines() == written + 6


async def test_the_runner_writes_the_trace_however_the_run_stops(
    tmp_path: Path, team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Even when the graph's own end is never reported to the handler, the runner's
    # `finally` writes what was kept.
    from project import main

    monkeypatch.setattr(tracing.TraceHandler, "_stopped", lambda self, run_id: None)
    helpers.approve_everything(monkeypatch)
    path = tmp_path / "run-trace.jsonl"

    await main.amain([*helpers.run_argv(interactive=True), "--trace", str(path)])

    assert path.exists() and len(path.read_text(encoding="utf-8").splitlines()) >= 3
