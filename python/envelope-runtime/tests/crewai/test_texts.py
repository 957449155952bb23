"""Texts reach the model verbatim, with only {{NAME}} substituted (texts.py)."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import common_helpers
import helpers
import pytest
from common_helpers import TRICKY_ENV_VALUE as ENV_VALUE
from common_helpers import tricky_inputs as _tricky_inputs
from common_helpers import tricky_names as _tricky_names
from crewai import Process, Task
from fake_llm import Call, FakeModels, final
from project import crew, main, models, placeholders, team, texts

from envelope_runtime.crewai import kickoff_inputs

# A stand-in for every agent's prompt: everything CrewAI or a template engine could touch.
TRICKY_PROMPT = (
    "Env: {{ENV_NAME}} | Input: {{INPUT_UPPER}} | {{input_name}}\n"
    "Keep {word}, {input}, {tools}, {tool_names}, {role}, {goal}, {backstory}.\n"
    'JSON: {"json": 1} and {{"double": 2}}\n'
    "Quotes: \"\"\"triple\"\"\" and '''single'''\n"
    "Backslashes: C:\\new\\table \\n \\\\ \\1\n"
    "Unicode: ünïcødé — 東京 🚀\n"
    "Unknown: {{NOT_DECLARED}} {{ spaced }} {{{ENV_NAME}}}\n"
    "\tTabbed\r\nCRLF end"
)


def _tricky_prompt() -> str:
    return common_helpers.tricky_prompt(TRICKY_PROMPT)


def _expected_tricky() -> str:
    return common_helpers.expected_tricky(TRICKY_PROMPT)


def _use_tricky_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every agent's backstory and goal become the tricky text, as if in agents.yaml."""
    env_name, _ = _tricky_names()
    if env_name is not None:
        monkeypatch.setenv(env_name, ENV_VALUE)
    render_agent = texts.render_agent

    def tricky(agent: Any, values: dict[str, str]) -> Any:
        agent.backstory = _tricky_prompt()
        agent.goal = f"Goal: {_tricky_prompt()}"
        return render_agent(agent, values)

    monkeypatch.setattr(texts, "render_agent", tricky)


def _definition_prompts() -> dict[str, str]:
    return {agent["key"]: agent.get("prompt", "") for agent in helpers.definition()["agents"]}


def _run_reaching_every_agent(
    board: FakeModels, monkeypatch: pytest.MonkeyPatch, inputs: dict[str, Any]
) -> int:
    """A run in which every agent gets a task; agents outside the pipeline get one each."""
    if team.MODE == "hierarchy":
        helpers.drive_everyone(board, "Do your part of the task.")
        return main.main(helpers.run_argv(inputs))
    helpers.approve_everything(monkeypatch)
    code = main.main(helpers.run_argv(inputs, interactive=True))
    from envelope_runtime.crewai.gate_revision import agent_crew  # a manager's crew at a gate

    stepless = set(team.AGENTS) - {step.agent_key for step in team.PIPELINE.values()}
    for agent_key in sorted(stepless):
        crews = crew.TeamCrew(inputs)
        agent_crew(crews, agent_key, "probe", "Say hello.", "A greeting.", None).kickoff()
    return code


def _system_prompt_of(call: Call) -> str:
    return call.content("system")


def test_agents_yaml_holds_the_definition_prompts_byte_for_byte(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    config = helpers.agents_config()
    for agent_key, prompt in _definition_prompts().items():
        assert config[team.AGENTS[agent_key].method]["backstory"] == prompt, agent_key


def test_every_agent_receives_its_prompt_with_values_filled_in(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    inputs = helpers.valid_inputs()

    assert _run_reaching_every_agent(fake_models, monkeypatch, inputs) == 0, capsys.readouterr()

    # The documented rules, written out: secrets and variables, then inputs by exact key,
    # then by upper-case name (the first declared input of that name).
    as_text = {k: v if isinstance(v, str) else json.dumps(v) for k, v in inputs.items()}
    values = dict(as_text)
    for name, text in as_text.items():
        values.setdefault(placeholders.reference_name(name), text)
    values.update({n: team_env[n] for n in [*team.SECRETS, *team.VARIABLES] if n in team_env})
    config = helpers.agents_config()
    goals = {key: config[spec.method]["goal"] for key, spec in team.AGENTS.items()}
    for agent_key, prompt in _definition_prompts().items():
        expected = re.sub(
            r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}", lambda m: values.get(m[1], m[0]), prompt
        )
        calls = fake_models.calls_of(agent_key)
        assert calls, f"{agent_key} was never called"
        role = fake_models.roles[agent_key]
        system = _system_prompt_of(calls[0]) + "\n"
        assert system.startswith(
            f"You are {role}. {expected}\nYour personal goal is: {goals[agent_key]}\n"
        ), agent_key


def test_a_tricky_prompt_reaches_every_agent_exactly(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _use_tricky_values(monkeypatch)
    inputs = _tricky_inputs()

    assert _run_reaching_every_agent(fake_models, monkeypatch, inputs) == 0, capsys.readouterr()

    expected = _expected_tricky()
    for agent_key, role in fake_models.roles.items():
        system = _system_prompt_of(fake_models.calls_of(agent_key)[0])
        assert system.startswith(
            f"You are {role}. {expected}\nYour personal goal is: Goal: {expected}"
        ), agent_key


def test_run_inputs_reach_the_first_agent_as_dumped_json(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
) -> None:
    inputs = _tricky_inputs()

    main.main(helpers.run_argv(inputs))

    dumped = json.dumps(inputs, indent=2, ensure_ascii=False)
    first = fake_models.calls[0]
    assert f"Run inputs (JSON):\n{dumped}" in first.content("user")


def test_prompt_is_verbatim_on_the_native_tool_calling_path(
    team_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Real providers support function calling, which CrewAI runs on another code path.
    board = FakeModels(helpers.roles(), native=True, list_length=helpers.list_length())
    monkeypatch.setattr(models, "llm_for", board.llm_for)
    _use_tricky_values(monkeypatch)
    inputs = _tricky_inputs()

    code = main.main(helpers.run_argv(inputs))

    assert code in (0, 3), capsys.readouterr().err  # 3: waiting at a gate
    first = board.calls[0]
    assert first.content("system").startswith(f"You are {first.role}. {_expected_tricky()}\n")
    dumped = json.dumps(inputs, indent=2, ensure_ascii=False)
    assert f"Run inputs (JSON):\n{dumped}" in first.content("user")


def test_text_that_comes_back_from_a_model_stays_data(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # An answer quoting everything CrewAI rewrites reaches the next model call unchanged.
    quoted = "Quoting {input} {tools} {tool_names} {role} {goal} {backstory} {{SECRET}}"
    generic = fake_models.generic_reply

    def quoting(call: Call) -> str:
        return generic(call) if call.schema is not None else final(f"{call.role}: {quoted}")

    monkeypatch.setattr(fake_models, "generic_reply", quoting)
    if len(team.AGENTS) == 1:
        # No other agent to answer to: the answer is a thought before a tool call, which
        # reaches the agent's next call (its tool's answer comes back as an error).
        (only,) = team.AGENTS
        fake_models.script(
            only,
            lambda call: (
                f"Thought: {call.role}: {quoted}\nAction: no_such_tool\nAction Input: {{}}"
            ),
        )
    inputs = helpers.valid_inputs()

    assert _run_reaching_every_agent(fake_models, monkeypatch, inputs) == 0, capsys.readouterr()

    later = [call.text() for call in fake_models.calls[1:]]
    assert any(f": {quoted}" in text for text in later), "no answer reached another call"


def test_crewai_inputs_leave_every_text_as_it_is(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    inputs = helpers.valid_inputs()
    crews = crew.TeamCrew(inputs)
    agent_key = next(iter(team.AGENTS))
    agent = crews._agent(agent_key)
    agent.backstory = "Keep {topic}, {input} and {{HOST}} as written."
    probe = Task(
        name="probe", description="Say {topic}.", expected_output="A {format}.", agent=agent
    )
    team_crew = crews._crew(agents=[agent], tasks=[probe], process=Process.sequential)

    given = kickoff_inputs.crewai_inputs(team_crew, {"topic": "not this", "other": 1})
    team_crew._interpolate_inputs(given)

    assert team_crew.agents[0].backstory == "Keep {topic}, {input} and {{HOST}} as written."
    assert team_crew.tasks[0].description == "Say {topic}."
    assert team_crew.tasks[0].expected_output == "A {format}."
    assert given["other"] == 1 and given["topic"] == "{topic}"


def test_two_runs_in_one_process_never_see_each_others_values(
    team_env: dict[str, str], fake_models: FakeModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    render_agent = texts.render_agent

    def personal(agent: Any, values: dict[str, str]) -> Any:
        agent.backstory = "for {{WHO}}"
        return render_agent(agent, values)

    monkeypatch.setattr(texts, "render_agent", personal)
    key = next(iter(team.AGENTS))
    both_built = threading.Barrier(2)
    seen: dict[str, str] = {}

    def run(who: str) -> None:
        crews = crew.TeamCrew()
        crews.values = {**crews.values, "WHO": who}
        both_built.wait(timeout=5)
        seen[who] = crews._agent(key).backstory

    threads = [threading.Thread(target=run, args=(who,)) for who in ("ana", "bo")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=5)

    assert seen == {"ana": "for ana", "bo": "for bo"}
