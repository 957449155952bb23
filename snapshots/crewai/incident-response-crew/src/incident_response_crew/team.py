"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Incident Response Crew"
SLUG = "incident-response-crew"
VERSION = "4.1.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = (
    "DATADOG_API_KEY",
    "DATADOG_APP_KEY",
    "PAGERDUTY_TOKEN",
    "GITHUB_TOKEN",
    "STATUSPAGE_API_KEY",
)

# requiredVariables
VARIABLES: tuple[str, ...] = (
    "GITHUB_ORG",
    "STATUSPAGE_PAGE_ID",
    "DATADOG_SITE",
    "INCIDENT_CHANNEL",
)


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.alert_title
    alert_title: str = Field(description="Title of the triggering alert.")

    # inputs.service
    service: str = Field(description="Affected service name as used in Datadog and GitHub.")

    # inputs.severity
    severity: Literal["sev1", "sev2", "sev3"] = Field()


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.root_cause_hypotheses
    root_cause_hypotheses: JsonArray | None = Field(
        default=None, description="Ranked hypotheses with evidence."
    )

    # outputs.mitigation
    mitigation: str | None = Field(
        default=None, description="The proposed mitigation and its rollback."
    )

    # outputs.postmortem_markdown
    postmortem_markdown: str | None = Field(default=None, description="Draft post-mortem.")


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] incident-commander
    "incident-commander": AgentSpec(method="incident_commander"),
    # agents[1] investigator
    "investigator": AgentSpec(method="investigator", reports_to="incident-commander"),
    # agents[2] deploy-analyst
    "deploy-analyst": AgentSpec(method="deploy_analyst", reports_to="incident-commander"),
    # agents[3] comms-writer
    "comms-writer": AgentSpec(method="comms_writer", reports_to="incident-commander"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("incident-commander", "investigator", "deploy-analyst", "comms-writer")

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs
RUN_TIMEOUT_MS = 900000
AGENT_TIMEOUT_MS = 120000
