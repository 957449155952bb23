"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.gates import GateSpec, RecordAction
from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Engineering Hiring Loop"
SLUG = "engineering-hiring-loop"
VERSION = "1.4.0"
DESCRIPTION = (
    "Sources, screens and schedules engineering candidates in Greenhouse, "
    "with a recruiter or hiring manager signing off at every stage where a "
    "person's career is on the line."
)

# pipeline: one graph node per step (graph.py)
MODE: Literal["hierarchy", "pipeline"] = "pipeline"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("GREENHOUSE_API_KEY", "GOOGLE_CALENDAR_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "HIRING_MANAGER_NAME", "SALARY_BAND_TABLE_URL")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] recruiting-lead
    "recruiting-lead": AgentSpec(
        name="recruiting_lead",
        description=("Rhea: Recruiting Lead (manager). Capabilities: coordination, escalation."),
    ),
    # agents[1] sourcer
    "sourcer": AgentSpec(
        name="sourcer",
        description=(
            "Sam: Technical Sourcer (specialist). Capabilities: sourcing, boolean-search."
        ),
        reports_to="recruiting-lead",
    ),
    # agents[2] screener
    "screener": AgentSpec(
        name="screener",
        description=(
            "Selin: Resume Screener (analyst). Capabilities: screening, structured-evaluation."
        ),
        reports_to="recruiting-lead",
    ),
    # agents[3] outreach-writer
    "outreach-writer": AgentSpec(
        name="outreach_writer",
        description=(
            "Omar: Candidate Outreach Writer (specialist). Capabilities: "
            "copywriting, personalisation."
        ),
        reports_to="recruiting-lead",
    ),
    # agents[4] interview-coordinator
    "interview-coordinator": AgentSpec(
        name="interview_coordinator",
        description="Iris: Interview Coordinator (operations). Capabilities: scheduling.",
        reports_to="recruiting-lead",
    ),
    # agents[5] debrief-analyst
    "debrief-analyst": AgentSpec(
        name="debrief_analyst",
        description="Dana: Debrief Analyst (analyst). Capabilities: synthesis, bias-check.",
        reports_to="recruiting-lead",
    ),
    # agents[6] offer-drafter
    "offer-drafter": AgentSpec(
        name="offer_drafter",
        description="Otto: Offer Drafter (specialist). Capabilities: offers, compensation.",
        reports_to="recruiting-lead",
    ),
}

# pipeline[] in topological order, with the steps each one waits for
PIPELINE: dict[str, StepSpec] = {
    # pipeline[0] source
    "source": StepSpec(agent_key="sourcer", label="Build the prospect list"),
    # pipeline[1] screen (no dependsOn: after the previous step)
    "screen": StepSpec(
        agent_key="screener", label="Score against the rubric", depends_on=("source",)
    ),
    # pipeline[2] outreach (no dependsOn: after the previous step)
    "outreach": StepSpec(
        agent_key="outreach-writer", label="Write first-contact messages", depends_on=("screen",)
    ),
    # pipeline[3] schedule-interviews (no dependsOn: after the previous step)
    "schedule-interviews": StepSpec(
        agent_key="interview-coordinator", label="Book the interview loop", depends_on=("outreach",)
    ),
    # pipeline[4] debrief (no dependsOn: after the previous step)
    "debrief": StepSpec(
        agent_key="debrief-analyst", label="Prepare debriefs", depends_on=("schedule-interviews",)
    ),
    # pipeline[5] draft-offers (no dependsOn: after the previous step)
    "draft-offers": StepSpec(
        agent_key="offer-drafter", label="Draft offers", depends_on=("debrief",)
    ),
    # pipeline[6] loop-summary (no dependsOn: after the previous step)
    "loop-summary": StepSpec(
        agent_key="recruiting-lead",
        label="Summarise for the hiring manager",
        depends_on=("draft-offers",),
    ),
}
# The step whose answer is the team's result (outputs): the last step nothing depends on.
FINAL_STEP: str | None = "loop-summary"

# gates[]
GATES: dict[str, GateSpec] = {
    # gates[0] shortlist-review
    "shortlist-review": GateSpec(
        name="shortlist-review",
        type="classification",
        after_step="screen",
        triggers_step="outreach",
        fields=("candidate_id", "name", "overall_recommendation", "rationale"),
        trigger="threshold",
        threshold_count=5,
        on_reject="skip",
        actions=(
            RecordAction(label="Advance", verb="approve"),
            RecordAction(label="Not now", verb="skip"),
            RecordAction(label="Decline", verb="reject"),
        ),
        timeout_after="72h",
        timeout_behaviour="proceed",
    ),
    # gates[1] outreach-approval
    "outreach-approval": GateSpec(
        name="outreach-approval",
        type="content_generation",
        after_step="outreach",
        triggers_step="schedule-interviews",
        fields=("candidate_id", "subject", "message"),
        trigger="any_approved",
        on_reject="rerun",
        actions=(
            RecordAction(label="Send", verb="approve"),
            RecordAction(label="Rewrite", verb="reject"),
            RecordAction(label="Undo decision", verb="reset"),
        ),
        timeout_after="1d",
        timeout_behaviour="escalate",
    ),
    # gates[2] debrief-decision
    "debrief-decision": GateSpec(
        name="debrief-decision",
        type="decision",
        after_step="debrief",
        triggers_step="draft-offers",
        fields=("candidate_id", "name", "competency_summary", "flags"),
        trigger="all_resolved",
        on_reject="escalate",
        timeout_after="5d",
        timeout_behaviour="halt",
    ),
    # gates[3] offer-release
    "offer-release": GateSpec(
        name="offer-release",
        type="action",
        after_step="draft-offers",
        triggers_step="loop-summary",
        fields=("candidate_id", "level", "base_salary", "offer_pdf_url"),
        trigger="scheduled",
        on_reject="halt",
        actions=(
            RecordAction(label="Release offer", verb="approve"),
            RecordAction(label="Withdraw", verb="reject"),
        ),
        timeout_after="30m",
        timeout_behaviour="halt",
    ),
}

# agents[].accessPolicy / allowedHosts, enforced by envelope-runtime before any request;
# agents without either get no http_request tool
POLICIES: dict[str, AccessPolicy] = {
    # agents[1] sourcer: accessPolicy
    "sourcer": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="harvest.greenhouse.io",
                methods=("GET",),
                path_prefix="/v1/candidates",
                action="allow",
                reason="Read the prospect pool and past applicants.",
            ),
            # rules[1]
            PolicyRule(
                host="harvest.greenhouse.io",
                methods=("GET",),
                path_prefix="/v1/jobs",
                action="allow",
                reason="Read the requisition.",
            ),
        ),
    ),
    # agents[4] interview-coordinator: accessPolicy
    "interview-coordinator": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="www.googleapis.com",
                methods=("GET", "POST"),
                path_prefix="/calendar/v3",
                action="allow",
                reason="Read panel availability and create events.",
            ),
            # rules[1]
            PolicyRule(
                host="harvest.greenhouse.io",
                methods=("GET", "POST", "PATCH"),
                path_prefix="/v1/applications",
                action="allow",
                reason="Attach interview kits and move stages.",
            ),
            # rules[2]
            PolicyRule(
                host="harvest.greenhouse.io",
                methods=("DELETE",),
                action="deny",
                reason="Deleting applications would destroy the audit trail.",
            ),
        ),
    ),
    # agents[6] offer-drafter: accessPolicy
    "offer-drafter": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="harvest.greenhouse.io",
                methods=("GET", "POST"),
                path_prefix="/v1/offers",
                action="allow",
                reason="Create offer drafts.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 109
