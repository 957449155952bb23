"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.workspace import Column, DocumentSpec, Trigger

from .state import INPUT_CHANNELS, TeamInputs

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

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

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

# agents[].accessPolicy / allowedHosts: none, so no agent gets an http_request tool
POLICIES: dict[str, object] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37

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
