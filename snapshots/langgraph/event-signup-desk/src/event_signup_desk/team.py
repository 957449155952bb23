"""Team-level data of the Envelope definition (envelope.json) for the static modules."""

from __future__ import annotations

from typing import Literal

from .envelope_support.checks import InputSpec
from .envelope_support.runtime import AgentSpec, StepSpec

# name, slug, version, description
NAME = "Event Signup Desk"
SLUG = "event-signup-desk"
VERSION = "1.2.0"
DESCRIPTION = (
    "Keeps the attendee list and the speaker queue of a meetup: agents "
    "screen signups and draft speaker briefs, organisers approve; an "
    "approved speaker runs the team again to draft the brief, a declined "
    "signup only notifies."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
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

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] screener
    "screener": AgentSpec(
        name="screener",
        description="Signup Screener: Screens signups (screener).",
    ),
    # agents[1] brief-writer
    "brief-writer": AgentSpec(
        name="brief_writer",
        description="Speaker Brief Writer: Drafts speaker briefs (writer).",
        reports_to="screener",
    ),
}

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}

# agents[].accessPolicy / allowedHosts: none, so no agent gets an http_request tool (and
# the export has no policy.py or tools.py)
POLICIES: dict[str, object] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
