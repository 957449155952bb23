"""Team-level data of the Envelope definition (envelope.json) for the static modules."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .envelope_support.checks import InputSpec
from .envelope_support.runtime import AgentSpec, StepSpec

# name, slug, version
NAME = "Event Signup Desk"
SLUG = "event-signup-desk"
VERSION = "1.2.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ()

# requiredVariables
VARIABLES: tuple[str, ...] = ("ORGANISER_NAME",)

# inputs
INPUTS: dict[str, InputSpec] = {
    # inputs.event_name
    "event_name": InputSpec(
        type="string",
        description="The meetup, e.g. 'Rust Berlin, March'.",
        required=True,
        flag="--event-name",
    ),
}


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.screened
    screened: float | None = Field(default=None, description="Signups screened in this run.")


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] screener
    "screener": AgentSpec(method="screener"),
    # agents[1] brief-writer
    "brief-writer": AgentSpec(method="brief_writer", reports_to="screener"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ()

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
