"""Team-level data of the Envelope definition (envelope.json): what envelope-runtime's
`envelope_runtime.crewai` reads of this team, through its `TeamPackage`."""

from __future__ import annotations

from typing import Literal

from envelope_runtime.crewai.json_text import JsonArray, describe_json_text
from envelope_runtime.crewai.runtime import AgentSpec, StepSpec
from envelope_runtime.gates import GateSpec, RecordAction
from envelope_runtime.input_spec import input_specs
from pydantic import BaseModel, ConfigDict, Field

# name, slug, version
NAME = "Vendor Onboarding Review"
SLUG = "parallel-gates"
VERSION = "1.1.0"

# pipeline: the steps run as a CrewAI Flow (flow.py)
MODE: Literal["hierarchy", "pipeline"] = "pipeline"

# requiredSecrets: values are read from the environment, never written anywhere
SECRETS: tuple[str, ...] = ()

# requiredVariables
VARIABLES: tuple[str, ...] = ("COMPANY_NAME", "RISK_APPETITE")


# inputs: the run's inputs, checked by this model before the run starts (a flag each,
# --inputs JSON, INPUT_<NAME> variables or inputs.json: see README)
class TeamInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    # inputs.vendor_name
    vendor_name: str = Field(description="Legal name of the vendor, e.g. 'Acme Analytics Ltd'.")

    # inputs.contract_text
    contract_text: str = Field(
        description="The vendor's proposed master services agreement, as plain text."
    )

    # inputs.data_classes
    data_classes: list[object] | None = Field(
        default=["customer PII"],
        description=("Kinds of data the vendor will process, e.g. ['customer PII', 'usage logs']."),
    )

    # inputs.annual_value_usd
    annual_value_usd: int | float | None = Field(
        default=None, description="Expected annual contract value in US dollars."
    )


# each input's type, default and runner flag, as envelope-runtime reads them
INPUTS = input_specs(TeamInputs)


# outputs: the final result of a run (the answer of FINAL_STEP)
class TeamResult(BaseModel):
    model_config = ConfigDict(json_schema_extra=describe_json_text)

    # outputs.redlines
    redlines: JsonArray | None = Field(
        default=None, description="Approved contract changes to send to the vendor."
    )

    # outputs.risk_register
    risk_register: JsonArray | None = Field(
        default=None, description="Security findings with the reviewer's triage."
    )

    # outputs.onboarding_decision
    onboarding_decision: str | None = Field(
        default=None, description="Go, go with conditions, or no-go, with the reasons."
    )


# agents[]: key -> crew.py method and config/agents.yaml entry, reportsToKey
AGENTS: dict[str, AgentSpec] = {
    # agents[0] procurement-lead
    "procurement-lead": AgentSpec(method="procurement_lead"),
    # agents[1] contract-analyst
    "contract-analyst": AgentSpec(method="contract_analyst", reports_to="procurement-lead"),
    # agents[2] security-analyst
    "security-analyst": AgentSpec(method="security_analyst", reports_to="procurement-lead"),
    # agents[3] onboarding-coordinator
    "onboarding-coordinator": AgentSpec(
        method="onboarding_coordinator", reports_to="procurement-lead"
    ),
}

# agents[].accessPolicy / allowedHosts: the agents with egress, each given a policy-enforcing
# http_request tool (a team without any ships no HTTP tool code)
EGRESS: tuple[str, ...] = ()

# pipeline[] in topological order, with the steps each one waits for
PIPELINE: dict[str, StepSpec] = {
    # pipeline[0] intake
    "intake": StepSpec(
        agent_key="procurement-lead", label="Write the intake brief", method="intake"
    ),
    # pipeline[1] contract-redlines
    "contract-redlines": StepSpec(
        agent_key="contract-analyst",
        label="Propose contract redlines",
        method="contract_redlines",
        depends_on=("intake",),
    ),
    # pipeline[2] security-findings
    "security-findings": StepSpec(
        agent_key="security-analyst",
        label="Assess security findings",
        method="security_findings",
        depends_on=("intake",),
    ),
    # pipeline[3] vendor-letter
    "vendor-letter": StepSpec(
        agent_key="procurement-lead",
        label="Draft the cover letter for the redlines",
        method="vendor_letter",
        depends_on=("contract-redlines",),
    ),
    # pipeline[4] onboarding-decision
    "onboarding-decision": StepSpec(
        agent_key="onboarding-coordinator",
        label="Write the onboarding decision",
        method="onboarding_decision",
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


# gates[0] redline-approval: a record of step contract-redlines
class ContractRedlinesRecord(BaseModel):
    clause: str
    proposed_text: str
    rationale: str


# step contract-redlines answers with the records its gates review
class ContractRedlinesRecords(BaseModel):
    records: list[ContractRedlinesRecord]


# gates[1] risk-triage: a record of step security-findings
class SecurityFindingsRecord(BaseModel):
    finding_id: str
    finding: str
    severity: str
    mitigation: str


# step security-findings answers with the records its gates review
class SecurityFindingsRecords(BaseModel):
    records: list[SecurityFindingsRecord]


RECORD_MODELS: dict[str, type[BaseModel]] = {
    "contract-redlines": ContractRedlinesRecords,
    "security-findings": SecurityFindingsRecords,
}

# timeout.runMs, timeout.agentMs (not set: the defaults)
RUN_TIMEOUT_MS = 30000
AGENT_TIMEOUT_MS = 30000
