"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.gates import GateSpec
from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Content Studio"
SLUG = "content-studio"
VERSION = "2.3.1"
DESCRIPTION = (
    "Turns one topic into a researched, SEO-briefed long-form article plus "
    "social posts and a newsletter edition, with an editor approving "
    "everything before it is published to WordPress."
)

# pipeline: one graph node per step (graph.py)
MODE: Literal["hierarchy", "pipeline"] = "pipeline"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("WORDPRESS_APP_PASSWORD", "SEMRUSH_API_KEY")

# requiredVariables
VARIABLES: tuple[str, ...] = ("BRAND_NAME", "TARGET_AUDIENCE", "WORDPRESS_HOST")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] managing-editor
    "managing-editor": AgentSpec(
        name="managing_editor",
        description=(
            "Margot: Managing Editor (manager). Capabilities: editing, fact-checking, brand-voice."
        ),
    ),
    # agents[1] researcher
    "researcher": AgentSpec(
        name="researcher",
        description=(
            "Ravi: Research Lead (analyst). Capabilities: desk-research, "
            "statistics, source-evaluation."
        ),
        reports_to="managing-editor",
    ),
    # agents[2] seo-strategist
    "seo-strategist": AgentSpec(
        name="seo_strategist",
        description=(
            "Sana: SEO Strategist (specialist). Capabilities: keyword-research, serp-analysis."
        ),
        reports_to="managing-editor",
    ),
    # agents[3] audience-analyst
    "audience-analyst": AgentSpec(
        name="audience_analyst",
        description=(
            "Aiko: Audience Analyst (analyst). Capabilities: persona-research, question-mining."
        ),
        reports_to="managing-editor",
    ),
    # agents[4] writer
    "writer": AgentSpec(
        name="writer",
        description=("Wes: Senior Writer (specialist). Capabilities: long-form, storytelling."),
        reports_to="managing-editor",
    ),
    # agents[5] social-writer
    "social-writer": AgentSpec(
        name="social_writer",
        description=("Sol: Social Media Writer (specialist). Capabilities: linkedin, x-twitter."),
        reports_to="managing-editor",
    ),
    # agents[6] newsletter-writer
    "newsletter-writer": AgentSpec(
        name="newsletter_writer",
        description=("Nora: Newsletter Editor (specialist). Capabilities: email, summarization."),
        reports_to="managing-editor",
    ),
    # agents[7] publisher
    "publisher": AgentSpec(
        name="publisher",
        description=(
            "Pia: Publishing Coordinator (operations). Capabilities: wordpress, publishing."
        ),
        reports_to="managing-editor",
    ),
}

# pipeline[] in topological order, with the steps each one waits for
PIPELINE: dict[str, StepSpec] = {
    # pipeline[0] research
    "research": StepSpec(agent_key="researcher", label="Gather sources and statistics"),
    # pipeline[1] keyword-brief
    "keyword-brief": StepSpec(
        agent_key="seo-strategist", label="Keyword brief", depends_on=("research",)
    ),
    # pipeline[2] audience-questions
    "audience-questions": StepSpec(
        agent_key="audience-analyst",
        label="Reader questions and objections",
        depends_on=("research",),
    ),
    # pipeline[3] draft-article
    "draft-article": StepSpec(
        agent_key="writer",
        label="Draft the article",
        depends_on=("keyword-brief", "audience-questions"),
    ),
    # pipeline[4] social-posts
    "social-posts": StepSpec(
        agent_key="social-writer", label="LinkedIn and X posts", depends_on=("draft-article",)
    ),
    # pipeline[5] newsletter
    "newsletter": StepSpec(
        agent_key="newsletter-writer", label="Newsletter edition", depends_on=("draft-article",)
    ),
    # pipeline[6] final-edit
    "final-edit": StepSpec(
        agent_key="managing-editor",
        label="Edit the whole package",
        depends_on=("draft-article", "social-posts", "newsletter"),
    ),
    # pipeline[7] publish-draft (no dependsOn: after the previous step)
    "publish-draft": StepSpec(
        agent_key="publisher", label="Create the WordPress draft", depends_on=("final-edit",)
    ),
}
# The step whose answer is the team's result (outputs): the last step nothing depends on.
FINAL_STEP: str | None = "publish-draft"

# gates[]
GATES: dict[str, GateSpec] = {
    # gates[0] editorial-approval
    "editorial-approval": GateSpec(
        name="editorial-approval",
        type="content_generation",
        after_step="final-edit",
        triggers_step="publish-draft",
        fields=("title", "meta_description", "article_markdown", "change_log"),
        trigger="any_approved",
        on_reject="rerun",
        timeout_after="2d",
        timeout_behaviour="escalate",
    ),
}

# agents[].accessPolicy / allowedHosts, enforced by envelope-runtime before any request;
# agents without either get no http_request tool
POLICIES: dict[str, AccessPolicy] = {
    # agents[1] researcher: allowedHosts
    "researcher": AccessPolicy.from_allowed_hosts(
        (
            "*.wikipedia.org",
            "scholar.google.com",
            "www.statista.com",
            "*.europa.eu",
            "www.census.gov",
        )
    ),
    # agents[2] seo-strategist: accessPolicy
    "seo-strategist": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.semrush.com",
                methods=("GET",),
                action="allow",
                reason="Keyword volume, difficulty and SERP data.",
            ),
        ),
    ),
    # agents[7] publisher: accessPolicy
    "publisher": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{WORDPRESS_HOST}}",
                methods=("POST",),
                path_prefix="/wp-json/wp/v2/posts",
                action="allow",
                reason="Create draft posts.",
            ),
            # rules[1]
            PolicyRule(
                host="{{WORDPRESS_HOST}}",
                methods=("DELETE",),
                action="deny",
                reason="Deleting posts is never part of publishing.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 77
