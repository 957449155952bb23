"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec
from envelope_runtime.policy import AccessPolicy, PolicyRule

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Investment Due Diligence Panel"
SLUG = "investment-due-diligence-panel"
VERSION = "1.2.0"
DESCRIPTION = (
    "A lead analyst coordinates nine specialists, each deliberately "
    "running on a different model vendor, to produce an independent, "
    "cross-checked due-diligence memo on a private company."
)

# no pipeline: the entry agent runs the team, its reports are its tools
MODE: Literal["hierarchy", "pipeline"] = "hierarchy"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ("PITCHBOOK_API_KEY",)

# requiredVariables
VARIABLES: tuple[str, ...] = ("FUND_NAME", "INVESTMENT_THESIS")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] lead-analyst
    "lead-analyst": AgentSpec(
        name="lead_analyst",
        description="Leonie: Lead Analyst (manager). Capabilities: synthesis, memo-writing.",
    ),
    # agents[1] market-analyst
    "market-analyst": AgentSpec(
        name="market_analyst",
        description=(
            "Mateo: Market Analyst (analyst). Capabilities: tam-sam-som, competitive-landscape."
        ),
        reports_to="lead-analyst",
    ),
    # agents[2] financial-analyst
    "financial-analyst": AgentSpec(
        name="financial_analyst",
        description=(
            "Fiona: Financial Analyst (analyst). Capabilities: "
            "three-statement-model, unit-economics."
        ),
        reports_to="lead-analyst",
    ),
    # agents[3] product-analyst
    "product-analyst": AgentSpec(
        name="product_analyst",
        description=(
            "Priya: Product & Technology Analyst (analyst). Capabilities: "
            "architecture-review, roadmap-assessment."
        ),
        reports_to="lead-analyst",
    ),
    # agents[4] customer-analyst
    "customer-analyst": AgentSpec(
        name="customer_analyst",
        description=(
            "Chidi: Customer Analyst (analyst). Capabilities: cohort-analysis, reference-calls."
        ),
        reports_to="lead-analyst",
    ),
    # agents[5] legal-analyst
    "legal-analyst": AgentSpec(
        name="legal_analyst",
        description=(
            "Lucien: Legal Analyst (analyst). Capabilities: contract-review, ip, litigation."
        ),
        reports_to="lead-analyst",
    ),
    # agents[6] regulatory-analyst
    "regulatory-analyst": AgentSpec(
        name="regulatory_analyst",
        description=(
            "Renata: Regulatory Analyst (analyst). Capabilities: gdpr, eu-ai-act, "
            "sector-regulation."
        ),
        reports_to="lead-analyst",
    ),
    # agents[7] team-analyst
    "team-analyst": AgentSpec(
        name="team_analyst",
        description=(
            "Tomasz: Management Team Analyst (analyst). Capabilities: "
            "leadership-assessment, org-design."
        ),
        reports_to="lead-analyst",
    ),
    # agents[8] esg-analyst
    "esg-analyst": AgentSpec(
        name="esg_analyst",
        description=("Elin: ESG Analyst (analyst). Capabilities: esg, sustainability-reporting."),
        reports_to="lead-analyst",
    ),
    # agents[9] red-team-analyst
    "red-team-analyst": AgentSpec(
        name="red_team_analyst",
        description=("Ruth: Red Team Analyst (critic). Capabilities: devils-advocate, pre-mortem."),
        reports_to="lead-analyst",
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
    # agents[1] market-analyst: accessPolicy
    "market-analyst": AccessPolicy(
        default_action="deny",
        rules=(
            # rules[0]
            PolicyRule(
                host="api.pitchbook.com",
                methods=("GET",),
                action="allow",
                reason="Company, funding and competitor data.",
            ),
        ),
    ),
}

# timeout.runMs, timeout.agentMs
RUN_TIMEOUT_MS = 1800000
AGENT_TIMEOUT_MS = 240000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 37
