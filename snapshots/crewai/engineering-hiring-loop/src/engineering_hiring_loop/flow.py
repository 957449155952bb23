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

from crewai.flow import human_feedback, listen, or_, router, start
from crewai.flow.human_feedback import HumanFeedbackResult
from envelope_runtime.crewai.pipeline import GateReview, PipelineFlow


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
    @listen(or_(step_screen, "shortlist-review:again"))
    @human_feedback(
        message=(
            "Gate shortlist-review (classification) after step screen: give each "
            'record one of Advance, Not now, Decline, e.g. "r1 Advance; r2 '
            'Decline: why", or one action for every record (Enter: decide later).'
        ),
        provider=GateReview(),
        metadata={"gate": "shortlist-review"},
    )
    def review_shortlist_review(self) -> list[dict[str, Any]]:
        return self.review("shortlist-review")

    @router(
        review_shortlist_review,
        emit=["shortlist-review:released", "shortlist-review:again", "shortlist-review:halted"],
    )
    def gate_shortlist_review(self, review: HumanFeedbackResult) -> str:
        return self.decide("shortlist-review", review)

    @listen("shortlist-review:released")
    def released_shortlist_review(self) -> list[dict[str, Any]]:
        return self.released("shortlist-review")

    # pipeline[2] outreach (agent outreach-writer), dependsOn screen (through gates[0])
    @listen(released_shortlist_review)
    def step_outreach(self) -> None:
        self.run_step("outreach")

    # gates[1] outreach-approval: afterStep outreach, triggersStep schedule-interviews
    @listen(or_(step_outreach, "outreach-approval:again"))
    @human_feedback(
        message=(
            "Gate outreach-approval (content_generation) after step outreach: give "
            'each record one of Send, Rewrite, Undo decision, e.g. "r1 Send; r2 '
            'Undo decision: why", or one action for every record (Enter: decide '
            "later)."
        ),
        provider=GateReview(),
        metadata={"gate": "outreach-approval"},
    )
    def review_outreach_approval(self) -> list[dict[str, Any]]:
        return self.review("outreach-approval")

    @router(
        review_outreach_approval,
        emit=["outreach-approval:released", "outreach-approval:again", "outreach-approval:halted"],
    )
    def gate_outreach_approval(self, review: HumanFeedbackResult) -> str:
        return self.decide("outreach-approval", review)

    @listen("outreach-approval:released")
    def released_outreach_approval(self) -> list[dict[str, Any]]:
        return self.released("outreach-approval")

    # pipeline[3] schedule-interviews (agent interview-coordinator), dependsOn outreach (th…
    @listen(released_outreach_approval)
    def step_schedule_interviews(self) -> None:
        self.run_step("schedule-interviews")

    # pipeline[4] debrief (agent debrief-analyst), dependsOn schedule-interviews
    @listen(step_schedule_interviews)
    def step_debrief(self) -> None:
        self.run_step("debrief")

    # gates[2] debrief-decision: afterStep debrief, triggersStep draft-offers
    @listen(or_(step_debrief, "debrief-decision:again"))
    @human_feedback(
        message=(
            "Gate debrief-decision (decision) after step debrief: give each record "
            'one of Approve, Skip, Reject, e.g. "r1 Approve; r2 Reject: why", or '
            "one action for every record (Enter: decide later)."
        ),
        provider=GateReview(),
        metadata={"gate": "debrief-decision"},
    )
    def review_debrief_decision(self) -> list[dict[str, Any]]:
        return self.review("debrief-decision")

    @router(
        review_debrief_decision,
        emit=["debrief-decision:released", "debrief-decision:again", "debrief-decision:halted"],
    )
    def gate_debrief_decision(self, review: HumanFeedbackResult) -> str:
        return self.decide("debrief-decision", review)

    @listen("debrief-decision:released")
    def released_debrief_decision(self) -> list[dict[str, Any]]:
        return self.released("debrief-decision")

    # pipeline[5] draft-offers (agent offer-drafter), dependsOn debrief (through gates[2])
    @listen(released_debrief_decision)
    def step_draft_offers(self) -> None:
        self.run_step("draft-offers")

    # gates[3] offer-release: afterStep draft-offers, triggersStep loop-summary
    @listen(or_(step_draft_offers, "offer-release:again"))
    @human_feedback(
        message=(
            "Gate offer-release (action) after step draft-offers: give each record "
            'one of Release offer, Withdraw, e.g. "r1 Release offer; r2 Withdraw: '
            'why", or one action for every record (Enter: decide later).'
        ),
        provider=GateReview(),
        metadata={"gate": "offer-release"},
    )
    def review_offer_release(self) -> list[dict[str, Any]]:
        return self.review("offer-release")

    @router(
        review_offer_release,
        emit=["offer-release:released", "offer-release:again", "offer-release:halted"],
    )
    def gate_offer_release(self, review: HumanFeedbackResult) -> str:
        return self.decide("offer-release", review)

    @listen("offer-release:released")
    def released_offer_release(self) -> list[dict[str, Any]]:
        return self.released("offer-release")

    # pipeline[6] loop-summary (agent recruiting-lead), dependsOn draft-offers (through gat…
    @listen(released_offer_release)
    def step_loop_summary(self) -> None:
        self.run_step("loop-summary")


TeamFlow = EngineeringHiringLoopFlow
