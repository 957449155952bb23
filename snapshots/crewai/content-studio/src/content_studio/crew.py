"""The team's agents: one @agent method per definition agent (agents[]).

One @task per pipeline step (config/tasks.yaml). The flow (flow.py) runs each step as a
one-task crew, the answers it waits for as the task's context: it is the one way the
pipeline runs (`crewai run` runs the flow of this `type = "flow"` project), so there is no
@crew.
"""

from __future__ import annotations

from crewai import Agent, Task
from crewai.project import CrewBase, agent, task
from envelope_runtime.crewai.steps import PipelineCrew
from envelope_runtime.team_package import TeamPackage


@CrewBase
class ContentStudioCrew(PipelineCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("content_studio")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] managing-editor
    @agent
    def managing_editor(self) -> Agent:
        return Agent(
            config=self.agents_config["managing_editor"],
            llm=self.llm_of("managing-editor"),
            tools=self.tools_of("managing-editor"),
        )

    # agents[1] researcher (reportsToKey managing-editor)
    @agent
    def researcher(self) -> Agent:
        return Agent(
            config=self.agents_config["researcher"],
            llm=self.llm_of("researcher"),
            tools=self.tools_of("researcher"),
        )

    # agents[2] seo-strategist (reportsToKey managing-editor)
    @agent
    def seo_strategist(self) -> Agent:
        return Agent(
            config=self.agents_config["seo_strategist"],
            llm=self.llm_of("seo-strategist"),
            tools=self.tools_of("seo-strategist"),
        )

    # agents[3] audience-analyst (reportsToKey managing-editor)
    @agent
    def audience_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["audience_analyst"],
            llm=self.llm_of("audience-analyst"),
            tools=self.tools_of("audience-analyst"),
        )

    # agents[4] writer (reportsToKey managing-editor)
    @agent
    def writer(self) -> Agent:
        return Agent(
            config=self.agents_config["writer"],
            llm=self.llm_of("writer"),
            tools=self.tools_of("writer"),
        )

    # agents[5] social-writer (reportsToKey managing-editor)
    @agent
    def social_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["social_writer"],
            llm=self.llm_of("social-writer"),
            tools=self.tools_of("social-writer"),
        )

    # agents[6] newsletter-writer (reportsToKey managing-editor)
    @agent
    def newsletter_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["newsletter_writer"],
            llm=self.llm_of("newsletter-writer"),
            tools=self.tools_of("newsletter-writer"),
        )

    # agents[7] publisher (reportsToKey managing-editor)
    @agent
    def publisher(self) -> Agent:
        return Agent(
            config=self.agents_config["publisher"],
            llm=self.llm_of("publisher"),
            tools=self.tools_of("publisher"),
        )

    # pipeline[0] research
    @task
    def research(self) -> Task:
        return Task(config=self.tasks_config["research"])

    # pipeline[1] keyword-brief
    @task
    def keyword_brief(self) -> Task:
        return Task(config=self.tasks_config["keyword_brief"])

    # pipeline[2] audience-questions
    @task
    def audience_questions(self) -> Task:
        return Task(config=self.tasks_config["audience_questions"])

    # pipeline[3] draft-article
    @task
    def draft_article(self) -> Task:
        return Task(config=self.tasks_config["draft_article"])

    # pipeline[4] social-posts
    @task
    def social_posts(self) -> Task:
        return Task(config=self.tasks_config["social_posts"])

    # pipeline[5] newsletter
    @task
    def newsletter(self) -> Task:
        return Task(config=self.tasks_config["newsletter"])

    # pipeline[6] final-edit
    @task
    def final_edit(self) -> Task:
        return Task(config=self.tasks_config["final_edit"])

    # pipeline[7] publish-draft
    @task
    def publish_draft(self) -> Task:
        return Task(config=self.tasks_config["publish_draft"])


TeamCrew = ContentStudioCrew
