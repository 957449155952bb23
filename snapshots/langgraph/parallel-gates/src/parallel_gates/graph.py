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

from parallel_gates import team
from parallel_gates.context import Context
from parallel_gates.state import TeamInputs, TeamOutput, TeamState

# This team's package, as the runtime reaches its modules (team, models, state, context).
TEAM = TeamPackage("parallel_gates")


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
    # pipeline[0] intake (agent procurement-lead)
    builder.add_node("step_intake", nodes.step("intake"), timeout=nodes.step_timeout("intake"))
    # pipeline[1] contract-redlines (agent contract-analyst)
    builder.add_node(
        "step_contract-redlines",
        nodes.step("contract-redlines"),
        timeout=nodes.step_timeout("contract-redlines"),
        destinations=("gate_redline-approval",),
    )
    # gates[0] redline-approval: afterStep contract-redlines, triggersStep onboarding-decis…
    builder.add_node(
        "gate_redline-approval",
        nodes.gate("redline-approval"),
        destinations=(
            "gate_redline-approval",
            "released_redline-approval",
            "step_contract-redlines",
            "escalate_redline-approval",
            END,
        ),
    )
    builder.add_node(
        "escalate_redline-approval",
        nodes.escalate("redline-approval"),
        timeout=nodes.escalation_timeout("redline-approval"),
        destinations=("gate_redline-approval", END),
    )
    builder.add_node("released_redline-approval", nodes.released("redline-approval"))
    # pipeline[2] security-findings (agent security-analyst)
    builder.add_node(
        "step_security-findings",
        nodes.step("security-findings"),
        timeout=nodes.step_timeout("security-findings"),
        destinations=("gate_risk-triage",),
    )
    # gates[1] risk-triage: afterStep security-findings, triggersStep onboarding-decision
    builder.add_node(
        "gate_risk-triage",
        nodes.gate("risk-triage"),
        destinations=("gate_risk-triage", "released_risk-triage", "escalate_risk-triage", END),
    )
    builder.add_node(
        "escalate_risk-triage",
        nodes.escalate("risk-triage"),
        timeout=nodes.escalation_timeout("risk-triage"),
        destinations=("gate_risk-triage", END),
    )
    builder.add_node("released_risk-triage", nodes.released("risk-triage"))
    # pipeline[3] vendor-letter (agent procurement-lead)
    builder.add_node(
        "step_vendor-letter",
        nodes.step("vendor-letter"),
        timeout=nodes.step_timeout("vendor-letter"),
    )
    # pipeline[4] onboarding-decision (agent onboarding-coordinator)
    builder.add_node(
        "step_onboarding-decision",
        nodes.step("onboarding-decision"),
        timeout=nodes.step_timeout("onboarding-decision"),
    )
    # outputs: the answer of FINAL_STEP as state.TeamResult
    builder.add_node("finalize", nodes.finalize)

    # a new run: on a new thread, or one whose last run ended done (nodes.new_run)
    builder.add_conditional_edges(START, nodes.new_run, ["prepare"])
    # pipeline[0] intake: the first step
    builder.add_edge("prepare", "step_intake")
    # pipeline[1] contract-redlines: waits for intake
    builder.add_edge("step_intake", "step_contract-redlines")
    # pipeline[2] security-findings: waits for intake
    builder.add_edge("step_intake", "step_security-findings")
    # pipeline[3] vendor-letter: waits for gates[0] redline-approval
    builder.add_edge("released_redline-approval", "step_vendor-letter")
    # pipeline[4] onboarding-decision: waits for gates[0] redline-approval, gates[1] risk-t…
    builder.add_edge(
        ["released_redline-approval", "released_risk-triage"], "step_onboarding-decision"
    )
    # the result, once every last step is done
    builder.add_edge(["step_vendor-letter", "step_onboarding-decision"], "finalize")
    builder.add_edge("finalize", END)
    compiled = builder.compile(checkpointer=checkpointer, name=team.SLUG)
    # An explicit limit for every invocation, `langgraph dev`'s included.
    return compiled.with_config(recursion_limit=team.RECURSION_LIMIT)


# For langgraph.json (`langgraph dev`): no checkpointer, the server supplies one.
graph = build_graph()
