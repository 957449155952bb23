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


class ContentStudioFlow(PipelineFlow):
    # pipeline[0] research (agent researcher)
    @start()
    def step_research(self) -> None:
        self.run_step("research")

    # pipeline[1] keyword-brief (agent seo-strategist), dependsOn research
    @listen(step_research)
    def step_keyword_brief(self) -> None:
        self.run_step("keyword-brief")

    # pipeline[2] audience-questions (agent audience-analyst), dependsOn research
    @listen(step_research)
    def step_audience_questions(self) -> None:
        self.run_step("audience-questions")

    # pipeline[3] draft-article (agent writer), dependsOn keyword-brief, audience-questions
    @listen(and_(step_keyword_brief, step_audience_questions))
    def step_draft_article(self) -> None:
        self.run_step("draft-article")

    # pipeline[4] social-posts (agent social-writer), dependsOn draft-article
    @listen(step_draft_article)
    def step_social_posts(self) -> None:
        self.run_step("social-posts")

    # pipeline[5] newsletter (agent newsletter-writer), dependsOn draft-article
    @listen(step_draft_article)
    def step_newsletter(self) -> None:
        self.run_step("newsletter")

    # pipeline[6] final-edit (agent managing-editor), dependsOn draft-article, social-posts…
    @listen(and_(step_draft_article, step_social_posts, step_newsletter))
    def step_final_edit(self) -> None:
        self.run_step("final-edit")

    # gates[0] editorial-approval: afterStep final-edit, triggersStep publish-draft
    @listen(or_(step_final_edit, "editorial-approval:again"))
    @human_feedback(
        message=(
            "Gate editorial-approval (content_generation) after step final-edit: "
            'give each record one of Approve, Skip, Reject, e.g. "r1 Approve; r2 '
            'Reject: why", or one action for every record (Enter: decide later).'
        ),
        provider=GateReview(),
        metadata={"gate": "editorial-approval"},
    )
    def review_editorial_approval(self) -> list[dict[str, Any]]:
        return self.review("editorial-approval")

    @router(
        review_editorial_approval,
        emit=[
            "editorial-approval:released",
            "editorial-approval:again",
            "editorial-approval:halted",
        ],
    )
    def gate_editorial_approval(self, review: HumanFeedbackResult) -> str:
        return self.decide("editorial-approval", review)

    @listen("editorial-approval:released")
    def released_editorial_approval(self) -> list[dict[str, Any]]:
        return self.released("editorial-approval")

    # pipeline[7] publish-draft (agent publisher), dependsOn final-edit (through gates[0])
    @listen(released_editorial_approval)
    def step_publish_draft(self) -> None:
        self.run_step("publish-draft")


TeamFlow = ContentStudioFlow
