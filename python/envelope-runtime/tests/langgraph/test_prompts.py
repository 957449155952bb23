"""Prompts reach the model verbatim, as each agent's system prompt, with only {{NAME}}
substituted; the run's inputs reach the agents as JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import common_helpers
import helpers
import pytest
from common_helpers import TRICKY_ENV_VALUE as ENV_VALUE
from common_helpers import tricky_inputs as _tricky_inputs
from common_helpers import tricky_names as _tricky_names
from fakes import FakeBoard
from project import TEAM, agents, nodes, placeholders, prompts, team

pytestmark = pytest.mark.anyio

# A stand-in for every agent's prompt: everything a template engine could touch.
TRICKY_PROMPT = (
    "  \n Env: {{ENV_NAME}} | Input: {{INPUT_UPPER}} | {{input_name}}\n"
    "Keep {word}, {input}, {tools}, {tool_names}, {messages}, {agent_scratchpad}.\n"
    'JSON: {"json": 1} and {{"double": 2}}\n'
    "Quotes: \"\"\"triple\"\"\" and '''single'''\n"
    "Backslashes: C:\\new\\table \\n \\\\ \\1\n"
    "Unicode: ünïcødé — 東京 🚀\n"
    "Unknown: {{NOT_DECLARED}} {{ spaced }} {{{ENV_NAME}}}\n"
    "\tTabbed\r\nCRLF end\n\n  "
)


def _tricky_prompt() -> str:
    return common_helpers.tricky_prompt(TRICKY_PROMPT)


def _expected_tricky() -> str:
    return common_helpers.expected_tricky(TRICKY_PROMPT)


async def _reach_every_agent(board: FakeBoard, inputs: dict[str, Any]) -> None:
    """A whole run (every gate approved); agents no run reaches get one task each."""
    await helpers.run_to_end(helpers.build(board), inputs)
    team_agents = nodes.TeamNodes(TEAM, board.model_for).agents
    for agent_key in team.AGENTS:
        if agent_key not in helpers.reached_agents():
            await team_agents.ask(agent_key, helpers.resolved(inputs), "Say hello.", "probe")


def test_prompt_files_hold_the_definition_prompts_byte_for_byte() -> None:
    prompts.raw_prompt.cache_clear()
    for agent_key, prompt in helpers.definition_prompts().items():
        assert prompts.raw_prompt(TEAM, agent_key) == prompt, agent_key
    assert set(helpers.definition_prompts()) == set(team.AGENTS)


async def test_every_agent_receives_its_prompt_with_values_filled_in(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    inputs = helpers.valid_inputs()

    await _reach_every_agent(board, inputs)

    # The documented rules, written out: secrets and variables, then inputs by exact key,
    # then by upper-case name (the first declared input of that name).
    resolved = helpers.resolved(inputs)
    texts = {k: resolved[k] for k in team.INPUTS if k in resolved}
    texts = {k: v if isinstance(v, str) else json.dumps(v) for k, v in texts.items()}
    values = dict(texts)
    for name, text in texts.items():
        values.setdefault(placeholders.reference_name(name), text)
    values.update({n: team_env[n] for n in [*team.SECRETS, *team.VARIABLES] if n in team_env})
    for agent_key, prompt in helpers.definition_prompts().items():
        expected = re.sub(
            r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}", lambda m: values.get(m[1], m[0]), prompt
        )
        calls = board.calls_of(agent_key)
        assert calls, f"{agent_key} was never called"
        for call in calls:
            assert call.system == (expected or None), agent_key


async def test_a_tricky_prompt_reaches_every_agent_exactly(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_name, _ = _tricky_names()
    if env_name is not None:
        monkeypatch.setenv(env_name, ENV_VALUE)
    monkeypatch.setattr(prompts, "raw_prompt", lambda package, key: _tricky_prompt())

    await _reach_every_agent(board, _tricky_inputs())

    for agent_key in team.AGENTS:
        assert board.calls_of(agent_key)[0].system == _expected_tricky(), agent_key


async def test_run_inputs_reach_the_first_agent_as_json(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    inputs = _tricky_inputs()

    await helpers.run_to_end(helpers.build(board), inputs)

    dumped = json.dumps(helpers.resolved(inputs), indent=2, ensure_ascii=False)
    first = board.calls[0]
    assert first.agent_key == (
        agents.entry_agent(TEAM)
        if team.MODE == "hierarchy"
        else next(iter(team.PIPELINE.values())).agent_key
    )
    assert f"Run inputs (JSON):\n{dumped}" in first.human
