"""The team's own tests, generated from its definition (envelope.json).

They build the team's graph offline, and no model is ever called. They check that:
- every agent is drawn in the graph, as Studio shows it;
- the graph has input, output and context schemas, the input naming each input;
- each agent has its model field in the context, and holds the tools it is given;
- a run without inputs is refused, naming each required one;
- the store refuses what each workspace document does not let an agent write.

envelope-runtime, the library the team runs on, has its own tests (in envelope-export's
repository). Run these with `uv run pytest`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from envelope_runtime.inputs import InputError, collect_inputs
from envelope_runtime.langgraph.run_client import run_parser
from envelope_runtime.langgraph.workspace_store import (
    forget_store_files,
    open_workspace,
    workspace_tools,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult

from outbound_lead_desk import context, graph, team
from outbound_lead_desk.graph import TEAM

# agents[]: key -> its field of the run's context (context.Context: the agent's model)
CONTEXT_FIELDS: dict[str, str] = {
    # agents[0] lead-researcher
    "lead-researcher": "lead_researcher",
    # agents[1] email-drafter
    "email-drafter": "email_drafter",
}

# The tools each agent holds: http_request with agents[].accessPolicy / allowedHosts
# ask_<report> per report (agents[].reportsToKey)
# list/read/write of each workspace document it has (workspace[])
TOOLS: dict[str, tuple[str, ...]] = {
    # agents[0] lead-researcher
    "lead-researcher": (
        "http_request",
        "list_leads_rows",
        "read_leads_row",
        "write_leads_rows",
        "ask_email_drafter",
    ),
    # agents[1] email-drafter
    "email-drafter": (
        "list_leads_rows",
        "read_leads_row",
        "write_leads_rows",
        "list_messaging_experiments_rows",
        "read_messaging_experiments_row",
        "write_messaging_experiments_rows",
    ),
}

# agents[].reportsToKey: the nodes from the team's graph down to each agent's own node
AGENT_NODES: dict[str, tuple[str, ...]] = {
    # agents[0] lead-researcher
    "lead-researcher": ("team", "lead_researcher"),
    # agents[1] email-drafter
    "email-drafter": ("team", "ask-email_drafter", "email_drafter"),
}

# inputs: key -> its key in the graph's input (Studio's form)
INPUT_CHANNELS: dict[str, str] = {
    # inputs.ideal_customer_profile
    "ideal_customer_profile": "ideal_customer_profile",
}

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("ideal_customer_profile",)


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


def test_a_run_without_inputs_is_refused_naming_each_required_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    args = run_parser(TEAM).parse_args([])

    with pytest.raises(InputError) as refused:
        collect_inputs(args, team.TeamInputs, team.INPUT_CHANNELS)

    for key in REQUIRED_INPUTS:
        assert f"input {key!r} is required" in refused.value.problems, key


# workspace[]: document -> an agent with its tools, a column people own, a status column
# ("" when it has none)
WORKSPACE_CASES: list[tuple[str, str, str, str]] = [
    # workspace[0]
    ("leads", "lead-researcher", "qualified_by", "status"),
    # workspace[1]
    ("messaging-experiments", "email-drafter", "angle", ""),
]


@pytest.fixture
def workspace_file(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fresh store file for the agents' tools (ENVELOPE_WORKSPACE_DB)."""
    monkeypatch.setenv("ENVELOPE_WORKSPACE_DB", str(tmp_path / "workspace.sqlite3"))
    forget_store_files()
    yield tmp_path / "workspace.sqlite3"
    forget_store_files()


@pytest.mark.parametrize(("document", "agent", "human_column", "status_column"), WORKSPACE_CASES)
def test_the_store_refuses_what_the_document_does_not_let_an_agent_write(
    document: str, agent: str, human_column: str, status_column: str, workspace_file: Any
) -> None:
    tools = {tool.name: tool for tool in workspace_tools(TEAM, agent)}
    write = next(tool for name, tool in tools.items() if name.startswith("write_"))
    if human_column:
        answer = write.invoke({"rows": [{"data": {human_column: "set by an agent"}}]})
        assert '"outcome": "refused"' in answer and human_column in answer
    if status_column:
        answer = write.invoke({"rows": [{"data": {status_column: "not-a-declared-status"}}]})
        assert '"outcome": "refused"' in answer and status_column in answer
    assert open_workspace(TEAM).rows(document) == []
