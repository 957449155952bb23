"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Investment Due Diligence Panel"
SLUG = "investment-due-diligence-panel"
VERSION = "1.2.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ("PITCHBOOK_API_KEY",)

# requiredVariables
VARIABLES: tuple[str, ...] = ("FUND_NAME", "INVESTMENT_THESIS")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.target_company
    target_company: str = Field(description="Legal name of the company under review.")

    # inputs.deal_size_musd
    deal_size_musd: int | float = Field(description="Proposed investment in millions of USD.")

    # inputs.data_room_index
    data_room_index: str = Field(
        description="Index of the virtual data room (folder and file names)."
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.memo_markdown
    memo_markdown: str | None = Field(default=None, description="The investment committee memo.")

    # outputs.red_flags
    red_flags: JsonArray | None = Field(
        default=None, description="Issues that would block or re-price the deal."
    )

    # outputs.recommendation
    recommendation: Literal["proceed", "proceed_with_conditions", "pass"] | None = Field(
        default=None
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] lead-analyst
    "lead-analyst": AgentSpec(method="lead_analyst"),
    # agents[1] market-analyst
    "market-analyst": AgentSpec(method="market_analyst", reports_to="lead-analyst"),
    # agents[2] financial-analyst
    "financial-analyst": AgentSpec(method="financial_analyst", reports_to="lead-analyst"),
    # agents[3] product-analyst
    "product-analyst": AgentSpec(method="product_analyst", reports_to="lead-analyst"),
    # agents[4] customer-analyst
    "customer-analyst": AgentSpec(method="customer_analyst", reports_to="lead-analyst"),
    # agents[5] legal-analyst
    "legal-analyst": AgentSpec(method="legal_analyst", reports_to="lead-analyst"),
    # agents[6] regulatory-analyst
    "regulatory-analyst": AgentSpec(method="regulatory_analyst", reports_to="lead-analyst"),
    # agents[7] team-analyst
    "team-analyst": AgentSpec(method="team_analyst", reports_to="lead-analyst"),
    # agents[8] esg-analyst
    "esg-analyst": AgentSpec(method="esg_analyst", reports_to="lead-analyst"),
    # agents[9] red-team-analyst
    "red-team-analyst": AgentSpec(method="red_team_analyst", reports_to="lead-analyst"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("market-analyst",)

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs
RUN_TIMEOUT_MS = 1800000
AGENT_TIMEOUT_MS = 240000
