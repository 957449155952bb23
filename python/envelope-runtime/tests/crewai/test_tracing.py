"""The trace of a run (envelope_runtime.crewai.tracing, `--trace`): every model answer is one
turn of the agent that asked for it, in a conversation with the run or its manager, and every
reviewer decision a user turn."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import fake_llm
import helpers
import pytest
from crewai.events.types.llm_events import LLMCallType
from fake_llm import FakeModels
from project import crew_base, main, runtime, team

EXPECTED_OK = runtime.EXIT_OK


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The fakes emit CrewAI's LLM call events as its own clients do; (speaker, answer) of
    every call: a '<role> Requests' worker speaks as `<key>:requests`."""
    made: list[tuple[str, str]] = []
    original = fake_llm.FakeLLM.call

    def call(self: Any, messages: Any, *args: Any, **kwargs: Any) -> str:
        from_task = kwargs.get("from_task", args[3] if len(args) > 3 else None)
        from_agent = kwargs.get("from_agent", args[4] if len(args) > 4 else None)
        self._emit_call_started_event(messages=messages, from_task=from_task, from_agent=from_agent)
        answer = original(self, messages, *args, **kwargs)
        self._emit_call_completed_event(
            response=answer,
            call_type=LLMCallType.LLM_CALL,
            from_task=from_task,
            from_agent=from_agent,
            messages=messages,
        )
        role = str(getattr(from_agent, "role", "") or "")
        speaker = f"{self.agent_key}:requests" if role.endswith(" Requests") else self.agent_key
        made.append((speaker, answer))
        return answer

    monkeypatch.setattr(fake_llm.FakeLLM, "call", call)
    return made


def test_every_model_answer_is_a_turn_of_its_agent_with_whoever_asked(
    tmp_path: Path,
    team_env: dict[str, str],
    fake_models: FakeModels,
    answers: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    path = tmp_path / "trace.jsonl"

    code = main.main([*helpers.run_argv(interactive=True), "--trace", str(path)])

    assert code == EXPECTED_OK, capsys.readouterr().err
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    opened = {e["conversationId"]: e for e in events if "initialTurn" in e}
    turns = [e for e in events if "turn" in e]
    assert answers, "no model was called"
    assert Counter((t["turn"]["speakerId"], t["turn"]["content"]) for t in turns) == Counter(
        answers
    )
    for event in turns:
        turn = event["turn"]
        asker = opened[event["conversationId"]]["initialTurn"]["from"]
        assert turn["to"] == asker and turn["from"] == turn["speakerId"]
        key = turn["from"].removesuffix(":requests")
        allowed = {"user", team.AGENTS[key].reports_to, key} - {None}
        assert asker in allowed, (turn["from"], asker)
    decisions = [e for e in events if "finalTurn" in e and e["finalTurn"]["role"] == "user"]
    if team.GATES:
        assert decisions and all(e["finalTurn"]["content"]["action"] for e in decisions)
    else:
        assert decisions == []


def test_the_trace_file_comes_from_the_environment(
    tmp_path: Path,
    team_env: dict[str, str],
    fake_models: FakeModels,
    answers: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    helpers.approve_everything(monkeypatch)
    path = tmp_path / "from-env.jsonl"
    monkeypatch.setenv("ENVELOPE_TRACE_FILE", str(path))

    assert main.main(helpers.run_argv(interactive=True)) == EXPECTED_OK
    assert len(
        [line for line in path.read_text(encoding="utf-8").splitlines() if '"turn"' in line]
    ) == len(answers)


def test_an_llm_from_agents_yaml_is_the_model_the_trace_names(
    tmp_path: Path,
    team_env: dict[str, str],
    fake_models: FakeModels,
    answers: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    helpers.approve_everything(monkeypatch)
    path = tmp_path / "trace.jsonl"
    # every agent's `llm:` an @llm method's name (the developer's model: no provider key)
    named = dict.fromkeys(team.AGENTS, "team_llm")
    monkeypatch.setattr(crew_base, "configured_llms", lambda package: named)

    assert main.main([*helpers.run_argv(interactive=True), "--trace", str(path)]) == EXPECTED_OK
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    models = {json.dumps(e["turn"]["agent"]["model"]) for e in events if "turn" in e}
    # Not the definition's model: the one the agent was given (fake_llm: fake/<agent key>).
    assert models and all(json.loads(m)["provider"] == "fake" for m in models)
