"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Incident Response Crew"
SLUG = "incident-response-crew"
VERSION = "4.1.0"
DESCRIPTION = (
    "Investigates a production alert end to end: correlates metrics, logs "
    "and recent deploys, proposes a mitigation, keeps the status page and "
    "the incident channel updated, and drafts the post-mortem."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
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

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] incident-commander
    "incident-commander": AgentSpec(
        name="incident_commander",
        description=(
            "Ines: Incident Commander (manager). Capabilities: coordination, "
            "communication, decision-making."
        ),
    ),
    # agents[1] investigator
    "investigator": AgentSpec(
        name="investigator",
        description=(
            "Ivo: Observability Investigator (specialist). Capabilities: metrics, logs, traces."
        ),
        reports_to="incident-commander",
    ),
    # agents[2] deploy-analyst
    "deploy-analyst": AgentSpec(
        name="deploy_analyst",
        description=(
            "Dora: Deploy Analyst (specialist). Capabilities: git-history, ci-cd, feature-flags."
        ),
        reports_to="incident-commander",
    ),
    # agents[3] comms-writer
    "comms-writer": AgentSpec(
        name="comms_writer",
        description=(
            "Cleo: Incident Communications Writer (specialist). Capabilities: "
            "status-page, customer-communication."
        ),
        reports_to="incident-commander",
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
    # agents[0] incident-commander: allowedHosts
    "incident-commander": AccessPolicy.from_allowed_hosts(
        ("api.pagerduty.com", "events.pagerduty.com", "slack.com")
    ),
    # agents[1] investigator: accessPolicy
    "investigator": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.{{DATADOG_SITE}}",
                methods=("GET",),
                action="allow",
                reason="Metrics, monitors and events.",
            ),
            # rules[1]
            PolicyRule(
                host="api.{{DATADOG_SITE}}",
                methods=("POST",),
                path_prefix="/api/v2/logs/events/search",
                action="allow",
                reason="Log search is a POST.",
            ),
            # rules[2]
            PolicyRule(
                host="api.{{DATADOG_SITE}}",
                methods=("POST",),
                path_prefix="/api/v2/spans/events/search",
                action="allow",
                reason="Trace search is a POST.",
            ),
            # rules[3]
            PolicyRule(
                host="*.{{DATADOG_SITE}}",
                methods=("PUT", "PATCH", "DELETE"),
                action="deny",
                reason="Investigation is read-only.",
            ),
        ),
    ),
    # agents[2] deploy-analyst: accessPolicy
    "deploy-analyst": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.github.com",
                methods=("GET",),
                path_prefix="/repos/{{GITHUB_ORG}}/",
                action="allow",
                reason="Read pull requests, commits and deployments.",
            ),
            # rules[1]
            PolicyRule(
                host="api.github.com",
                methods=("DELETE",),
                action="deny",
                reason="Never delete branches, tags or releases during an incident.",
            ),
            # rules[2]
            PolicyRule(
                host="*.githubusercontent.com",
                methods=("GET", "HEAD"),
                action="allow",
                reason="Raw file contents for diffs.",
            ),
        ),
    ),
    # agents[3] comms-writer: accessPolicy
    "comms-writer": AccessPolicy(
        default_action="allow",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.statuspage.io",
                methods=("DELETE",),
                action="deny",
                reason="Never delete incidents from the public record.",
            ),
            # rules[1]
            PolicyRule(
                host="*.internal.example.com",
                action="deny",
                reason="The comms writer has no business on internal hosts.",
            ),
            # rules[2]
            PolicyRule(
                methods=("PUT", "PATCH"),
                path_prefix="/admin",
                action="deny",
                reason="No admin writes anywhere.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs
RUN_TIMEOUT_MS = 900000
AGENT_TIMEOUT_MS = 120000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
