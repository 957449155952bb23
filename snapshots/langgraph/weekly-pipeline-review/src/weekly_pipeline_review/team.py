"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Weekly Pipeline Review"
SLUG = "weekly-pipeline-review"
VERSION = "1.0.3"
DESCRIPTION = (
    "Every Monday morning, reviews the HubSpot sales pipeline, flags "
    "stalled and at-risk deals, and posts a forecast summary with "
    "recommended next actions to the sales leadership Slack channel."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("HUBSPOT_PRIVATE_APP_TOKEN", "SLACK_BOT_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "FISCAL_QUARTER_END", "SLACK_CHANNEL", "QUOTA_USD")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] revops-analyst
    "revops-analyst": AgentSpec(
        name="revops_analyst",
        description=(
            "Rami: Revenue Operations Analyst (analyst). Capabilities: forecasting, crm-hygiene."
        ),
    ),
    # agents[1] deal-coach
    "deal-coach": AgentSpec(
        name="deal_coach",
        description="Dee: Deal Coach (specialist). Capabilities: coaching, meddpicc.",
        reports_to="revops-analyst",
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
    # agents[0] revops-analyst: accessPolicy
    "revops-analyst": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.hubapi.com",
                methods=("GET", "POST"),
                path_prefix="/crm/v3/objects/deals",
                action="allow",
                reason="Read and search deals (search is a POST).",
            ),
            # rules[1]
            PolicyRule(
                host="api.hubapi.com",
                methods=("GET",),
                path_prefix="/crm/v3/owners",
                action="allow",
                reason="Resolve deal owners.",
            ),
            # rules[2]
            PolicyRule(
                host="api.hubapi.com",
                methods=("PATCH", "PUT", "DELETE"),
                action="deny",
                reason="This team reports on the pipeline; it never edits deals.",
            ),
        ),
    ),
    # agents[1] deal-coach: accessPolicy
    "deal-coach": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="slack.com",
                methods=("POST",),
                path_prefix="/api/chat.postMessage",
                action="allow",
                reason="Post the weekly summary.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
