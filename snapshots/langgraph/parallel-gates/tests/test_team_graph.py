"""The team's own tests, generated from its definition (envelope.json).

They build the team's graph offline, and no model is ever called. They check that:
- every step and gate is a node of the graph;
- the graph has input, output and context schemas, the input naming each input;
- each agent has its model field in the context, and holds the tools it is given;
- a run without inputs is refused, naming each required one.

envelope-runtime, the library the team runs on, has its own tests (in envelope-export's
repository). Run these with `uv run pytest`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from envelope_runtime.inputs import InputError, collect_inputs
from envelope_runtime.langgraph.pipeline import PipelineNodes
from envelope_runtime.langgraph.run_client import run_parser
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult

from parallel_gates import context, graph, team
from parallel_gates.graph import TEAM

# agents[]: key -> its field of the run's context (context.Context: the agent's model)
CONTEXT_FIELDS: dict[str, str] = {
    # agents[0] procurement-lead
    "procurement-lead": "procurement_lead",
    # agents[1] contract-analyst
    "contract-analyst": "contract_analyst",
    # agents[2] security-analyst
    "security-analyst": "security_analyst",
    # agents[3] onboarding-coordinator
    "onboarding-coordinator": "onboarding_coordinator",
}

# The tools each agent holds: http_request with agents[].accessPolicy / allowedHosts
TOOLS: dict[str, tuple[str, ...]] = {
    # agents[0] procurement-lead
    "procurement-lead": (),
    # agents[1] contract-analyst
    "contract-analyst": (),
    # agents[2] security-analyst
    "security-analyst": (),
    # agents[3] onboarding-coordinator
    "onboarding-coordinator": (),
}

# pipeline[]: step -> its node
STEP_NODES: dict[str, str] = {
    # pipeline[0] intake
    "intake": "step_intake",
    # pipeline[1] contract-redlines
    "contract-redlines": "step_contract-redlines",
    # pipeline[2] security-findings
    "security-findings": "step_security-findings",
    # pipeline[3] vendor-letter
    "vendor-letter": "step_vendor-letter",
    # pipeline[4] onboarding-decision
    "onboarding-decision": "step_onboarding-decision",
}

# gates[]: gate -> its nodes (review, release, and escalation when it escalates)
GATE_NODES: dict[str, tuple[str, ...]] = {
    # gates[0] redline-approval
    "redline-approval": (
        "gate_redline-approval",
        "released_redline-approval",
        "escalate_redline-approval",
    ),
    # gates[1] risk-triage
    "risk-triage": ("gate_risk-triage", "released_risk-triage", "escalate_risk-triage"),
}

# inputs: key -> its key in the graph's input (Studio's form)
INPUT_CHANNELS: dict[str, str] = {
    # inputs.vendor_name
    "vendor_name": "vendor_name",
    # inputs.contract_text
    "contract_text": "contract_text",
    # inputs.data_classes
    "data_classes": "data_classes",
    # inputs.annual_value_usd
    "annual_value_usd": "annual_value_usd",
}

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("vendor_name", "contract_text")


class _NoModel(BaseChatModel):
    """The chat model of every agent in these tests: none is ever called."""

    @property
    def _llm_type(self) -> str:
        return "no-model"

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        raise AssertionError("a model was called")


def _no_model(agent_key: str) -> BaseChatModel:
    return _NoModel()


@pytest.fixture(scope="module")
def team_graph() -> Any:
    """The team's compiled graph, with models that are never called."""
    return graph.build_graph(model_for=_no_model)


def test_every_step_and_gate_is_a_node_of_the_graph(team_graph: Any) -> None:
    wired = set(team_graph.get_graph().nodes) - {"__start__", "prepare", "finalize", "__end__"}
    assert wired == set(STEP_NODES.values()).union(*GATE_NODES.values())


def test_each_agent_holds_the_tools_the_definition_gives_it() -> None:
    agents = PipelineNodes(TEAM, _no_model).agents
    for key in TOOLS:
        tools_node = agents.task_graph(key).get_graph().nodes.get("tools")
        names = set(tools_node.data.tools_by_name) if tools_node is not None else set()
        assert names == set(TOOLS[key]), key


def test_the_graph_has_input_output_and_context_schemas(team_graph: Any) -> None:
    inputs = team_graph.get_input_jsonschema()
    assert set(inputs.get("properties", {})) == set(INPUT_CHANNELS.values())
    assert "status" in team_graph.get_output_jsonschema()["properties"]
    assert set(CONTEXT_FIELDS.values()) <= set(team_graph.get_context_jsonschema()["properties"])


def test_each_agent_has_its_model_field_in_the_context() -> None:
    assert context.AGENT_FIELDS == CONTEXT_FIELDS
    assert set(CONTEXT_FIELDS.values()) <= {field.name for field in fields(context.Context)}
    assert set(team.AGENTS) == set(CONTEXT_FIELDS)


def test_a_run_without_inputs_is_refused_naming_each_required_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    args = run_parser(TEAM).parse_args([])

    with pytest.raises(InputError) as refused:
        collect_inputs(args, team.TeamInputs, team.INPUT_CHANNELS)

    for key in REQUIRED_INPUTS:
        assert f"input {key!r} is required" in refused.value.problems, key
