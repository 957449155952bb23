"""The trace of a run (tracing.py): every model call of the run is one turn of its agent,
inside a conversation with whoever asked it, and every reviewer decision a user turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import helpers
import pytest
from fakes import FakeBoard
from project import team, tracing

pytestmark = pytest.mark.anyio


async def test_every_model_answer_is_a_turn_of_its_agent_with_whoever_asked(
    tmp_path: Path, team_env: dict[str, str], board: FakeBoard
) -> None:
    compiled = helpers.build(board)
    path = tmp_path / "trace.jsonl"
    handler = tracing.handler(path, "thread-1")
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
    assert tracing.handler(None, "thread-1") is None
