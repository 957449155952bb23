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
    """The agents; delegation.TeamCrewBase builds their tools, tasks and crews."""

    # agents[0] procurement-lead
    @agent
    def procurement_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["procurement_lead"], **self.agent_options("procurement-lead")
        )

    # agents[1] contract-analyst (reportsToKey procurement-lead)
    @agent
    def contract_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["contract_analyst"], **self.agent_options("contract-analyst")
        )

    # agents[2] security-analyst (reportsToKey procurement-lead)
    @agent
    def security_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["security_analyst"], **self.agent_options("security-analyst")
        )

    # agents[3] onboarding-coordinator (reportsToKey procurement-lead)
    @agent
    def onboarding_coordinator(self) -> Agent:
        return Agent(
            config=self.agents_config["onboarding_coordinator"],
            **self.agent_options("onboarding-coordinator"),
        )


TeamCrew = ParallelGatesCrew
