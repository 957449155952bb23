"""The team's pipeline as a CrewAI Flow (pipeline[], gates[]).

Wiring only: each step runs through PipelineFlow.run_step and each gate through
PipelineFlow.review (envelope-runtime's `envelope_runtime.crewai.pipeline`, the gates in
`envelope_runtime.crewai.review`), with the crews of crew.py. Steps that listen to the same
step run concurrently.
"""

from __future__ import annotations

from crewai.flow import listen, router, start
from envelope_runtime.crewai import PipelineFlow


class EngineeringHiringLoopFlow(PipelineFlow):
    # pipeline[0] source (agent sourcer)
    @start()
    def step_source(self) -> None:
        self.run_step("source")

    # pipeline[1] screen (agent screener), dependsOn source
    @listen(step_source)
    def step_screen(self) -> None:
        self.run_step("screen")

    # gates[0] shortlist-review: afterStep screen, triggersStep outreach
    @router(step_screen)
    def gate_shortlist_review(self) -> str:
        return self.review("shortlist-review")

    # pipeline[2] outreach (agent outreach-writer), dependsOn screen (through gates[0])
    @listen("shortlist-review:released")
    def step_outreach(self) -> None:
        self.run_step("outreach")

    # gates[1] outreach-approval: afterStep outreach, triggersStep schedule-interviews
    @router(step_outreach)
    def gate_outreach_approval(self) -> str:
        return self.review("outreach-approval")

    # pipeline[3] schedule-interviews (agent interview-coordinator), dependsOn outreach (th…
    @listen("outreach-approval:released")
    def step_schedule_interviews(self) -> None:
        self.run_step("schedule-interviews")

    # pipeline[4] debrief (agent debrief-analyst), dependsOn schedule-interviews
    @listen(step_schedule_interviews)
    def step_debrief(self) -> None:
        self.run_step("debrief")

    # gates[2] debrief-decision: afterStep debrief, triggersStep draft-offers
    @router(step_debrief)
    def gate_debrief_decision(self) -> str:
        return self.review("debrief-decision")

    # pipeline[5] draft-offers (agent offer-drafter), dependsOn debrief (through gates[2])
    @listen("debrief-decision:released")
    def step_draft_offers(self) -> None:
        self.run_step("draft-offers")

    # gates[3] offer-release: afterStep draft-offers, triggersStep loop-summary
    @router(step_draft_offers)
    def gate_offer_release(self) -> str:
        return self.review("offer-release")

    # pipeline[6] loop-summary (agent recruiting-lead), dependsOn draft-offers (through gat…
    @listen("offer-release:released")
    def step_loop_summary(self) -> None:
        self.run_step("loop-summary")


TeamFlow = EngineeringHiringLoopFlow
