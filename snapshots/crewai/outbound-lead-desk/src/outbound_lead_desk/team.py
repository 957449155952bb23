"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import Number, input_specs
from envelope_runtime.workspace import Column, DocumentSpec, Trigger
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Outbound Lead Desk"
SLUG = "outbound-lead-desk"
VERSION = "1.2.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("APOLLO_API_KEY",)

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "SENDER_NAME", "VALUE_PROPOSITION")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.ideal_customer_profile
    ideal_customer_profile: str = Field(
        description="Who we sell to, e.g. 'EU logistics companies, 200-2000 employees'."
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.leads_added
    leads_added: Number | None = Field(
        default=None, description="New rows written to the leads document in this run."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] lead-researcher
    "lead-researcher": AgentSpec(method="lead_researcher"),
    # agents[1] email-drafter
    "email-drafter": AgentSpec(method="email_drafter", reports_to="lead-researcher"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("lead-researcher",)

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# workspace: the team's documents, kept in the store across runs (envelope-runtime's rules).
# An agent gets a document's tools (list, read, write) when its prompt names the document;
# when no prompt names it, every agent gets them.
WORKSPACE: dict[str, DocumentSpec] = {
    # workspace[0] leads (type contact-list)
    "leads": DocumentSpec(
        name="leads",
        type="contact-list",
        # columns: name, owner, type; `id` addresses rows, `pii` is masked and never logged
        columns=(
            Column("email", "agent", "string", id=True, pii=True),
            Column("full_name", "agent", "string", pii=True),
            Column("company", "agent", "string"),
            Column("employee_count", "agent", "number"),
            Column("fit_score", "agent", "number"),
            Column("status", "both", "string"),
            Column("qualified_by", "human", "string"),
            Column("do_not_contact", "human", "boolean"),
            Column("draft_email", "agent", "string"),
        ),
        # statusValues: what a status column may hold
        status_values=("new", "enriched", "ready-for-outreach", "drafted", "disqualified"),
        status_columns=("status",),
        # triggers: `watch` fires each once per status change of a non-archived row
        triggers=(
            Trigger("status", "ready-for-outreach", "run"),
            Trigger("status", "disqualified", "notify"),
            Trigger("status", "new", "run"),
        ),
        # the agents whose prompt names the document
        agents=("lead-researcher", "email-drafter"),
    ),
    # workspace[1] messaging-experiments (type content-queue)
    "messaging-experiments": DocumentSpec(
        name="messaging-experiments",
        type="content-queue",
        # columns: name, owner, type; `id` addresses rows, `pii` is masked and never logged
        columns=(
            Column("angle", "human", "string"),
            Column("example_subject", "agent", "string"),
            Column("active", "human", "boolean"),
        ),
        # the agents whose prompt names the document
        agents=("email-drafter",),
    ),
}
