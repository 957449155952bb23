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

from engineering_hiring_loop import context, graph, team
from engineering_hiring_loop.graph import TEAM

# agents[]: key -> its field of the run's context (context.Context: the agent's model)
CONTEXT_FIELDS: dict[str, str] = {
    # agents[0] recruiting-lead
    "recruiting-lead": "recruiting_lead",
    # agents[1] sourcer
    "sourcer": "sourcer",
    # agents[2] screener
    "screener": "screener",
    # agents[3] outreach-writer
    "outreach-writer": "outreach_writer",
    # agents[4] interview-coordinator
    "interview-coordinator": "interview_coordinator",
    # agents[5] debrief-analyst
    "debrief-analyst": "debrief_analyst",
    # agents[6] offer-drafter
    "offer-drafter": "offer_drafter",
}

# The tools each agent holds: http_request with agents[].accessPolicy / allowedHosts
TOOLS: dict[str, tuple[str, ...]] = {
    # agents[0] recruiting-lead
    "recruiting-lead": (),
    # agents[1] sourcer
    "sourcer": ("http_request",),
    # agents[2] screener
    "screener": (),
    # agents[3] outreach-writer
    "outreach-writer": (),
    # agents[4] interview-coordinator
    "interview-coordinator": ("http_request",),
    # agents[5] debrief-analyst
    "debrief-analyst": (),
    # agents[6] offer-drafter
    "offer-drafter": ("http_request",),
}

# pipeline[]: step -> its node
STEP_NODES: dict[str, str] = {
    # pipeline[0] source
    "source": "step_source",
    # pipeline[1] screen
    "screen": "step_screen",
    # pipeline[2] outreach
    "outreach": "step_outreach",
    # pipeline[3] schedule-interviews
    "schedule-interviews": "step_schedule-interviews",
    # pipeline[4] debrief
    "debrief": "step_debrief",
    # pipeline[5] draft-offers
    "draft-offers": "step_draft-offers",
    # pipeline[6] loop-summary
    "loop-summary": "step_loop-summary",
}

# gates[]: gate -> its nodes (review, release, and escalation when it escalates)
GATE_NODES: dict[str, tuple[str, ...]] = {
    # gates[0] shortlist-review
    "shortlist-review": ("gate_shortlist-review", "released_shortlist-review"),
    # gates[1] outreach-approval
    "outreach-approval": (
        "gate_outreach-approval",
        "released_outreach-approval",
        "escalate_outreach-approval",
    ),
    # gates[2] debrief-decision
    "debrief-decision": (
        "gate_debrief-decision",
        "released_debrief-decision",
        "escalate_debrief-decision",
    ),
    # gates[3] offer-release
    "offer-release": ("gate_offer-release", "released_offer-release"),
}

# inputs: key -> its key in the graph's input (Studio's form)
INPUT_CHANNELS: dict[str, str] = {
    # inputs.job_id
    "job_id": "job_id",
    # inputs.role_title
    "role_title": "role_title",
    # inputs.must_haves
    "must_haves": "must_haves",
    # inputs.shortlist_size
    "shortlist_size": "shortlist_size",
}

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("job_id", "role_title", "must_haves")


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
