"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Support Tier"
SLUG = "support-tier"
VERSION = "1.0.0"
DESCRIPTION = (
    "A three-tier support team that triages incoming tickets, handles "
    "billing questions, and resolves technical issues — escalating to a "
    "human only when needed."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("ZENDESK_API_KEY", "SLACK_BOT_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("SUPPORT_EMAIL", "COMPANY_NAME", "ZENDESK_SUBDOMAIN")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] support-lead
    "support-lead": AgentSpec(
        name="support_lead",
        description=(
            "Support Lead: Head of Support (manager). Capabilities: triage, escalation, delegation."
        ),
    ),
    # agents[1] billing-specialist
    "billing-specialist": AgentSpec(
        name="billing_specialist",
        description=(
            "Billing Specialist: Billing Support Agent (specialist). Capabilities: "
            "billing, subscriptions, refunds."
        ),
        reports_to="support-lead",
    ),
    # agents[2] technical-specialist
    "technical-specialist": AgentSpec(
        name="technical_specialist",
        description=(
            "Technical Specialist: Technical Support Agent (specialist). "
            "Capabilities: troubleshooting, integrations, documentation."
        ),
        reports_to="support-lead",
    ),
}

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}

# agents[].accessPolicy / allowedHosts, enforced by envelope-runtime before any request;
# agents without either get no http_request tool
POLICIES: dict[str, AccessPolicy] = {
    # agents[0] support-lead: accessPolicy
    "support-lead": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET",),
                action="allow",
                reason="Read ticket details and history.",
            ),
            # rules[1]
            PolicyRule(
                host="hooks.slack.com",
                methods=("POST",),
                action="allow",
                reason="Post escalation alerts to the support Slack channel.",
            ),
        ),
    ),
    # agents[1] billing-specialist: accessPolicy
    "billing-specialist": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET", "POST", "PUT"),
                path_prefix="/api/v2/tickets",
                action="allow",
                reason="Read tickets and post replies.",
            ),
            # rules[1]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("DELETE",),
                action="deny",
                reason="Ticket deletion is irreversible — disabled for all agents.",
            ),
        ),
    ),
    # agents[2] technical-specialist: accessPolicy
    "technical-specialist": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET", "POST", "PUT"),
                path_prefix="/api/v2/tickets",
                action="allow",
                reason="Read tickets and post replies.",
            ),
            # rules[1]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("DELETE",),
                action="deny",
                reason="Ticket deletion is irreversible — disabled for all agents.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
