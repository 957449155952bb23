"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Chargeback Responder"
SLUG = "chargeback-responder"
VERSION = "0.9.0"
DESCRIPTION = (
    "Starts when Stripe sends a charge.dispute.created webhook, gathers "
    "the evidence for the disputed order from Shopify and the support "
    "inbox, and drafts the dispute response for a finance person to submit."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("STRIPE_WEBHOOK_SECRET", "STRIPE_RESTRICTED_KEY", "SHOPIFY_ADMIN_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("SHOP_DOMAIN", "STORE_NAME", "RETURN_POLICY_URL")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] evidence-collector
    "evidence-collector": AgentSpec(
        name="evidence_collector",
        description=(
            "Eve: Dispute Evidence Collector (specialist). Capabilities: stripe, "
            "shopify, evidence-gathering."
        ),
    ),
    # agents[1] response-writer
    "response-writer": AgentSpec(
        name="response_writer",
        description=(
            "Rhys: Dispute Response Writer (specialist). Capabilities: writing, card-network-rules."
        ),
        reports_to="evidence-collector",
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
    # agents[0] evidence-collector: accessPolicy
    "evidence-collector": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.stripe.com",
                methods=("GET",),
                path_prefix="/v1/",
                action="allow",
                reason="Read the dispute, charge and customer.",
            ),
            # rules[1]
            PolicyRule(
                host="{{SHOP_DOMAIN}}",
                methods=("GET",),
                path_prefix="/admin/api/",
                action="allow",
                reason="Read the order and its fulfillments.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37

# schedule.type "event": `serve-webhook` verifies every request with the HMAC-SHA256 secret
# in this variable (schedule.webhookSecret names this secret)
WEBHOOK_SECRET_ENV = "STRIPE_WEBHOOK_SECRET"
