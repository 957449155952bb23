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
    """The agents; delegation.TeamCrewBase builds their tools, tasks and crews."""

    # agents[0] managing-editor
    @agent
    def managing_editor(self) -> Agent:
        return Agent(
            config=self.agents_config["managing_editor"], **self.agent_options("managing-editor")
        )

    # agents[1] researcher (reportsToKey managing-editor)
    @agent
    def researcher(self) -> Agent:
        return Agent(config=self.agents_config["researcher"], **self.agent_options("researcher"))

    # agents[2] seo-strategist (reportsToKey managing-editor)
    @agent
    def seo_strategist(self) -> Agent:
        return Agent(
            config=self.agents_config["seo_strategist"], **self.agent_options("seo-strategist")
        )

    # agents[3] audience-analyst (reportsToKey managing-editor)
    @agent
    def audience_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["audience_analyst"], **self.agent_options("audience-analyst")
        )

    # agents[4] writer (reportsToKey managing-editor)
    @agent
    def writer(self) -> Agent:
        return Agent(config=self.agents_config["writer"], **self.agent_options("writer"))

    # agents[5] social-writer (reportsToKey managing-editor)
    @agent
    def social_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["social_writer"], **self.agent_options("social-writer")
        )

    # agents[6] newsletter-writer (reportsToKey managing-editor)
    @agent
    def newsletter_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["newsletter_writer"],
            **self.agent_options("newsletter-writer"),
        )

    # agents[7] publisher (reportsToKey managing-editor)
    @agent
    def publisher(self) -> Agent:
        return Agent(config=self.agents_config["publisher"], **self.agent_options("publisher"))


TeamCrew = ContentStudioCrew
