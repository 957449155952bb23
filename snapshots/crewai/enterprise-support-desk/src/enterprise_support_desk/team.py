"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Enterprise Support Desk"
SLUG = "enterprise-support-desk"
VERSION = "3.0.2"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("ZENDESK_API_TOKEN", "STRIPE_RESTRICTED_KEY")

# requiredVariables
VARIABLES: tuple[str, ...] = (
    "COMPANY_NAME",
    "ZENDESK_SUBDOMAIN",
    "STATUS_PAGE_URL",
    "REFUND_LIMIT_USD",
)


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.ticket_id
    ticket_id: str = Field(description="Zendesk ticket ID.")

    # inputs.ticket_text
    ticket_text: str = Field(description="Subject and body of the ticket.")

    # inputs.account_tier
    account_tier: Literal["starter", "growth", "enterprise"] = Field(
        description="The customer's plan."
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.reply
    reply: str | None = Field(default=None, description="The reply posted to the customer.")

    # outputs.handled_by
    handled_by: str | None = Field(
        default=None, description="Key of the specialist who wrote the reply."
    )

    # outputs.refund_proposed
    refund_proposed: bool | None = Field(
        default=None, description="Whether a refund was proposed for human approval."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] head-of-support
    "head-of-support": AgentSpec(method="head_of_support"),
    # agents[1] billing-lead
    "billing-lead": AgentSpec(method="billing_lead", reports_to="head-of-support"),
    # agents[2] refunds-specialist
    "refunds-specialist": AgentSpec(method="refunds_specialist", reports_to="billing-lead"),
    # agents[3] invoicing-specialist
    "invoicing-specialist": AgentSpec(method="invoicing_specialist", reports_to="billing-lead"),
    # agents[4] technical-lead
    "technical-lead": AgentSpec(method="technical_lead", reports_to="head-of-support"),
    # agents[5] api-specialist
    "api-specialist": AgentSpec(method="api_specialist", reports_to="technical-lead"),
    # agents[6] integrations-specialist
    "integrations-specialist": AgentSpec(
        method="integrations_specialist", reports_to="technical-lead"
    ),
    # agents[7] trust-safety-lead
    "trust-safety-lead": AgentSpec(method="trust_safety_lead", reports_to="head-of-support"),
    # agents[8] fraud-analyst
    "fraud-analyst": AgentSpec(method="fraud_analyst", reports_to="trust-safety-lead"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = (
    "head-of-support",
    "billing-lead",
    "refunds-specialist",
    "invoicing-specialist",
    "technical-lead",
    "trust-safety-lead",
    "fraud-analyst",
)

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none that can run here (see ENVELOPE_EXPORT.md)
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
