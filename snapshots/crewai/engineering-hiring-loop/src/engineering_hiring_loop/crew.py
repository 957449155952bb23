"""The team's agents: one @agent method per definition agent (agents[]).

flow.py runs one single-task crew per pipeline step; delegation.py builds
those crews and each agent's tools.
"""

from __future__ import annotations

from crewai import Agent
from crewai.project import CrewBase, agent

from .delegation import TeamCrewBase


@CrewBase
class EngineeringHiringLoopCrew(TeamCrewBase):
    """The agents; delegation.TeamCrewBase builds their tools, tasks and crews."""

    # agents[0] recruiting-lead
    @agent
    def recruiting_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["recruiting_lead"], **self.agent_options("recruiting-lead")
        )

    # agents[1] sourcer (reportsToKey recruiting-lead)
    @agent
    def sourcer(self) -> Agent:
        return Agent(config=self.agents_config["sourcer"], **self.agent_options("sourcer"))

    # agents[2] screener (reportsToKey recruiting-lead)
    @agent
    def screener(self) -> Agent:
        return Agent(config=self.agents_config["screener"], **self.agent_options("screener"))

    # agents[3] outreach-writer (reportsToKey recruiting-lead)
    @agent
    def outreach_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["outreach_writer"], **self.agent_options("outreach-writer")
        )

    # agents[4] interview-coordinator (reportsToKey recruiting-lead)
    @agent
    def interview_coordinator(self) -> Agent:
        return Agent(
            config=self.agents_config["interview_coordinator"],
            **self.agent_options("interview-coordinator"),
        )

    # agents[5] debrief-analyst (reportsToKey recruiting-lead)
    @agent
    def debrief_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["debrief_analyst"], **self.agent_options("debrief-analyst")
        )

    # agents[6] offer-drafter (reportsToKey recruiting-lead)
    @agent
    def offer_drafter(self) -> Agent:
        return Agent(
            config=self.agents_config["offer_drafter"], **self.agent_options("offer-drafter")
        )


TeamCrew = EngineeringHiringLoopCrew
