"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline: its agents and their tools,
its steps and the answers each waits for, the records its gates review,
and the checks of its inputs.
And the whole team runs offline, against scripted models that never reach a network:
every agent, every step and every gate (decisions from the file the run writes).
The runtime library, envelope-runtime, has its own tests. Run these with `uv run pytest`.
"""

from __future__ import annotations

from typing import Any

import pytest
from crewai import BaseLLM
from envelope_runtime.crewai.state import StepOutput
from envelope_runtime.crewai.testing import run_offline
from envelope_runtime.gates import receives
from pydantic import ValidationError

from parallel_gates import crew, flow, models, team

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


def test_a_run_without_inputs_is_refused_naming_each_required_one() -> None:
    with pytest.raises(ValidationError) as refused:
        team.TeamInputs.model_validate({})

    missing = [error["loc"][0] for error in refused.value.errors() if error["type"] == "missing"]
    assert missing == list(REQUIRED_INPUTS)


def test_each_step_is_a_task_of_its_agent_with_the_answers_the_flow_gives_it(crews: Any) -> None:
    # Each step runs as a one-task crew of the flow (flow.py), the answers the flow hands it
    # (every step has answered here) the task's context. A step after a gate gets the gate's
    # released records instead of the answer the gate reviews (gates.receives).
    run = flow.TeamFlow()
    run.configure(crews)
    run.state.outputs = {key: StepOutput(text="an answer") for key in STEPS}
    found = {}
    for key in STEPS:
        (task,) = crews.step_crew(key, "", run.answers(key)).tasks
        found[key] = (task.agent.role, tuple(c.name for c in task.context))
    assert found == {
        key: (crews.role_of(agent), tuple(receives(key, deps, team.GATES)[0]))
        for key, (agent, deps) in STEPS.items()
    }
    assert {key: spec.depends_on for key, spec in team.PIPELINE.items()} == {
        key: deps for key, (_, deps) in STEPS.items()
    }


def test_each_gate_reviews_records_with_its_fields() -> None:
    for name, (step, fields) in GATES.items():
        schema = team.RECORD_MODELS[step].model_json_schema()
        record = next(iter(schema["$defs"].values()))["properties"]
        assert set(fields) <= set(record), name


# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.redlines
    "redlines",
    # outputs.risk_register
    "risk_register",
    # outputs.onboarding_decision
    "onboarding_decision",
)


def test_the_whole_team_runs_offline_through_every_gate(tmp_path: Any) -> None:
    """The team's console script runs the team from inputs its TeamInputs accept to its
    result (envelope-runtime's run_offline: scripted models, never a network).
    Every step runs; at each gate the run stops, every record is approved in the
    decisions file it wrote, and it resumes.
    """
    run = run_offline(crew.TeamCrew.package, tmp_path)

    assert run.codes[-1] == 0, run.output
    assert tuple(run.output) == OUTPUTS
    team.TeamResult.model_validate(run.output)
    assert {call.task for call in run.calls} >= set(STEPS)
    assert run.agents() >= {agent for agent, _ in STEPS.values()}
    assert sorted(run.reviews) == sorted(GATES)
