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

from content_studio import team
from content_studio.context import Context
from content_studio.state import TeamInputs, TeamOutput, TeamState

# This team's package, as the runtime reaches its modules (team, models, state, context).
TEAM = TeamPackage("content_studio")


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
    # pipeline[0] research (agent researcher)
    builder.add_node(
        "step_research", nodes.step("research"), timeout=nodes.step_timeout("research")
    )
    # pipeline[1] keyword-brief (agent seo-strategist)
    builder.add_node(
        "step_keyword-brief",
        nodes.step("keyword-brief"),
        timeout=nodes.step_timeout("keyword-brief"),
    )
    # pipeline[2] audience-questions (agent audience-analyst)
    builder.add_node(
        "step_audience-questions",
        nodes.step("audience-questions"),
        timeout=nodes.step_timeout("audience-questions"),
    )
    # pipeline[3] draft-article (agent writer)
    builder.add_node(
        "step_draft-article",
        nodes.step("draft-article"),
        timeout=nodes.step_timeout("draft-article"),
    )
    # pipeline[4] social-posts (agent social-writer)
    builder.add_node(
        "step_social-posts", nodes.step("social-posts"), timeout=nodes.step_timeout("social-posts")
    )
    # pipeline[5] newsletter (agent newsletter-writer)
    builder.add_node(
        "step_newsletter", nodes.step("newsletter"), timeout=nodes.step_timeout("newsletter")
    )
    # pipeline[6] final-edit (agent managing-editor)
    builder.add_node(
        "step_final-edit",
        nodes.step("final-edit"),
        timeout=nodes.step_timeout("final-edit"),
        destinations=("gate_editorial-approval",),
    )
    # gates[0] editorial-approval: afterStep final-edit, triggersStep publish-draft
    builder.add_node(
        "gate_editorial-approval",
        nodes.gate("editorial-approval"),
        destinations=(
            "gate_editorial-approval",
            "released_editorial-approval",
            "step_final-edit",
            "escalate_editorial-approval",
            END,
        ),
    )
    builder.add_node(
        "escalate_editorial-approval",
        nodes.escalate("editorial-approval"),
        timeout=nodes.escalation_timeout("editorial-approval"),
        destinations=("gate_editorial-approval", END),
    )
    builder.add_node("released_editorial-approval", nodes.released("editorial-approval"))
    # pipeline[7] publish-draft (agent publisher)
    builder.add_node(
        "step_publish-draft",
        nodes.step("publish-draft"),
        timeout=nodes.step_timeout("publish-draft"),
    )
    # outputs: the answer of FINAL_STEP as state.TeamResult
    builder.add_node("finalize", nodes.finalize)

    # a new run: on a new thread, or one whose last run ended done (nodes.new_run)
    builder.add_conditional_edges(START, nodes.new_run, ["prepare"])
    # pipeline[0] research: the first step
    builder.add_edge("prepare", "step_research")
    # pipeline[1] keyword-brief: waits for research
    builder.add_edge("step_research", "step_keyword-brief")
    # pipeline[2] audience-questions: waits for research
    builder.add_edge("step_research", "step_audience-questions")
    # pipeline[3] draft-article: waits for keyword-brief, audience-questions
    builder.add_edge(["step_keyword-brief", "step_audience-questions"], "step_draft-article")
    # pipeline[4] social-posts: waits for draft-article
    builder.add_edge("step_draft-article", "step_social-posts")
    # pipeline[5] newsletter: waits for draft-article
    builder.add_edge("step_draft-article", "step_newsletter")
    # pipeline[6] final-edit: waits for draft-article, social-posts, newsletter
    builder.add_edge(
        ["step_draft-article", "step_social-posts", "step_newsletter"], "step_final-edit"
    )
    # pipeline[7] publish-draft: waits for gates[0] editorial-approval
    builder.add_edge("released_editorial-approval", "step_publish-draft")
    # the result, once every last step is done
    builder.add_edge("step_publish-draft", "finalize")
    builder.add_edge("finalize", END)
    compiled = builder.compile(checkpointer=checkpointer, name=team.SLUG)
    # An explicit limit for every invocation, `langgraph dev`'s included.
    return compiled.with_config(recursion_limit=team.RECURSION_LIMIT)


# For langgraph.json (`langgraph dev`): no checkpointer, the server supplies one.
graph = build_graph()
