"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Inventory Restock Watch"
SLUG = "inventory-restock-watch"
VERSION = "1.1.0"
DESCRIPTION = (
    "Checks stock levels every six hours and, only when a fast-moving SKU "
    "is about to run out, drafts purchase orders for the supplier and a "
    "heads-up for the merchandising team."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("SHOPIFY_ADMIN_TOKEN",)

# requiredVariables
VARIABLES: tuple[str, ...] = (
    "WAREHOUSE_NAME",
    "REORDER_COVER_DAYS",
    "SHOP_DOMAIN",
    "SUPPLIER_LEAD_TIMES_URL",
)

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] inventory-planner
    "inventory-planner": AgentSpec(
        name="inventory_planner",
        description=(
            "Ingrid: Inventory Planner (analyst). Capabilities: demand-forecasting, reorder-points."
        ),
    ),
    # agents[1] purchasing-assistant
    "purchasing-assistant": AgentSpec(
        name="purchasing_assistant",
        description=(
            "Pablo: Purchasing Assistant (specialist). Capabilities: "
            "purchase-orders, supplier-communication."
        ),
        reports_to="inventory-planner",
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
    # agents[0] inventory-planner: accessPolicy
    "inventory-planner": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="{{SHOP_DOMAIN}}",
                methods=("GET",),
                path_prefix="/admin/api/",
                action="allow",
                reason="Read inventory levels, products and orders.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37

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
