"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.gates import GateSpec, RecordAction
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Engineering Hiring Loop"
SLUG = "engineering-hiring-loop"
VERSION = "1.4.0"

# pipeline: the steps run as a CrewAI Flow (flow.py)
MODE: Literal["hierarchy", "pipeline"] = "pipeline"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("GREENHOUSE_API_KEY", "GOOGLE_CALENDAR_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "HIRING_MANAGER_NAME", "SALARY_BAND_TABLE_URL")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.job_id
    job_id: str = Field(description="Greenhouse job ID of the open requisition.")

    # inputs.role_title
    role_title: str = Field(description="Title of the role, e.g. 'Senior Backend Engineer'.")

    # inputs.must_haves
    must_haves: list[object] = Field(
        description="Non-negotiable requirements from the hiring manager."
    )

    # inputs.shortlist_size
    shortlist_size: int | float | None = Field(
        default=5, description="How many approved candidates release outreach."
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run (the answer of FINAL_STEP)
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.shortlist
    shortlist: JsonArray | None = Field(
        default=None, description="Screened candidates with a score and a rationale."
    )

    # outputs.scheduled_interviews
    scheduled_interviews: JsonArray | None = Field(
        default=None, description="Interview slots booked in Greenhouse."
    )

    # outputs.offer_drafts
    offer_drafts: JsonArray | None = Field(
        default=None, description="Offer letters awaiting signature."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] recruiting-lead
    "recruiting-lead": AgentSpec(method="recruiting_lead"),
    # agents[1] sourcer
    "sourcer": AgentSpec(method="sourcer", reports_to="recruiting-lead"),
    # agents[2] screener
    "screener": AgentSpec(method="screener", reports_to="recruiting-lead"),
    # agents[3] outreach-writer
    "outreach-writer": AgentSpec(method="outreach_writer", reports_to="recruiting-lead"),
    # agents[4] interview-coordinator
    "interview-coordinator": AgentSpec(
        method="interview_coordinator", reports_to="recruiting-lead"
    ),
    # agents[5] debrief-analyst
    "debrief-analyst": AgentSpec(method="debrief_analyst", reports_to="recruiting-lead"),
    # agents[6] offer-drafter
    "offer-drafter": AgentSpec(method="offer_drafter", reports_to="recruiting-lead"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("sourcer", "interview-coordinator", "offer-drafter")

# pipeline[] in topological order, with the steps each one waits for
PIPELINE: dict[str, StepSpec] = {
    # pipeline[0] source
    "source": StepSpec(agent_key="sourcer", label="Build the prospect list", method="source"),
    # pipeline[1] screen (no dependsOn: after the previous step)
    "screen": StepSpec(
        agent_key="screener",
        label="Score against the rubric",
        method="screen",
        depends_on=("source",),
    ),
    # pipeline[2] outreach (no dependsOn: after the previous step)
    "outreach": StepSpec(
        agent_key="outreach-writer",
        label="Write first-contact messages",
        method="outreach",
        depends_on=("screen",),
    ),
    # pipeline[3] schedule-interviews (no dependsOn: after the previous step)
    "schedule-interviews": StepSpec(
        agent_key="interview-coordinator",
        label="Book the interview loop",
        method="schedule_interviews",
        depends_on=("outreach",),
    ),
    # pipeline[4] debrief (no dependsOn: after the previous step)
    "debrief": StepSpec(
        agent_key="debrief-analyst",
        label="Prepare debriefs",
        method="debrief",
        depends_on=("schedule-interviews",),
    ),
    # pipeline[5] draft-offers (no dependsOn: after the previous step)
    "draft-offers": StepSpec(
        agent_key="offer-drafter",
        label="Draft offers",
        method="draft_offers",
        depends_on=("debrief",),
    ),
    # pipeline[6] loop-summary (no dependsOn: after the previous step)
    "loop-summary": StepSpec(
        agent_key="recruiting-lead",
        label="Summarise for the hiring manager",
        method="loop_summary",
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


# gates[0] shortlist-review: a record of step screen
class ScreenRecord(BaseModel):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    candidate_id: str
    name_: str = Field(alias="name")
    overall_recommendation: str
    rationale: str


# step screen answers with the records its gates review
class ScreenRecords(BaseModel):
    records: list[ScreenRecord]


# gates[1] outreach-approval: a record of step outreach
class OutreachRecord(BaseModel):
    candidate_id: str
    subject: str
    message: str


# step outreach answers with the records its gates review
class OutreachRecords(BaseModel):
    records: list[OutreachRecord]


# gates[2] debrief-decision: a record of step debrief
class DebriefRecord(BaseModel):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    candidate_id: str
    name_: str = Field(alias="name")
    competency_summary: str
    flags: str


# step debrief answers with the records its gates review
class DebriefRecords(BaseModel):
    records: list[DebriefRecord]


# gates[3] offer-release: a record of step draft-offers
class DraftOffersRecord(BaseModel):
    candidate_id: str
    level: str
    base_salary: str
    offer_pdf_url: str


# step draft-offers answers with the records its gates review
class DraftOffersRecords(BaseModel):
    records: list[DraftOffersRecord]


RECORD_MODELS: dict[str, type[BaseModel]] = {
    "screen": ScreenRecords,
    "outreach": OutreachRecords,
    "debrief": DebriefRecords,
    "draft-offers": DraftOffersRecords,
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
