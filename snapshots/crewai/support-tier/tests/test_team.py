"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline: its agents and their tools,
and the checks of its inputs.
And the whole team runs offline, against scripted models that never reach a network:
every agent.
The runtime library, envelope-runtime, has its own tests. Run these with `uv run pytest`.
"""

from __future__ import annotations

from typing import Any

import pytest
from crewai import BaseLLM
from envelope_runtime.crewai.testing import run_offline
from pydantic import ValidationError

from support_tier import crew, models, team

# agents[]: key -> CrewAI role (config/agents.yaml)
ROLES: dict[str, str] = {
    # agents[0] support-lead
    "support-lead": "Support Lead",
    # agents[1] billing-specialist
    "billing-specialist": "Billing Specialist",
    # agents[2] technical-specialist
    "technical-specialist": "Technical Specialist",
}

# agents[].accessPolicy / allowedHosts: who holds the http_request tool (a crew's manager
# holds no tool: a worker makes its requests)
HTTP_AGENTS: tuple[str, ...] = ("billing-specialist", "technical-specialist")

# agents[].reportsToKey: who runs a sub-team of their own (the delegate_to_team tool)
SUB_TEAM_AGENTS: tuple[str, ...] = ()

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("ticket_text",)


class _NoModel(BaseLLM):
    """The models of these tests: none is ever called."""

    def call(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("a model was called")


@pytest.fixture
def crews(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The team's crew class, with models that are never called and test values for the
    secrets and variables."""
    monkeypatch.setattr(models, "llm_for", lambda key: _NoModel(model=f"none/{key}"))
    for name in (*team.SECRETS, *team.VARIABLES):
        monkeypatch.setenv(name, f"test-{name.lower()}")
    return crew.TeamCrew()


def test_each_agent_has_its_role(crews: Any) -> None:
    roles = {key: crews.agents_config[spec.method]["role"] for key, spec in team.AGENTS.items()}
    assert roles == ROLES


def test_each_agent_holds_the_tools_the_definition_gives_it(crews: Any) -> None:
    for key, spec in team.AGENTS.items():
        names = {tool.name for tool in getattr(crews, spec.method)().tools}
        assert ("http_request" in names) == (key in HTTP_AGENTS), key
        assert ("delegate_to_team" in names) == (key in SUB_TEAM_AGENTS), key


def test_a_run_without_inputs_is_refused_naming_each_required_one() -> None:
    with pytest.raises(ValidationError) as refused:
        team.TeamInputs.model_validate({})

    missing = [error["loc"][0] for error in refused.value.errors() if error["type"] == "missing"]
    assert missing == list(REQUIRED_INPUTS)


# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.resolution
    "resolution",
    # outputs.assigned_agent
    "assigned_agent",
    # outputs.escalated
    "escalated",
    # outputs.zendesk_ticket_id
    "zendesk_ticket_id",
)


def test_the_whole_team_runs_offline(tmp_path: Any) -> None:
    """The team's console script runs the team from inputs its TeamInputs accept to its
    result (envelope-runtime's run_offline: scripted models, never a network).
    The manager delegates to each agent (CrewAI's delegation tools).
    """
    run = run_offline(crew.TeamCrew.package, tmp_path)

    assert run.codes[-1] == 0, run.output
    assert tuple(run.output) == OUTPUTS
    team.TeamResult.model_validate(run.output)
    assert run.codes == [0]
    assert run.agents() == set(ROLES)
