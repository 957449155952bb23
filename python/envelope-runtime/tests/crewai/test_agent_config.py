"""What a developer sets on an agent (config/agents.yaml's CrewAI keys, or crew.py's
@agent method) against what the runtime prepares on it for a run; and the crew commands'
arguments."""

from __future__ import annotations

import argparse

import helpers
import pytest
from fake_llm import FakeModels
from project import TEAM, crew, llms, models, team

from envelope_runtime.crewai import crew_commands


def _worker() -> str:
    """An agent that does its own work: no manager, no sub-team (delegation.py's rules)."""
    if team.MODE == "hierarchy":
        from envelope_runtime.crewai import delegation

        found = [
            key
            for key in team.AGENTS
            if key != delegation.top_manager(TEAM) and not delegation.has_sub_team(TEAM, key)
        ]
        if not found:
            pytest.skip("every agent manages others")
        return found[0]
    return next(iter(team.AGENTS))


def test_verbose_and_max_execution_time_set_on_an_agent_stay(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    key = _worker()
    team_crew = crew.TeamCrew(helpers.valid_inputs())
    method = team.AGENTS[key].method
    agent = getattr(crew.TeamCrew(helpers.valid_inputs()), method)()
    agent.max_execution_time, agent.verbose = 600, True  # as agents.yaml's keys set them
    prepared = team_crew._prepared(key, agent)
    assert (prepared.max_execution_time, prepared.verbose) == (600, True)
    # not set: the model's timeout bounds one execution, and the run's --verbose decides
    plain = team_crew._prepared(key, getattr(crew.TeamCrew(helpers.valid_inputs()), method)())
    assert plain.max_execution_time == llms.execution_limit_s(models.MODELS[key])
    assert plain.verbose is False


@pytest.mark.parametrize("text", ["x", "", "0", "-2", "1.5"])
def test_a_bad_count_of_runs_is_named(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="must be a positive integer"):
        crew_commands._positive(text)
    assert crew_commands._positive(" 3") == 3
