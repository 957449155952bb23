"""Team-level data of the Envelope definition (envelope.json), as envelope-runtime reads it."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.gates import GateSpec, RecordAction
from envelope_runtime.input_spec import input_specs
from envelope_runtime.langgraph.runtime import AgentSpec, StepSpec

from .state import INPUT_CHANNELS, TeamInputs

# name, slug, version, description
NAME = "Vendor Onboarding Review"
SLUG = "parallel-gates"
VERSION = "1.1.0"
DESCRIPTION = (
    "Reviews a new software vendor in two parallel tracks, contract "
    "redlines and a security assessment, each signed off by its own human "
    "reviewer before the onboarding decision is written."
)

# pipeline: one graph node per step (graph.py)
MODE: Literal["hierarchy", "pipeline"] = "pipeline"

# requiredSecrets: values are read from the environment, never written to state
SECRETS: tuple[str, ...] = ()

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "RISK_APPETITE")

# inputs: each input's type, default and runner flag, by key, as envelope-runtime reads them
# from the graph's input schema (state.py's TeamInputs, which the runner checks inputs with)
INPUTS = input_specs(TeamInputs, INPUT_CHANNELS)

# agents[]: key -> identifier (the model's name for it), description, manager
AGENTS: dict[str, AgentSpec] = {
    # agents[0] procurement-lead
    "procurement-lead": AgentSpec(
        name="procurement_lead",
        description=(
            "Priya: Procurement Lead (manager). Capabilities: vendor-management, negotiation."
        ),
    ),
    # agents[1] contract-analyst
    "contract-analyst": AgentSpec(
        name="contract_analyst",
        description=(
            "Colm: Contract Analyst (specialist). Capabilities: contract-review, redlining."
        ),
        reports_to="procurement-lead",
    ),
    # agents[2] security-analyst
    "security-analyst": AgentSpec(
        name="security_analyst",
        description=("Sasha: Security Analyst (analyst). Capabilities: vendor-risk, soc2-review."),
        reports_to="procurement-lead",
    ),
    # agents[3] onboarding-coordinator
    "onboarding-coordinator": AgentSpec(
        name="onboarding_coordinator",
        description=("Omar: Onboarding Coordinator (operations). Capabilities: summarization."),
        reports_to="procurement-lead",
    ),
}

# pipeline[] in topological order, with the steps each one waits for
PIPELINE: dict[str, StepSpec] = {
    # pipeline[0] intake
    "intake": StepSpec(agent_key="procurement-lead", label="Write the intake brief"),
    # pipeline[1] contract-redlines
    "contract-redlines": StepSpec(
        agent_key="contract-analyst", label="Propose contract redlines", depends_on=("intake",)
    ),
    # pipeline[2] security-findings
    "security-findings": StepSpec(
        agent_key="security-analyst", label="Assess security findings", depends_on=("intake",)
    ),
    # pipeline[3] vendor-letter
    "vendor-letter": StepSpec(
        agent_key="procurement-lead",
        label="Draft the cover letter for the redlines",
        depends_on=("contract-redlines",),
    ),
    # pipeline[4] onboarding-decision
    "onboarding-decision": StepSpec(
        agent_key="onboarding-coordinator",
        label="Write the onboarding decision",
        depends_on=("contract-redlines", "security-findings"),
    ),
}
# The step whose answer is the team's result (outputs): the last step nothing depends on.
FINAL_STEP: str | None = "onboarding-decision"

# gates[]
GATES: dict[str, GateSpec] = {
    # gates[0] redline-approval
    "redline-approval": GateSpec(
        name="redline-approval",
        type="content_generation",
        after_step="contract-redlines",
        triggers_step="onboarding-decision",
        fields=("clause", "proposed_text", "rationale"),
        trigger="any_approved",
        on_reject="rerun",
        timeout_after="2d",
        timeout_behaviour="escalate",
    ),
    # gates[1] risk-triage
    "risk-triage": GateSpec(
        name="risk-triage",
        type="classification",
        after_step="security-findings",
        triggers_step="onboarding-decision",
        fields=("finding_id", "finding", "severity", "mitigation"),
        trigger="all_resolved",
        on_reject="escalate",
        actions=(
            RecordAction(label="Accept risk", verb="approve"),
            RecordAction(label="Not applicable", verb="skip"),
            RecordAction(label="Needs mitigation", verb="reject"),
        ),
        timeout_after="4h",
        timeout_behaviour="halt",
    ),
}

# agents[].accessPolicy / allowedHosts: none, so no agent gets an http_request tool
POLICIES: dict[str, object] = {}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000

# Super-steps per invocation before LangGraph stops a run (a guard against loops).
RECURSION_LIMIT = 77
