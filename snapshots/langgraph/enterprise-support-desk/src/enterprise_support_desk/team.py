"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Enterprise Support Desk"
SLUG = "enterprise-support-desk"
VERSION = "3.0.2"
DESCRIPTION = (
    "A three-level support organisation: a head of support routes each "
    "ticket to a billing, technical or trust & safety lead, who delegates "
    "to the right specialist and reviews the answer."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("ZENDESK_API_TOKEN", "STRIPE_RESTRICTED_KEY")

# requiredVariables
VARIABLES: tuple[str, ...] = (
    "COMPANY_NAME",
    "ZENDESK_SUBDOMAIN",
    "STATUS_PAGE_URL",
    "REFUND_LIMIT_USD",
)

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] head-of-support
    "head-of-support": AgentSpec(
        name="head_of_support",
        description=(
            "Helena: Head of Support (manager). Capabilities: triage, routing, quality-review."
        ),
    ),
    # agents[1] billing-lead
    "billing-lead": AgentSpec(
        name="billing_lead",
        description="Bruno: Billing Team Lead (manager). Capabilities: billing, delegation.",
        reports_to="head-of-support",
    ),
    # agents[2] refunds-specialist
    "refunds-specialist": AgentSpec(
        name="refunds_specialist",
        description="Rosa: Refunds Specialist (specialist). Capabilities: refunds, credits.",
        reports_to="billing-lead",
    ),
    # agents[3] invoicing-specialist
    "invoicing-specialist": AgentSpec(
        name="invoicing_specialist",
        description=(
            "Ivan: Invoicing Specialist (specialist). Capabilities: invoices, tax, dunning."
        ),
        reports_to="billing-lead",
    ),
    # agents[4] technical-lead
    "technical-lead": AgentSpec(
        name="technical_lead",
        description=(
            "Tariq: Technical Support Lead (manager). Capabilities: debugging, "
            "delegation, incident-awareness."
        ),
        reports_to="head-of-support",
    ),
    # agents[5] api-specialist
    "api-specialist": AgentSpec(
        name="api_specialist",
        description=(
            "Ada: API Support Engineer (specialist). Capabilities: rest-api, webhooks, sdk."
        ),
        reports_to="technical-lead",
    ),
    # agents[6] integrations-specialist
    "integrations-specialist": AgentSpec(
        name="integrations_specialist",
        description=(
            "Ines: Integrations Specialist (specialist). Capabilities: salesforce, "
            "hubspot, slack, zapier."
        ),
        reports_to="technical-lead",
    ),
    # agents[7] trust-safety-lead
    "trust-safety-lead": AgentSpec(
        name="trust_safety_lead",
        description=(
            "Teodora: Trust & Safety Lead (manager). Capabilities: fraud, privacy, "
            "account-security."
        ),
        reports_to="head-of-support",
    ),
    # agents[8] fraud-analyst
    "fraud-analyst": AgentSpec(
        name="fraud_analyst",
        description=("Felix: Fraud Analyst (analyst). Capabilities: fraud-signals, risk-scoring."),
        reports_to="trust-safety-lead",
    ),
}

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none that can run here (see ENVELOPE_EXPORT.md)
GATES: dict[str, object] = {}

# agents[].accessPolicy / allowedHosts, enforced by envelope-runtime before any request;
# agents without either get no http_request tool
POLICIES: dict[str, AccessPolicy] = {
    # agents[0] head-of-support: accessPolicy
    "head-of-support": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET", "PUT"),
                path_prefix="/api/v2/tickets",
                action="allow",
                reason="Read tickets and set assignee, priority and tags.",
            ),
            # rules[1]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("DELETE",),
                action="deny",
                reason="Ticket deletion is irreversible and disabled for every agent.",
            ),
        ),
    ),
    # agents[1] billing-lead: accessPolicy
    "billing-lead": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET",),
                path_prefix="/api/v2/tickets",
                action="allow",
                reason="Read tickets for context.",
            ),
            # rules[1]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("DELETE",),
                action="deny",
                reason="Ticket deletion is irreversible and disabled for every agent.",
            ),
        ),
    ),
    # agents[2] refunds-specialist: accessPolicy
    "refunds-specialist": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.stripe.com",
                methods=("GET",),
                path_prefix="/v1/charges",
                action="allow",
                reason="Read charges.",
            ),
            # rules[1]
            PolicyRule(
                host="api.stripe.com",
                methods=("GET",),
                path_prefix="/v1/customers",
                action="allow",
                reason="Read the customer's subscriptions.",
            ),
            # rules[2]
            PolicyRule(
                host="api.stripe.com",
                methods=("POST",),
                path_prefix="/v1/refunds",
                action="deny",
                reason="Refunds are issued by a person after approval.",
            ),
        ),
    ),
    # agents[3] invoicing-specialist: accessPolicy
    "invoicing-specialist": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.stripe.com",
                methods=("GET",),
                path_prefix="/v1/invoices",
                action="allow",
                reason="Read invoices.",
            ),
            # rules[1]
            PolicyRule(
                host="api.stripe.com",
                methods=("POST",),
                path_prefix="/v1/invoices",
                action="deny",
                reason="Invoices are reissued by finance.",
            ),
        ),
    ),
    # agents[4] technical-lead: accessPolicy
    "technical-lead": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET",),
                path_prefix="/api/v2/tickets",
                action="allow",
                reason="Read tickets for context.",
            ),
            # rules[1]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("DELETE",),
                action="deny",
                reason="Ticket deletion is irreversible and disabled for every agent.",
            ),
        ),
    ),
    # agents[7] trust-safety-lead: accessPolicy
    "trust-safety-lead": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("GET", "PUT"),
                path_prefix="/api/v2/tickets",
                action="allow",
                reason="Read tickets and restrict their visibility.",
            ),
            # rules[1]
            PolicyRule(
                host="{{ZENDESK_SUBDOMAIN}}.zendesk.com",
                methods=("DELETE",),
                action="deny",
                reason="Ticket deletion is irreversible and disabled for every agent.",
            ),
        ),
    ),
    # agents[8] fraud-analyst: accessPolicy
    "fraud-analyst": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.stripe.com",
                methods=("GET",),
                path_prefix="/v1/",
                action="allow",
                reason="Read-only access to payment activity.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
