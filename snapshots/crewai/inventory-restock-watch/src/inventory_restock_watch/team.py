"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Inventory Restock Watch"
SLUG = "inventory-restock-watch"
VERSION = "1.1.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("SHOPIFY_ADMIN_TOKEN",)

# requiredVariables
VARIABLES: tuple[str, ...] = (
    "WAREHOUSE_NAME",
    "REORDER_COVER_DAYS",
    "SHOP_DOMAIN",
    "SUPPLIER_LEAD_TIMES_URL",
)


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.purchase_orders
    purchase_orders: JsonArray | None = Field(
        default=None, description="Draft purchase orders grouped by supplier."
    )

    # outputs.merch_alert
    merch_alert: str | None = Field(default=None, description="Message for the merchandising team.")


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] inventory-planner
    "inventory-planner": AgentSpec(method="inventory_planner"),
    # agents[1] purchasing-assistant
    "purchasing-assistant": AgentSpec(
        method="purchasing_assistant", reports_to="inventory-planner"
    ),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("inventory-planner",)

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# schedule.type "condition": every schedule.conditionInterval `poll` asks
# schedule.conditionPrompt of the condition agent's model (the cheapest the team declares;
# MODEL_OVERRIDE still wins) and runs the team only on a yes. Interval, condition agent:
# 6h
# agents[0] inventory-planner
CONDITION_INTERVAL_S = 21600
CONDITION_AGENT = "inventory-planner"
CONDITION_PROMPT: str | None = (
    "Using the latest inventory snapshot for {{WAREHOUSE_NAME}}, answer "
    "YES if any SKU in the top 200 by 30-day sales has fewer than "
    "{{REORDER_COVER_DAYS}} days of cover at its current sales velocity "
    "and no open purchase order; otherwise answer NO."
)
