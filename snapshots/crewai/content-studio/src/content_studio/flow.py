"""The team's pipeline as a CrewAI Flow (pipeline[], gates[]).

Wiring only: each step runs through PipelineFlow.run_step and each gate through
PipelineFlow.review (envelope-runtime's `envelope_runtime.crewai.pipeline`, the gates in
`envelope_runtime.crewai.review`), with the crews of crew.py. Steps that listen to the same
step run concurrently.
"""

from __future__ import annotations

from crewai.flow import and_, listen, router, start
from envelope_runtime.crewai import PipelineFlow


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
    @router(step_final_edit)
    def gate_editorial_approval(self) -> str:
        return self.review("editorial-approval")

    # pipeline[7] publish-draft (agent publisher), dependsOn final-edit (through gates[0])
    @listen("editorial-approval:released")
    def step_publish_draft(self) -> None:
        self.run_step("publish-draft")


TeamFlow = ContentStudioFlow
