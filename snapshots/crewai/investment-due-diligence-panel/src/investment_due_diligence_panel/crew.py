"""The team's agents: one @agent method per definition agent (agents[]).

Tools, the manager, the team's task and sub-teams are built by HierarchyCrew
(envelope-runtime's `envelope_runtime.crewai.delegation`).
"""

from __future__ import annotations

from crewai import Agent, Crew, Task
from crewai.project import CrewBase, agent, crew, task
from envelope_runtime.crewai.delegation import HierarchyCrew
from envelope_runtime.team_package import TeamPackage


@CrewBase
class InvestmentDueDiligencePanelCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("investment_due_diligence_panel")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] lead-analyst: the first root, the crew's manager
    @agent
    def lead_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["lead_analyst"],
            llm=self.llm_of("lead-analyst"),
            tools=self.tools_of("lead-analyst"),
        )

    # agents[1] market-analyst (reportsToKey lead-analyst)
    @agent
    def market_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["market_analyst"],
            llm=self.llm_of("market-analyst"),
            tools=self.tools_of("market-analyst"),
        )

    # agents[2] financial-analyst (reportsToKey lead-analyst)
    @agent
    def financial_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["financial_analyst"],
            llm=self.llm_of("financial-analyst"),
            tools=self.tools_of("financial-analyst"),
        )

    # agents[3] product-analyst (reportsToKey lead-analyst)
    @agent
    def product_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["product_analyst"],
            llm=self.llm_of("product-analyst"),
            tools=self.tools_of("product-analyst"),
        )

    # agents[4] customer-analyst (reportsToKey lead-analyst)
    @agent
    def customer_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["customer_analyst"],
            llm=self.llm_of("customer-analyst"),
            tools=self.tools_of("customer-analyst"),
        )

    # agents[5] legal-analyst (reportsToKey lead-analyst)
    @agent
    def legal_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["legal_analyst"],
            llm=self.llm_of("legal-analyst"),
            tools=self.tools_of("legal-analyst"),
        )

    # agents[6] regulatory-analyst (reportsToKey lead-analyst)
    @agent
    def regulatory_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["regulatory_analyst"],
            llm=self.llm_of("regulatory-analyst"),
            tools=self.tools_of("regulatory-analyst"),
        )

    # agents[7] team-analyst (reportsToKey lead-analyst)
    @agent
    def team_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["team_analyst"],
            llm=self.llm_of("team-analyst"),
            tools=self.tools_of("team-analyst"),
        )

    # agents[8] esg-analyst (reportsToKey lead-analyst)
    @agent
    def esg_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["esg_analyst"],
            llm=self.llm_of("esg-analyst"),
            tools=self.tools_of("esg-analyst"),
        )

    # agents[9] red-team-analyst (reportsToKey lead-analyst)
    @agent
    def red_team_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["red_team_analyst"],
            llm=self.llm_of("red-team-analyst"),
            tools=self.tools_of("red-team-analyst"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = InvestmentDueDiligencePanelCrew
