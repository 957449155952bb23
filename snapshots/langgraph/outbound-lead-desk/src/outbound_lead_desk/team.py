"""Team-level data of the Envelope definition (envelope.json) for the static modules."""

from __future__ import annotations

from typing import Literal

from .envelope_support.checks import InputSpec
from .envelope_support.policy import AccessPolicy, PolicyRule
from .envelope_support.runtime import AgentSpec, StepSpec

# name, slug, version, description
NAME = "Outbound Lead Desk"
SLUG = "outbound-lead-desk"
VERSION = "1.2.0"
DESCRIPTION = (
    "Keeps a shared lead list that agents enrich and score and people "
    "qualify; setting a lead to 'ready-for-outreach' runs the team again "
    "to draft a personalised first email."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
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

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] lead-researcher
    "lead-researcher": AgentSpec(
        name="lead_researcher",
        description=("Leo: Lead Researcher (specialist). Capabilities: prospecting, enrichment."),
    ),
    # agents[1] email-drafter
    "email-drafter": AgentSpec(
        name="email_drafter",
        description=(
            "Emma: Outbound Copywriter (specialist). Capabilities: cold-email, personalisation."
        ),
        reports_to="lead-researcher",
    ),
}

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}

# agents[].accessPolicy / allowedHosts, enforced by envelope_support/tools.py before any request;
# agents without either get no http_request tool
POLICIES: dict[str, AccessPolicy] = {
    # agents[0] lead-researcher: accessPolicy
    "lead-researcher": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.apollo.io",
                methods=("GET", "POST"),
                path_prefix="/v1/mixed_people/search",
                action="allow",
                reason="Find people at target companies.",
            ),
            # rules[1]
            PolicyRule(
                host="api.apollo.io",
                methods=("GET", "POST"),
                path_prefix="/v1/organizations/enrich",
                action="allow",
                reason="Company enrichment.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
