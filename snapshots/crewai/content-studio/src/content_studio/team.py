"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.gates import GateSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Content Studio"
SLUG = "content-studio"
VERSION = "2.3.1"

# pipeline: the steps run as a CrewAI Flow (flow.py)
MODE: Literal["hierarchy", "pipeline"] = "pipeline"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("WORDPRESS_APP_PASSWORD", "SEMRUSH_API_KEY")

# requiredVariables
VARIABLES: tuple[str, ...] = ("BRAND_NAME", "TARGET_AUDIENCE", "WORDPRESS_HOST")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.topic
    topic: str = Field(
        description=(
            "The subject of the article, e.g. 'How mid-size manufacturers cut "
            "energy costs in 2025'."
        )
    )

    # inputs.primary_keyword
    primary_keyword: str = Field(description="The search phrase the article should rank for.")

    # inputs.word_count
    word_count: int | float | None = Field(
        default=1800, description="Target length of the article in words."
    )

    # inputs.tone
    tone: Literal["authoritative", "conversational", "playful"] | None = Field(
        default="authoritative", description="Voice of the article."
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run (the answer of FINAL_STEP)
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.article_markdown
    article_markdown: str | None = Field(default=None, description="The final article in Markdown.")

    # outputs.social_posts
    social_posts: JsonArray | None = Field(
        default=None, description="LinkedIn and X posts promoting the article."
    )

    # outputs.newsletter_html
    newsletter_html: str | None = Field(
        default=None, description="The newsletter edition, ready to paste into the ESP."
    )

    # outputs.wordpress_post_id
    wordpress_post_id: str | None = Field(
        default=None, description="ID of the draft created in WordPress."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] managing-editor
    "managing-editor": AgentSpec(method="managing_editor"),
    # agents[1] researcher
    "researcher": AgentSpec(method="researcher", reports_to="managing-editor"),
    # agents[2] seo-strategist
    "seo-strategist": AgentSpec(method="seo_strategist", reports_to="managing-editor"),
    # agents[3] audience-analyst
    "audience-analyst": AgentSpec(method="audience_analyst", reports_to="managing-editor"),
    # agents[4] writer
    "writer": AgentSpec(method="writer", reports_to="managing-editor"),
    # agents[5] social-writer
    "social-writer": AgentSpec(method="social_writer", reports_to="managing-editor"),
    # agents[6] newsletter-writer
    "newsletter-writer": AgentSpec(method="newsletter_writer", reports_to="managing-editor"),
    # agents[7] publisher
    "publisher": AgentSpec(method="publisher", reports_to="managing-editor"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("researcher", "seo-strategist", "publisher")

# pipeline[] in topological order, with the steps each one waits for
PIPELINE: dict[str, StepSpec] = {
    # pipeline[0] research
    "research": StepSpec(
        agent_key="researcher", label="Gather sources and statistics", method="research"
    ),
    # pipeline[1] keyword-brief
    "keyword-brief": StepSpec(
        agent_key="seo-strategist",
        label="Keyword brief",
        method="keyword_brief",
        depends_on=("research",),
    ),
    # pipeline[2] audience-questions
    "audience-questions": StepSpec(
        agent_key="audience-analyst",
        label="Reader questions and objections",
        method="audience_questions",
        depends_on=("research",),
    ),
    # pipeline[3] draft-article
    "draft-article": StepSpec(
        agent_key="writer",
        label="Draft the article",
        method="draft_article",
        depends_on=("keyword-brief", "audience-questions"),
    ),
    # pipeline[4] social-posts
    "social-posts": StepSpec(
        agent_key="social-writer",
        label="LinkedIn and X posts",
        method="social_posts",
        depends_on=("draft-article",),
    ),
    # pipeline[5] newsletter
    "newsletter": StepSpec(
        agent_key="newsletter-writer",
        label="Newsletter edition",
        method="newsletter",
        depends_on=("draft-article",),
    ),
    # pipeline[6] final-edit
    "final-edit": StepSpec(
        agent_key="managing-editor",
        label="Edit the whole package",
        method="final_edit",
        depends_on=("draft-article", "social-posts", "newsletter"),
    ),
    # pipeline[7] publish-draft (no dependsOn: after the previous step)
    "publish-draft": StepSpec(
        agent_key="publisher",
        label="Create the WordPress draft",
        method="publish_draft",
        depends_on=("final-edit",),
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


# gates[0] editorial-approval: a record of step final-edit
class FinalEditRecord(BaseModel):
    title: str
    meta_description: str
    article_markdown: str
    change_log: str


# step final-edit answers with the records its gates review
class FinalEditRecords(BaseModel):
    records: list[FinalEditRecord]


RECORD_MODELS: dict[str, type[BaseModel]] = {
    "final-edit": FinalEditRecords,
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
