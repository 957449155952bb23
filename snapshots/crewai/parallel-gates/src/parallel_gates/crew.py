"""The team's agents: one @agent method per definition agent (agents[]).

flow.py runs one single-task crew per pipeline step; delegation.py builds
those crews and each agent's tools.
"""

from __future__ import annotations

from crewai import Agent
from crewai.project import CrewBase, agent

from .delegation import TeamCrewBase


@CrewBase
class ParallelGatesCrew(TeamCrewBase):
    """The agents. To add a tool, append it to `tools=[...]`; `llm:` or `tools:` in
    config/agents.yaml are honoured too. delegation.TeamCrewBase builds the crews."""

    # agents[0] procurement-lead
    @agent
    def procurement_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["procurement_lead"],
            llm=self.llm_of("procurement-lead"),
            tools=self.tools_of("procurement-lead"),
        )

    # agents[1] contract-analyst (reportsToKey procurement-lead)
    @agent
    def contract_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["contract_analyst"],
            llm=self.llm_of("contract-analyst"),
            tools=self.tools_of("contract-analyst"),
        )

    # agents[2] security-analyst (reportsToKey procurement-lead)
    @agent
    def security_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["security_analyst"],
            llm=self.llm_of("security-analyst"),
            tools=self.tools_of("security-analyst"),
        )

    # agents[3] onboarding-coordinator (reportsToKey procurement-lead)
    @agent
    def onboarding_coordinator(self) -> Agent:
        return Agent(
            config=self.agents_config["onboarding_coordinator"],
            llm=self.llm_of("onboarding-coordinator"),
            tools=self.tools_of("onboarding-coordinator"),
        )


TeamCrew = ParallelGatesCrew
