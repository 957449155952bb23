"""The team's pipeline as a CrewAI Flow (pipeline[], gates[]): `crewai run` runs it, `crewai
flow plot` draws it.

Wiring only: each step runs through PipelineFlow.run_step (envelope-runtime's
`envelope_runtime.crewai.pipeline`), with the crews of crew.py; steps that listen to the same
step run concurrently. Each gate is CrewAI's human feedback: review_<gate> lists the records
to decide (`@human_feedback` without `emit`: no LLM; GateReview takes the decisions given for
the run, else asks at the terminal, else pauses the run for `resume`), its router applies the
per-record verdicts (`envelope_runtime.crewai.review`) and says released, again (another
review, or a new round after a rejection) or halted; released_<gate> hands on the approved
records. The state is saved after every method (`@persist`, a FlowPersistence that redacts
secrets).
"""

from __future__ import annotations

from typing import Any

from crewai.flow import and_, human_feedback, listen, or_, router, start
from crewai.flow.human_feedback import HumanFeedbackResult
from envelope_runtime.crewai.pipeline import GateReview, PipelineFlow


class ParallelGatesFlow(PipelineFlow):
    # pipeline[0] intake (agent procurement-lead)
    @start()
    def step_intake(self) -> None:
        self.run_step("intake")

    # pipeline[1] contract-redlines (agent contract-analyst), dependsOn intake
    @listen(step_intake)
    def step_contract_redlines(self) -> None:
        self.run_step("contract-redlines")

    # gates[0] redline-approval: afterStep contract-redlines, triggersStep onboarding-decis…
    @listen(or_(step_contract_redlines, "redline-approval:again"))
    @human_feedback(
        message=(
            "Gate redline-approval (content_generation) after step "
            "contract-redlines: give each record one of Approve, Skip, Reject, "
            'e.g. "r1 Approve; r2 Reject: why", or one action for every record '
            "(Enter: decide later)."
        ),
        provider=GateReview(),
        metadata={"gate": "redline-approval"},
    )
    def review_redline_approval(self) -> list[dict[str, Any]]:
        return self.review("redline-approval")

    @router(
        review_redline_approval,
        emit=["redline-approval:released", "redline-approval:again", "redline-approval:halted"],
    )
    def gate_redline_approval(self, review: HumanFeedbackResult) -> str:
        return self.decide("redline-approval", review)

    @listen("redline-approval:released")
    def released_redline_approval(self) -> list[dict[str, Any]]:
        return self.released("redline-approval")

    # pipeline[2] security-findings (agent security-analyst), dependsOn intake
    @listen(step_intake)
    def step_security_findings(self) -> None:
        self.run_step("security-findings")

    # gates[1] risk-triage: afterStep security-findings, triggersStep onboarding-decision
    @listen(or_(step_security_findings, "risk-triage:again"))
    @human_feedback(
        message=(
            "Gate risk-triage (classification) after step security-findings: give "
            "each record one of Accept risk, Not applicable, Needs mitigation, "
            'e.g. "r1 Accept risk; r2 Needs mitigation: why", or one action for '
            "every record (Enter: decide later)."
        ),
        provider=GateReview(),
        metadata={"gate": "risk-triage"},
    )
    def review_risk_triage(self) -> list[dict[str, Any]]:
        return self.review("risk-triage")

    @router(
        review_risk_triage, emit=["risk-triage:released", "risk-triage:again", "risk-triage:halted"]
    )
    def gate_risk_triage(self, review: HumanFeedbackResult) -> str:
        return self.decide("risk-triage", review)

    @listen("risk-triage:released")
    def released_risk_triage(self) -> list[dict[str, Any]]:
        return self.released("risk-triage")

    # pipeline[3] vendor-letter (agent procurement-lead), dependsOn contract-redlines (thro…
    @listen(released_redline_approval)
    def step_vendor_letter(self) -> None:
        self.run_step("vendor-letter")

    # pipeline[4] onboarding-decision (agent onboarding-coordinator), dependsOn contract-re…
    @listen(and_(released_redline_approval, released_risk_triage))
    def step_onboarding_decision(self) -> None:
        self.run_step("onboarding-decision")


TeamFlow = ParallelGatesFlow
