"""The team's agents: one @agent method per definition agent (agents[]).

flow.py runs one single-task crew per pipeline step; delegation.py builds
those crews and each agent's tools.
"""

from __future__ import annotations

from crewai import Agent
from crewai.project import CrewBase, agent

from .delegation import TeamCrewBase


@CrewBase
class ContentStudioCrew(TeamCrewBase):
    """The agents. To add a tool, append it to `tools=[...]`; `llm:` or `tools:` in
    config/agents.yaml are honoured too. delegation.TeamCrewBase builds the crews."""

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


TeamCrew = ContentStudioCrew
