"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import Number, input_specs
from envelope_runtime.workspace import Column, DocumentSpec, Trigger
from pydantic import BaseModel, ConfigDict, Field

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


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.event_name
    event_name: str = Field(description="The meetup, e.g. 'Rust Berlin, March'.")


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.screened
    screened: Number | None = Field(default=None, description="Signups screened in this run.")


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

# workspace: the team's documents, kept in the store across runs (envelope-runtime's rules).
# An agent gets a document's tools (list, read, write) when its prompt names the document;
# when no prompt names it, every agent gets them.
WORKSPACE: dict[str, DocumentSpec] = {
    # workspace[0] attendees (type contact-list)
    "attendees": DocumentSpec(
        name="attendees",
        type="contact-list",
        # columns: name, owner, type; `id` addresses rows, `pii` is masked and never logged
        columns=(
            Column("email", "agent", "string", id=True, pii=True),
            Column("full_name", "agent", "string", pii=True),
            Column("company", "agent", "string"),
            Column("status", "both", "string"),
            Column("screening_note", "agent", "string"),
            Column("organiser_note", "human", "string"),
            Column("checked_in", "human", "boolean"),
        ),
        # statusValues: what a status column may hold
        status_values=("pending", "confirmed", "incomplete", "declined"),
        status_columns=("status",),
        # triggers: `watch` fires each once per status change of a non-archived row
        triggers=(Trigger("status", "declined", "notify"),),
        # the agents whose prompt names the document
        agents=("screener",),
    ),
    # workspace[1] speaker-queue (type content-queue)
    "speaker-queue": DocumentSpec(
        name="speaker-queue",
        type="content-queue",
        # columns: name, owner, type; `id` addresses rows, `pii` is masked and never logged
        columns=(
            Column("talk_id", "human", "string", id=True),
            Column("speaker_email", "human", "string", pii=True),
            Column("title", "both", "string"),
            Column("brief", "agent", "string"),
            Column("duration_min", "human", "number"),
            Column("status", "both", "string"),
        ),
        # statusValues: what a status column may hold
        status_values=("proposed", "approved", "briefed", "rejected"),
        status_columns=("status",),
        # triggers: `watch` fires each once per status change of a non-archived row
        triggers=(
            Trigger("status", "approved", "run"),
            Trigger("status", "rejected", "notify"),
        ),
        # the agents whose prompt names the document
        agents=("brief-writer",),
    ),
}
