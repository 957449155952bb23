"""The team's graph: LangGraph wiring of the definition (agents[], pipeline[], gates[]).

Wiring only: the node functions are envelope-runtime's HierarchyNodes
(`envelope_runtime.langgraph.hierarchy`), given this team's package (TEAM), whose modules
they read.
`graph` is what langgraph.json serves (`langgraph dev` brings its own checkpointer, and
loads this file by path, hence the absolute imports); the runner (main.py) and the tests
call build_graph with a checkpointer and, for tests, their own models. No node has a retry
policy: a node holds model and tool calls that completed, so only a failed model call is
tried again, by itself (`envelope_runtime.langgraph.llms`, MODEL_ATTEMPTS).
"""

from __future__ import annotations

from envelope_runtime.langgraph.hierarchy import HierarchyNodes
from envelope_runtime.langgraph.llms import ModelFactory
from envelope_runtime.team_package import TeamPackage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from outbound_lead_desk import team
from outbound_lead_desk.context import Context
from outbound_lead_desk.state import TeamInputs, TeamOutput, TeamState

# This team's package, as the runtime reaches its modules (team, models, state, context).
TEAM = TeamPackage("outbound_lead_desk")


def build_graph(
    *,
    checkpointer: BaseCheckpointSaver[str] | None = None,
    model_for: ModelFactory | None = None,
    store: BaseStore | None = None,
) -> CompiledStateGraph[TeamState, Context, TeamInputs, TeamOutput]:
    """The team's compiled graph. `model_for(agent_key)` returns each agent's chat model
    (default: models.model_for, the model the run's Context or the environment chooses,
    built on first use). `store`: where the workspace documents are
    (`envelope_runtime.langgraph.workspace_store`; `langgraph dev` and a deployment bring
    their own store)."""
    nodes = HierarchyNodes(TEAM, model_for)
    # inputs: flat (Studio's form); outputs: status and result; the run's models: Context
    builder = StateGraph(
        TeamState, context_schema=Context, input_schema=TeamInputs, output_schema=TeamOutput
    )
    # inputs: validated by LangGraph as prepare's input (state.TeamInputs), before any model call
    builder.add_node("prepare", nodes.prepare, input_schema=TeamInputs)
    # agents[0] lead-researcher: the entry agent; its reports are its tools and nodes
    builder.add_node("team", nodes.team(), timeout=nodes.team_timeout())
    # outputs: the entry agent's answer as state.TeamResult
    builder.add_node("finalize", nodes.finalize)

    # a new run: on a new thread, or one whose last run ended done (nodes.new_run)
    builder.add_conditional_edges(START, nodes.new_run, ["prepare"])
    builder.add_edge("prepare", "team")
    builder.add_edge("team", "finalize")
    builder.add_edge("finalize", END)
    # workspace: the documents' store, which the agents' workspace tools use
    compiled = builder.compile(checkpointer=checkpointer, store=store, name=team.SLUG)
    # An explicit limit for every invocation, `langgraph dev`'s included.
    return compiled.with_config(recursion_limit=team.RECURSION_LIMIT)


# For langgraph.json (`langgraph dev`): no checkpointer or store, the server supplies them.
graph = build_graph()
