"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Weekly Pipeline Review"
SLUG = "weekly-pipeline-review"
VERSION = "1.0.3"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("HUBSPOT_PRIVATE_APP_TOKEN", "SLACK_BOT_TOKEN")

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "FISCAL_QUARTER_END", "SLACK_CHANNEL", "QUOTA_USD")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.forecast_summary
    forecast_summary: str | None = Field(
        default=None,
        description="Commit, best case and pipeline totals with week-over-week change.",
    )

    # outputs.at_risk_deals
    at_risk_deals: JsonArray | None = Field(
        default=None, description="Deals with a risk reason and a recommended next action."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] revops-analyst
    "revops-analyst": AgentSpec(method="revops_analyst"),
    # agents[1] deal-coach
    "deal-coach": AgentSpec(method="deal_coach", reports_to="revops-analyst"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("revops-analyst", "deal-coach")

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
