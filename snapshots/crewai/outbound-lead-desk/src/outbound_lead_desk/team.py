"""Team-level data of the Envelope definition (envelope.json) for the static modules."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .envelope_support.checks import InputSpec
from .envelope_support.runtime import AgentSpec, StepSpec

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

# inputs
INPUTS: dict[str, InputSpec] = {
    # inputs.ideal_customer_profile
    "ideal_customer_profile": InputSpec(
        type="string",
        description="Who we sell to, e.g. 'EU logistics companies, 200-2000 employees'.",
        required=True,
        flag="--ideal-customer-profile",
    ),
}


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.leads_added
    leads_added: float | None = Field(
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
