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
    """The agents. To add a tool, append it to `tools=[...]`; `llm:` or `tools:` in
    config/agents.yaml are honoured too. delegation.TeamCrewBase builds the crews."""

    # agents[0] recruiting-lead
    @agent
    def recruiting_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["recruiting_lead"],
            llm=self.llm_of("recruiting-lead"),
            tools=self.tools_of("recruiting-lead"),
        )

    # agents[1] sourcer (reportsToKey recruiting-lead)
    @agent
    def sourcer(self) -> Agent:
        return Agent(
            config=self.agents_config["sourcer"],
            llm=self.llm_of("sourcer"),
            tools=self.tools_of("sourcer"),
        )

    # agents[2] screener (reportsToKey recruiting-lead)
    @agent
    def screener(self) -> Agent:
        return Agent(
            config=self.agents_config["screener"],
            llm=self.llm_of("screener"),
            tools=self.tools_of("screener"),
        )

    # agents[3] outreach-writer (reportsToKey recruiting-lead)
    @agent
    def outreach_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["outreach_writer"],
            llm=self.llm_of("outreach-writer"),
            tools=self.tools_of("outreach-writer"),
        )

    # agents[4] interview-coordinator (reportsToKey recruiting-lead)
    @agent
    def interview_coordinator(self) -> Agent:
        return Agent(
            config=self.agents_config["interview_coordinator"],
            llm=self.llm_of("interview-coordinator"),
            tools=self.tools_of("interview-coordinator"),
        )

    # agents[5] debrief-analyst (reportsToKey recruiting-lead)
    @agent
    def debrief_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["debrief_analyst"],
            llm=self.llm_of("debrief-analyst"),
            tools=self.tools_of("debrief-analyst"),
        )

    # agents[6] offer-drafter (reportsToKey recruiting-lead)
    @agent
    def offer_drafter(self) -> Agent:
        return Agent(
            config=self.agents_config["offer_drafter"],
            llm=self.llm_of("offer-drafter"),
            tools=self.tools_of("offer-drafter"),
        )


TeamCrew = EngineeringHiringLoopCrew
