"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.connections import Auth, Connection, McpServer, Operation, Param
from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Helpdesk Triage"
SLUG = "helpdesk-triage"
VERSION = "1.0.0"
DESCRIPTION = (
    "Reads a new support ticket from the helpdesk, and adds an internal "
    "comment with its category and a suggested next step."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ()

# requiredVariables
VARIABLES: tuple[str, ...] = ()

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] triager
    "triager": AgentSpec(
        name="triager",
        description="Tess: Ticket Triager (specialist).",
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
    # agents[0] triager: accessPolicy
    "triager": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.helpdesk.example.com",
                methods=("GET", "POST"),
                path_prefix="/v2/tickets/",
                action="allow",
                reason="Read tickets and comment on them.",
            ),
            # rules[1]
            PolicyRule(
                host="mcp.docs.example.com",
                methods=("POST", "GET", "DELETE"),
                path_prefix="/mcp",
                action="allow",
                reason="Look the product up in the docs (the Docs Search MCP server).",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37

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
