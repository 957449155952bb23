"""The team's graph: LangGraph wiring of the definition (agents[], pipeline[], gates[]).

Wiring only: the node functions are envelope-runtime's PipelineNodes
(`envelope_runtime.langgraph.pipeline`), given this team's package (TEAM), whose modules
they read.
`graph` is what langgraph.json serves (`langgraph dev` brings its own checkpointer, and
loads this file by path, hence the absolute imports); the runner (main.py) and the tests
call build_graph with a checkpointer and, for tests, their own models. No node has a retry
policy: a node holds model and tool calls that completed, so only a failed model call is
tried again, by itself (`envelope_runtime.langgraph.llms`, MODEL_ATTEMPTS).
"""

from __future__ import annotations

from envelope_runtime.langgraph.llms import ModelFactory
from envelope_runtime.langgraph.pipeline import PipelineNodes
from envelope_runtime.team_package import TeamPackage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from engineering_hiring_loop import team
from engineering_hiring_loop.context import Context
from engineering_hiring_loop.state import TeamInputs, TeamOutput, TeamState

# This team's package, as the runtime reaches its modules (team, models, state, context).
TEAM = TeamPackage("engineering_hiring_loop")


def build_graph(
    *,
    checkpointer: BaseCheckpointSaver[str] | None = None,
    model_for: ModelFactory | None = None,
) -> CompiledStateGraph[TeamState, Context, TeamInputs, TeamOutput]:
    """The team's compiled graph. `model_for(agent_key)` returns each agent's chat model
    (default: models.model_for, the model the run's Context or the environment chooses,
    built on first use)."""
    nodes = PipelineNodes(TEAM, model_for)
    # inputs: flat (Studio's form); outputs: status and result; the run's models: Context
    builder = StateGraph(
        TeamState, context_schema=Context, input_schema=TeamInputs, output_schema=TeamOutput
    )
    # inputs: validated by LangGraph as prepare's input (state.TeamInputs), before any model call
    builder.add_node("prepare", nodes.prepare, input_schema=TeamInputs)
    # pipeline[0] source (agent sourcer)
    builder.add_node("step_source", nodes.step("source"), timeout=nodes.step_timeout("source"))
    # pipeline[1] screen (agent screener)
    builder.add_node(
        "step_screen",
        nodes.step("screen"),
        timeout=nodes.step_timeout("screen"),
        destinations=("gate_shortlist-review",),
    )
    # gates[0] shortlist-review: afterStep screen, triggersStep outreach
    builder.add_node(
        "gate_shortlist-review",
        nodes.gate("shortlist-review"),
        destinations=("gate_shortlist-review", "released_shortlist-review", END),
    )
    builder.add_node("released_shortlist-review", nodes.released("shortlist-review"))
    # pipeline[2] outreach (agent outreach-writer)
    builder.add_node(
        "step_outreach",
        nodes.step("outreach"),
        timeout=nodes.step_timeout("outreach"),
        destinations=("gate_outreach-approval",),
    )
    # gates[1] outreach-approval: afterStep outreach, triggersStep schedule-interviews
    builder.add_node(
        "gate_outreach-approval",
        nodes.gate("outreach-approval"),
        destinations=(
            "gate_outreach-approval",
            "released_outreach-approval",
            "step_outreach",
            "escalate_outreach-approval",
            END,
        ),
    )
    builder.add_node(
        "escalate_outreach-approval",
        nodes.escalate("outreach-approval"),
        timeout=nodes.escalation_timeout("outreach-approval"),
        destinations=("gate_outreach-approval", END),
    )
    builder.add_node("released_outreach-approval", nodes.released("outreach-approval"))
    # pipeline[3] schedule-interviews (agent interview-coordinator)
    builder.add_node(
        "step_schedule-interviews",
        nodes.step("schedule-interviews"),
        timeout=nodes.step_timeout("schedule-interviews"),
    )
    # pipeline[4] debrief (agent debrief-analyst)
    builder.add_node(
        "step_debrief",
        nodes.step("debrief"),
        timeout=nodes.step_timeout("debrief"),
        destinations=("gate_debrief-decision",),
    )
    # gates[2] debrief-decision: afterStep debrief, triggersStep draft-offers
    builder.add_node(
        "gate_debrief-decision",
        nodes.gate("debrief-decision"),
        destinations=(
            "gate_debrief-decision",
            "released_debrief-decision",
            "escalate_debrief-decision",
            END,
        ),
    )
    builder.add_node(
        "escalate_debrief-decision",
        nodes.escalate("debrief-decision"),
        timeout=nodes.escalation_timeout("debrief-decision"),
        destinations=("gate_debrief-decision", END),
    )
    builder.add_node("released_debrief-decision", nodes.released("debrief-decision"))
    # pipeline[5] draft-offers (agent offer-drafter)
    builder.add_node(
        "step_draft-offers",
        nodes.step("draft-offers"),
        timeout=nodes.step_timeout("draft-offers"),
        destinations=("gate_offer-release",),
    )
    # gates[3] offer-release: afterStep draft-offers, triggersStep loop-summary
    builder.add_node(
        "gate_offer-release",
        nodes.gate("offer-release"),
        destinations=("gate_offer-release", "released_offer-release", END),
    )
    builder.add_node("released_offer-release", nodes.released("offer-release"))
    # pipeline[6] loop-summary (agent recruiting-lead)
    builder.add_node(
        "step_loop-summary", nodes.step("loop-summary"), timeout=nodes.step_timeout("loop-summary")
    )
    # outputs: the answer of FINAL_STEP as state.TeamResult
    builder.add_node("finalize", nodes.finalize)

    # a new run: on a new thread, or one whose last run ended done (nodes.new_run)
    builder.add_conditional_edges(START, nodes.new_run, ["prepare"])
    # pipeline[0] source: the first step
    builder.add_edge("prepare", "step_source")
    # pipeline[1] screen: waits for source
    builder.add_edge("step_source", "step_screen")
    # pipeline[2] outreach: waits for gates[0] shortlist-review
    builder.add_edge("released_shortlist-review", "step_outreach")
    # pipeline[3] schedule-interviews: waits for gates[1] outreach-approval
    builder.add_edge("released_outreach-approval", "step_schedule-interviews")
    # pipeline[4] debrief: waits for schedule-interviews
    builder.add_edge("step_schedule-interviews", "step_debrief")
    # pipeline[5] draft-offers: waits for gates[2] debrief-decision
    builder.add_edge("released_debrief-decision", "step_draft-offers")
    # pipeline[6] loop-summary: waits for gates[3] offer-release
    builder.add_edge("released_offer-release", "step_loop-summary")
    # the result, once every last step is done
    builder.add_edge("step_loop-summary", "finalize")
    builder.add_edge("finalize", END)
    compiled = builder.compile(checkpointer=checkpointer, name=team.SLUG)
    # An explicit limit for every invocation, `langgraph dev`'s included.
    return compiled.with_config(recursion_limit=team.RECURSION_LIMIT)


# For langgraph.json (`langgraph dev`): no checkpointer, the server supplies one.
graph = build_graph()
