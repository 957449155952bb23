"""The team's agents: one @agent method per definition agent (agents[]).

Tools, the manager, the team's task and sub-teams are built by delegation.py.
"""

from __future__ import annotations

from crewai import Agent, Crew, Task
from crewai.project import CrewBase, agent, crew, task

from .delegation import TeamCrewBase


@CrewBase
class InvestmentDueDiligencePanelCrew(TeamCrewBase):
    """The agents; delegation.TeamCrewBase builds their tools, tasks and crews."""

    # agents[0] lead-analyst: the first root, the crew's manager
    @agent
    def lead_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["lead_analyst"], **self.agent_options("lead-analyst")
        )

    # agents[1] market-analyst (reportsToKey lead-analyst)
    @agent
    def market_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["market_analyst"], **self.agent_options("market-analyst")
        )

    # agents[2] financial-analyst (reportsToKey lead-analyst)
    @agent
    def financial_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["financial_analyst"],
            **self.agent_options("financial-analyst"),
        )

    # agents[3] product-analyst (reportsToKey lead-analyst)
    @agent
    def product_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["product_analyst"], **self.agent_options("product-analyst")
        )

    # agents[4] customer-analyst (reportsToKey lead-analyst)
    @agent
    def customer_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["customer_analyst"], **self.agent_options("customer-analyst")
        )

    # agents[5] legal-analyst (reportsToKey lead-analyst)
    @agent
    def legal_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["legal_analyst"], **self.agent_options("legal-analyst")
        )

    # agents[6] regulatory-analyst (reportsToKey lead-analyst)
    @agent
    def regulatory_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["regulatory_analyst"],
            **self.agent_options("regulatory-analyst"),
        )

    # agents[7] team-analyst (reportsToKey lead-analyst)
    @agent
    def team_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["team_analyst"], **self.agent_options("team-analyst")
        )

    # agents[8] esg-analyst (reportsToKey lead-analyst)
    @agent
    def esg_analyst(self) -> Agent:
        return Agent(config=self.agents_config["esg_analyst"], **self.agent_options("esg-analyst"))

    # agents[9] red-team-analyst (reportsToKey lead-analyst)
    @agent
    def red_team_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["red_team_analyst"], **self.agent_options("red-team-analyst")
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = InvestmentDueDiligencePanelCrew
