"""Conversation traces (trace.py): the events' shape and order, and redaction of every text.

The schema itself is checked on the TypeScript side (test/helpers/conversation-events.ts)
against the traces of real runs; these pin down what the writer promises."""

from __future__ import annotations

import json
from pathlib import Path

from common_project import trace

SECRET = "sk-live-0123456789"


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_delegation_is_opened_exchanged_and_closed_in_order(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    writer = trace.TraceWriter(path, "run-1", [SECRET])

    conversation = writer.open("lead", "writer", "Draft it.", {"lead": "Lead", "writer": "W"})
    writer.exchange(conversation, "writer", "lead", "draft one", ("openai", "gpt-4o"))
    writer.close(conversation, "writer", "lead", {"text": "the draft"})

    opened, exchanged, closed = _events(path)
    assert opened["conversationId"] == conversation and conversation.startswith("run-1:")
    assert opened["participants"] == [
        {"agentId": "lead", "name": "Lead"},
        {"agentId": "writer", "name": "W"},
    ]
    assert opened["initialTurn"]["role"] == "agent" and opened["initialTurn"]["speakerId"] == "lead"
    assert [opened["initialTurn"]["turnIndex"], exchanged["turnIndex"], closed["turnIndex"]] == [
        0,
        1,
        2,
    ]
    turn = exchanged["turn"]
    assert (turn["from"], turn["to"], turn["speakerId"], turn["content"]) == (
        "writer",
        "lead",
        "writer",
        "draft one",
    )
    assert turn["agent"] == {
        "agentId": "writer",
        "model": {"provider": "openai", "model": "gpt-4o"},
    }
    assert turn["messageId"] == f"{conversation}:1"
    assert closed["finalTurn"]["content"] == {"text": "the draft"} == closed["outcome"]


def test_the_run_asks_as_user_without_speaker_and_every_text_is_redacted(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    writer = trace.TraceWriter(path, None, [SECRET])

    conversation = writer.open(trace.USER, "writer", f"use {SECRET}", {"writer": f"W {SECRET}"})
    writer.exchange(conversation, "writer", trace.USER, {"args": [f"key={SECRET}"]})
    writer.close(conversation, "writer", trace.USER, f"done with {SECRET}")

    text = path.read_text(encoding="utf-8")
    assert SECRET not in text
    opened, exchanged, _ = _events(path)
    assert opened["participants"] == [{"agentId": "writer", "name": "W [redacted]"}]
    assert opened["initialTurn"]["role"] == "user" and "speakerId" not in opened["initialTurn"]
    assert exchanged["turn"]["content"] == {"args": ["key=[redacted]"]}


def test_a_resume_appends_new_conversations_and_keys_become_agent_ids(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    first = trace.TraceWriter(path, "run-1").open(trace.USER, "a b/c", "task")
    second = trace.TraceWriter(path, "run-1").open(trace.USER, "a b/c", "task")

    events = _events(path)
    assert first != second and len(events) == 2
    assert events[0]["agentId"] == "a_b_c" == events[0]["participants"][0]["agentId"]
    assert trace.agent_id("x" * 200) == "x" * 128


def test_a_gate_decision_is_a_conversation_of_user_turns(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    trace.TraceWriter(path, "run-1", [SECRET]).decision(
        "editor", "approval", "r1", "approve", f"fine, {SECRET}"
    )

    opened, closed = _events(path)
    assert opened["initialTurn"]["role"] == closed["finalTurn"]["role"] == "user"
    assert closed["finalTurn"]["content"] == {
        "gate": "approval",
        "record": "r1",
        "action": "approve",
        "feedback": "fine, [redacted]",
    }


def test_the_file_comes_from_the_environment_when_not_given() -> None:
    assert trace.default_path({trace.ENV: "t.jsonl"}) == "t.jsonl"
    assert trace.default_path({trace.ENV: ""}) is None
    assert trace.default_path({}) is None


def test_one_event_is_one_line_whatever_its_text_holds(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    writer = trace.TraceWriter(path, "run-1")
    breaks = "a\u2028b\u2029c\x85d\x1ce\x1df\x1eg\x0bh\x0ci\rj\nk"
    conversation = writer.open(trace.USER, "agent", breaks)
    writer.close(conversation, "agent", trace.USER, breaks)
    lines = path.read_text(encoding="utf-8").splitlines()  # splits at every one of them
    events = [json.loads(line) for line in lines]
    assert len(events) == 2
    assert events[0]["initialTurn"]["content"] == breaks


def test_a_deferred_writer_writes_at_flush_without_the_values_stored_by_then(
    tmp_path: Path,
) -> None:
    # Issue 34: an agent's answer asking to write a pii value comes before the store holds
    # it; deferred, the writer leaves out what the store holds when the run stops.
    path = tmp_path / "trace.jsonl"
    stored: list[str] = []
    writer = trace.TraceWriter(path, "run-1", [SECRET], lambda: list(stored), deferred=True)
    conversation = writer.open(trace.USER, "screener", "Screen the sign-ups.")
    writer.exchange(conversation, "screener", trace.USER, {"rows": [{"email": "ada@example.org"}]})
    assert not path.exists() or path.read_text(encoding="utf-8") == ""
    stored.append("ada@example.org")  # the tool wrote it
    writer.close(conversation, "screener", trace.USER, "done")
    writer.flush()
    text = path.read_text(encoding="utf-8")
    assert "ada@example.org" not in text
    assert "[redacted]" in text
    assert len(_events(path)) == 3
    writer.flush()  # nothing kept: nothing written twice
    assert len(_events(path)) == 3
