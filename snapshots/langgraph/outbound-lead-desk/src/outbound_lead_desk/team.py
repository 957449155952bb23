"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule
from envelope_runtime.workspace import Column, DocumentSpec, Trigger

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Outbound Lead Desk"
SLUG = "outbound-lead-desk"
VERSION = "1.2.0"
DESCRIPTION = (
    "Keeps a shared lead list that agents enrich and score and people "
    "qualify; setting a lead to 'ready-for-outreach' runs the team again "
    "to draft a personalised first email."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("APOLLO_API_KEY",)

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "SENDER_NAME", "VALUE_PROPOSITION")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] lead-researcher
    "lead-researcher": AgentSpec(
        name="lead_researcher",
        description=("Leo: Lead Researcher (specialist). Capabilities: prospecting, enrichment."),
    ),
    # agents[1] email-drafter
    "email-drafter": AgentSpec(
        name="email_drafter",
        description=(
            "Emma: Outbound Copywriter (specialist). Capabilities: cold-email, personalisation."
        ),
        reports_to="lead-researcher",
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
    # agents[0] lead-researcher: accessPolicy
    "lead-researcher": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.apollo.io",
                methods=("GET", "POST"),
                path_prefix="/v1/mixed_people/search",
                action="allow",
                reason="Find people at target companies.",
            ),
            # rules[1]
            PolicyRule(
                host="api.apollo.io",
                methods=("GET", "POST"),
                path_prefix="/v1/organizations/enrich",
                action="allow",
                reason="Company enrichment.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37

# workspace: the team's documents, kept in the store across runs (envelope-runtime's rules).
# An agent gets a document's tools (list, read, write) when its prompt names the document;
# when no prompt names it, every agent gets them.
WORKSPACE: dict[str, DocumentSpec] = {
    # workspace[0] leads (type contact-list)
    "leads": DocumentSpec(
        name="leads",
        type="contact-list",
        # columns: name, owner, type; `id` addresses rows, `pii` is masked and never logged
        columns=(
            Column("email", "agent", "string", id=True, pii=True),
            Column("full_name", "agent", "string", pii=True),
            Column("company", "agent", "string"),
            Column("employee_count", "agent", "number"),
            Column("fit_score", "agent", "number"),
            Column("status", "both", "string"),
            Column("qualified_by", "human", "string"),
            Column("do_not_contact", "human", "boolean"),
            Column("draft_email", "agent", "string"),
        ),
        # statusValues: what a status column may hold
        status_values=("new", "enriched", "ready-for-outreach", "drafted", "disqualified"),
        status_columns=("status",),
        # triggers: `watch` fires each once per status change of a non-archived row
        triggers=(
            Trigger("status", "ready-for-outreach", "run"),
            Trigger("status", "disqualified", "notify"),
            Trigger("status", "new", "run"),
        ),
        # the agents whose prompt names the document
        agents=("lead-researcher", "email-drafter"),
    ),
    # workspace[1] messaging-experiments (type content-queue)
    "messaging-experiments": DocumentSpec(
        name="messaging-experiments",
        type="content-queue",
        # columns: name, owner, type; `id` addresses rows, `pii` is masked and never logged
        columns=(
            Column("angle", "human", "string"),
            Column("example_subject", "agent", "string"),
            Column("active", "human", "boolean"),
        ),
        # the agents whose prompt names the document
        agents=("email-drafter",),
    ),
}
