"""The team's own tests, generated from its definition (envelope.json).

They build the team's graph offline, and no model is ever called. They check that:
- every agent is drawn in the graph, as Studio shows it;
- the graph has input, output and context schemas, the input naming each input;
- each agent has its model field in the context, and holds the tools it is given;
- a run needs no input.

envelope-runtime, the library the team runs on, has its own tests (in envelope-export's
repository). Run these with `uv run pytest`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from envelope_runtime.inputs import collect_inputs
from envelope_runtime.langgraph.run_client import run_parser
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult

from weekly_pipeline_review import context, graph, team
from weekly_pipeline_review.graph import TEAM

# agents[]: key -> its field of the run's context (context.Context: the agent's model)
CONTEXT_FIELDS: dict[str, str] = {
    # agents[0] revops-analyst
    "revops-analyst": "revops_analyst",
    # agents[1] deal-coach
    "deal-coach": "deal_coach",
}

# The tools each agent holds: http_request with agents[].accessPolicy / allowedHosts
# ask_<report> per report (agents[].reportsToKey)
TOOLS: dict[str, tuple[str, ...]] = {
    # agents[0] revops-analyst
    "revops-analyst": ("http_request", "ask_deal_coach"),
    # agents[1] deal-coach
    "deal-coach": ("http_request",),
}

# agents[].reportsToKey: the nodes from the team's graph down to each agent's own node
AGENT_NODES: dict[str, tuple[str, ...]] = {
    # agents[0] revops-analyst
    "revops-analyst": ("team", "revops_analyst"),
    # agents[1] deal-coach
    "deal-coach": ("team", "ask-deal_coach", "deal_coach"),
}

# inputs: key -> its key in the graph's input (Studio's form)
INPUT_CHANNELS: dict[str, str] = {}

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ()


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


def test_every_agent_is_drawn_in_the_graph(team_graph: Any) -> None:
    drawn = list(team_graph.get_graph(xray=True).nodes)
    for key, path in AGENT_NODES.items():
        prefix = ":".join(path) + ":"
        assert any(node.startswith(prefix) for node in drawn), f"{key}: nothing under {prefix}"


def test_each_agent_holds_the_tools_the_definition_gives_it(team_graph: Any) -> None:
    drawn = team_graph.get_graph(xray=True).nodes
    for key, path in AGENT_NODES.items():
        tools_node = drawn.get(":".join(path) + ":tools")
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


def test_a_run_needs_no_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.chdir(tmp_path)
    args = run_parser(TEAM).parse_args([])

    inputs = collect_inputs(args, team.TeamInputs, team.INPUT_CHANNELS)

    assert set(inputs) <= set(team.INPUTS)
