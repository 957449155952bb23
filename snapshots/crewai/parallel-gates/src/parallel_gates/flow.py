"""The team's pipeline as a CrewAI Flow (pipeline[], gates[]).

Wiring only: each step runs through PipelineFlow.run_step and each gate through
PipelineFlow.review (envelope-runtime's `envelope_runtime.crewai.pipeline`, the gates in
`envelope_runtime.crewai.review`), with the crews of crew.py. Steps that listen to the same
step run concurrently.
"""

from __future__ import annotations

from crewai.flow import and_, listen, router, start
from envelope_runtime.crewai import PipelineFlow


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
    @router(step_contract_redlines)
    def gate_redline_approval(self) -> str:
        return self.review("redline-approval")

    # pipeline[2] security-findings (agent security-analyst), dependsOn intake
    @listen(step_intake)
    def step_security_findings(self) -> None:
        self.run_step("security-findings")

    # gates[1] risk-triage: afterStep security-findings, triggersStep onboarding-decision
    @router(step_security_findings)
    def gate_risk_triage(self) -> str:
        return self.review("risk-triage")

    # pipeline[3] vendor-letter (agent procurement-lead), dependsOn contract-redlines (thro…
    @listen("redline-approval:released")
    def step_vendor_letter(self) -> None:
        self.run_step("vendor-letter")

    # pipeline[4] onboarding-decision (agent onboarding-coordinator), dependsOn contract-re…
    @listen(and_("redline-approval:released", "risk-triage:released"))
    def step_onboarding_decision(self) -> None:
        self.run_step("onboarding-decision")


TeamFlow = ParallelGatesFlow
