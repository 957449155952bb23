"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Support Tier"
SLUG = "support-tier"
VERSION = "1.0.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("ZENDESK_API_KEY", "SLACK_BOT_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("SUPPORT_EMAIL", "COMPANY_NAME", "ZENDESK_SUBDOMAIN")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.ticket_text
    ticket_text: str = Field(description="The raw ticket content to be triaged.")

    # inputs.customer_name
    customer_name: str | None = Field(default=None, description="Customer's name, if known.")

    # inputs.priority_override
    priority_override: Literal["low", "normal", "high", "urgent"] | None = Field(
        default=None,
        description=(
            "Optional manual priority. If omitted, the support lead determines "
            "priority from ticket content."
        ),
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.resolution
    resolution: str | None = Field(
        default=None, description="The final response drafted for the customer."
    )

    # outputs.assigned_agent
    assigned_agent: str | None = Field(
        default=None, description="The key of the agent that handled the ticket."
    )

    # outputs.escalated
    escalated: bool | None = Field(
        default=None, description="Whether the ticket was escalated to a human."
    )

    # outputs.zendesk_ticket_id
    zendesk_ticket_id: str | None = Field(
        default=None, description="The Zendesk ticket ID that was updated."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] support-lead
    "support-lead": AgentSpec(method="support_lead"),
    # agents[1] billing-specialist
    "billing-specialist": AgentSpec(method="billing_specialist", reports_to="support-lead"),
    # agents[2] technical-specialist
    "technical-specialist": AgentSpec(method="technical_specialist", reports_to="support-lead"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("support-lead", "billing-specialist", "technical-specialist")

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
