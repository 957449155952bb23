"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonObject, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Chargeback Responder"
SLUG = "chargeback-responder"
VERSION = "0.9.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("STRIPE_WEBHOOK_SECRET", "STRIPE_RESTRICTED_KEY", "SHOPIFY_ADMIN_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("SHOP_DOMAIN", "STORE_NAME", "RETURN_POLICY_URL")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.dispute_id
    dispute_id: str = Field(description="Stripe dispute ID from the webhook payload.")

    # inputs.charge_id
    charge_id: str = Field(description="The disputed charge.")

    # inputs.reason
    reason: str = Field(description="Stripe's dispute reason code, e.g. 'product_not_received'.")


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.evidence_packet
    evidence_packet: JsonObject | None = Field(
        default=None,
        description="Evidence fields in the shape of Stripe's dispute evidence object.",
    )

    # outputs.win_likelihood
    win_likelihood: Literal["low", "medium", "high"] | None = Field(default=None)


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] evidence-collector
    "evidence-collector": AgentSpec(method="evidence_collector"),
    # agents[1] response-writer
    "response-writer": AgentSpec(method="response_writer", reports_to="evidence-collector"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("evidence-collector",)

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# schedule.type "event": `serve-webhook` verifies every request with the HMAC-SHA256 secret
# in this variable (schedule.webhookSecret names this secret)
WEBHOOK_SECRET_ENV = "STRIPE_WEBHOOK_SECRET"
