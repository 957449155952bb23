"""What a developer sets on an agent (config/agents.yaml's CrewAI keys, or crew.py's
@agent method) against what the runtime prepares on it for a run; and the crew commands'
arguments."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import helpers
import pytest
import yaml
from crewai import BaseLLM
from fake_llm import FakeLLM, FakeModels
from project import TEAM, crew, crew_base, llms, models, runner, team

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


# --- `llm:` in config/agents.yaml (the export's README, "Extend the team") ---------


def _with_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llm: str, keys: list[str]) -> None:
    """The team reads a copy of its config/ whose agents.yaml gives `keys` `llm: <llm>`."""
    config = tmp_path / "config"
    shutil.copytree(crew_base.config_dir(TEAM), config)
    entries = yaml.safe_load((config / "agents.yaml").read_text(encoding="utf-8"))
    for key in keys:
        entries[team.AGENTS[key].method]["llm"] = llm
    (config / "agents.yaml").write_text(yaml.safe_dump(entries), encoding="utf-8")
    monkeypatch.setattr(crew_base, "config_dir", lambda package: config)
    monkeypatch.setattr(crew.TeamCrew, "base_directory", tmp_path)  # @CrewBase's config/


def test_an_llm_in_agents_yaml_needs_its_providers_key_not_the_definitions(
    tmp_path: Path, team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The connection packs' credentials (--connections) are the team's own, not provider keys.
    own = {*team.SECRETS, *team.VARIABLES, *getattr(team, "CONNECTION_SECRETS", ())}
    for name in {n for n in team_env if n.endswith("_API_KEY") and n not in own}:
        monkeypatch.delenv(name)
    monkeypatch.delenv("MISTRAL_API_KEY", raising=False)
    _with_llm(tmp_path, monkeypatch, "mistral/mistral-small-latest", list(team.AGENTS))

    missing = runner._missing_env(TEAM, None)

    assert [label for label in missing if "_API_KEY" in label] == ["MISTRAL_API_KEY"]


def made_by_the_factory(agent_key: str, spec: llms.ModelSpec) -> BaseLLM:
    """ENVELOPE_MODEL_FACTORY of the test below."""
    return FakeModels(helpers.roles(), list_length=helpers.list_length()).llm_for(agent_key)


def test_the_model_factory_makes_an_agents_model_whatever_its_llm_in_agents_yaml(
    tmp_path: Path, team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    key = _worker()
    _with_llm(tmp_path, monkeypatch, "mistral/mistral-small-latest", [key])
    monkeypatch.setenv(llms.FACTORY_ENV, f"{__name__}:made_by_the_factory")

    assert runner._missing_env(TEAM, None) == []
    agent = getattr(crew.TeamCrew(helpers.valid_inputs()), team.AGENTS[key].method)()
    assert isinstance(agent.llm, FakeLLM)
