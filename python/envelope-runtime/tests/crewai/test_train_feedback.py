"""`train`: the time a human takes to give CrewAI's training feedback does not count against
timeout.runMs; the model's time, before and after the answer, does. A plain one-agent crew on
the fake model, a fake clock (each model call takes a second of it, the human a minute).
"""

from __future__ import annotations

import builtins
import io
from pathlib import Path

import pytest
from crewai import Agent, Crew, Task
from crewai.events.event_listener import event_listener
from fake_llm import Call, FakeModels

from envelope_runtime.crewai import crew_commands
from envelope_runtime.crewai.deadline import Deadline, run_with_deadline


def test_training_feedback_is_not_counted_against_the_deadline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # CrewAI's training_data.pkl
    now = [0.0]
    board = FakeModels({"writer": "Writer"})
    answer = board.answer

    def a_second(call: Call) -> str:
        now[0] += 1
        return answer(call)

    def human(*_: object) -> str:
        now[0] += 60  # past the whole budget
        return "Shorter, please."

    monkeypatch.setattr(board, "answer", a_second)
    # CrewAI's prompt panel: its console may still hold an earlier test's captured stdout.
    monkeypatch.setattr(event_listener.formatter.console, "file", io.StringIO())
    monkeypatch.setattr(builtins, "input", human)
    writer = Agent(role="Writer", goal="Write", backstory="A writer.", llm=board.llm_for("writer"))
    task = Task(description="Write a line.", expected_output="A line.", agent=writer)
    crew = Crew(agents=[writer], tasks=[task])
    deadline = Deadline(30_000, clock=lambda: now[0])
    trained = tmp_path / "trained.pkl"

    run_with_deadline(lambda: crew_commands._train(crew, 1, str(trained), {}), deadline)

    feedback = [c for c in board.calls if "Shorter, please." in c.text()]
    assert feedback, "the agent was not given the feedback"
    assert deadline.used_ms() == 1000 * len(board.calls)  # the model's seconds, not the human's
    assert trained.stat().st_size > 5
