"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline, and no model is called: its agents and their
tools, its steps and the answers each waits for, the records its gates review,
and the checks of its inputs. The runtime library, envelope-runtime, has its own tests.
Run these with `uv run pytest`.
"""

from __future__ import annotations

from typing import Any

import pytest
from crewai import BaseLLM
from envelope_runtime import InputError, collect_inputs

from parallel_gates import crew, main, models, team

# agents[]: key -> CrewAI role (config/agents.yaml)
ROLES: dict[str, str] = {
    # agents[0] procurement-lead
    "procurement-lead": "Priya",
    # agents[1] contract-analyst
    "contract-analyst": "Colm",
    # agents[2] security-analyst
    "security-analyst": "Sasha",
    # agents[3] onboarding-coordinator
    "onboarding-coordinator": "Omar",
}

# agents[].accessPolicy / allowedHosts: who holds the http_request tool (a crew's manager
# holds no tool: a worker makes its requests)
HTTP_AGENTS: tuple[str, ...] = ()

# agents[].reportsToKey: who runs a sub-team of their own (the delegate_to_team tool)
SUB_TEAM_AGENTS: tuple[str, ...] = ()

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("vendor_name", "contract_text")

# pipeline[]: step -> its agent, and the steps whose answers it waits for
STEPS: dict[str, tuple[str, tuple[str, ...]]] = {
    # pipeline[0] intake
    "intake": ("procurement-lead", ()),
    # pipeline[1] contract-redlines
    "contract-redlines": ("contract-analyst", ("intake",)),
    # pipeline[2] security-findings
    "security-findings": ("security-analyst", ("intake",)),
    # pipeline[3] vendor-letter
    "vendor-letter": ("procurement-lead", ("contract-redlines",)),
    # pipeline[4] onboarding-decision
    "onboarding-decision": ("onboarding-coordinator", ("contract-redlines", "security-findings")),
}

# gates[]: the step whose records each gate reviews, and the fields a reviewer sees
GATES: dict[str, tuple[str, tuple[str, ...]]] = {
    # gates[0] redline-approval
    "redline-approval": ("contract-redlines", ("clause", "proposed_text", "rationale")),
    # gates[1] risk-triage
    "risk-triage": ("security-findings", ("finding_id", "finding", "severity", "mitigation")),
}


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


def test_a_run_without_inputs_is_refused_naming_each_required_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    args = main.COMMANDS.parser().parse_args([])

    with pytest.raises(InputError) as refused:
        collect_inputs(args, team.INPUTS)

    for key in REQUIRED_INPUTS:
        assert f"input {key!r} is required" in refused.value.problems, key


def test_each_step_is_a_task_of_its_agent_with_the_answers_it_waits_for(crews: Any) -> None:
    steps = crews.crew()

    found = {t.name: (t.agent.role, tuple(c.name for c in t.context)) for t in steps.tasks}
    assert found == {key: (crews.role_of(agent), deps) for key, (agent, deps) in STEPS.items()}


def test_each_gate_reviews_records_with_its_fields() -> None:
    for name, (step, fields) in GATES.items():
        schema = team.RECORD_MODELS[step].model_json_schema()
        record = next(iter(schema["$defs"].values()))["properties"]
        assert set(fields) <= set(record), name
