"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.connections import Auth, Connection, McpServer, Operation, Param
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Helpdesk Triage"
SLUG = "helpdesk-triage"
VERSION = "1.0.0"

# no pipeline: the hierarchy runs as a hierarchical crew
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ()

# requiredVariables
VARIABLES: tuple[str, ...] = ()


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.ticket_id
    ticket_id: int | float = Field(description="The helpdesk ticket to triage.")


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run
class TeamResult(BaseModel):
    # outputs.category
    category: Literal["billing", "bug", "question", "other"] | None = Field(default=None)

    # outputs.next_step
    next_step: str | None = Field(default=None, description="What the support team should do next.")


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] triager
    "triager": AgentSpec(method="triager"),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ("triager",)

# pipeline: none
PIPELINE: dict[str, StepSpec] = {}
FINAL_STEP: str | None = None

# gates: none
GATES: dict[str, object] = {}
RECORD_MODELS: dict[str, type[BaseModel]] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# --connections: the connection packs an agent got, with their OpenAPI operations (one tool
# each). Every request is checked against the agent's access policy and the pack's apiHosts.
# Credentials are read from the environment at run time, never written here.
CONNECTIONS: dict[str, Connection] = {
    # pack helpdesk (Helpdesk), auth api_key
    "helpdesk": Connection(
        provider="helpdesk",
        display_name="Helpdesk",
        auth=Auth("api_key", "X-Helpdesk-Key", ("HELPDESK_API_KEY",)),
        # provider.apiHosts: the only hosts its credential is sent to
        api_hosts=("helpdesk.example.com",),
        # the OpenAPI document's servers[0].url
        base_url="https://api.helpdesk.example.com/v2",
        operations=(
            # GET /tickets/{ticket_id}
            Operation(
                tool="helpdesk_get_ticket",
                method="GET",
                path="/tickets/{ticket_id}",
                description="Read a ticket: Returns the ticket with its status and requester.",
                params=(
                    Param(
                        "ticket_id",
                        "ticket_id",
                        "path",
                        True,
                        "The ticket's id.",
                        {"type": "integer"},
                    ),
                    Param(
                        "include",
                        "include",
                        "query",
                        False,
                        "Side-load related records.",
                        {"type": "string", "enum": ["comments", "users"]},
                    ),
                ),
            ),
            # POST /tickets/{ticket_id}/comments
            Operation(
                tool="helpdesk_post_tickets_ticket_id_comments",
                method="POST",
                path="/tickets/{ticket_id}/comments",
                description="Add a comment to a ticket",
                params=(
                    Param(
                        "ticket_id",
                        "ticket_id",
                        "path",
                        True,
                        "The ticket's id.",
                        {"type": "integer"},
                    ),
                ),
                body={
                    "type": "object",
                    "properties": {
                        "body": {"type": "string", "description": "The comment's text."},
                        "public": {
                            "type": "boolean",
                            "description": "Whether the customer sees it.",
                        },
                        "tags": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["body"],
                },
                body_required=True,
                body_description="",
            ),
        ),
    ),
}

# --connections: the connection packs with an MCP server an agent got. The server's tools are
# listed from it when the agent is built; every request the MCP client makes is checked against
# the agent's access policy and the pack's apiHosts.
MCP_SERVERS: dict[str, McpServer] = {
    # pack docs-search (Docs Search), auth bearer
    "docs-search": McpServer(
        provider="docs-search",
        display_name="Docs Search",
        auth=Auth("bearer", "Authorization", ("DOCS_SEARCH_TOKEN",)),
        # provider.apiHosts: the only hosts its credential is sent to
        api_hosts=("docs.example.com",),
        # provider.reach.mcp.server
        url="https://mcp.docs.example.com/mcp",
        transport="http",
    ),
}

# Which agent has which packs' tools (the loss report says why).
CONNECTION_AGENTS: dict[str, tuple[str, ...]] = {
    "triager": ("docs-search", "helpdesk"),
}

# The credentials' variables, required at start like requiredSecrets (.env.example).
CONNECTION_SECRETS: tuple[str, ...] = ("DOCS_SEARCH_TOKEN", "HELPDESK_API_KEY")
