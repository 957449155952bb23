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
class EnterpriseSupportDeskCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("enterprise_support_desk")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] head-of-support: the first root, the crew's manager
    @agent
    def head_of_support(self) -> Agent:
        return Agent(
            config=self.agents_config["head_of_support"],
            llm=self.llm_of("head-of-support"),
            tools=self.tools_of("head-of-support"),
        )

    # agents[1] billing-lead (reportsToKey head-of-support): manages refunds-specialist, in…
    @agent
    def billing_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["billing_lead"],
            llm=self.llm_of("billing-lead"),
            tools=self.tools_of("billing-lead"),
        )

    # agents[2] refunds-specialist (reportsToKey billing-lead)
    @agent
    def refunds_specialist(self) -> Agent:
        return Agent(
            config=self.agents_config["refunds_specialist"],
            llm=self.llm_of("refunds-specialist"),
            tools=self.tools_of("refunds-specialist"),
        )

    # agents[3] invoicing-specialist (reportsToKey billing-lead)
    @agent
    def invoicing_specialist(self) -> Agent:
        return Agent(
            config=self.agents_config["invoicing_specialist"],
            llm=self.llm_of("invoicing-specialist"),
            tools=self.tools_of("invoicing-specialist"),
        )

    # agents[4] technical-lead (reportsToKey head-of-support): manages api-specialist, inte…
    @agent
    def technical_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["technical_lead"],
            llm=self.llm_of("technical-lead"),
            tools=self.tools_of("technical-lead"),
        )

    # agents[5] api-specialist (reportsToKey technical-lead)
    @agent
    def api_specialist(self) -> Agent:
        return Agent(
            config=self.agents_config["api_specialist"],
            llm=self.llm_of("api-specialist"),
            tools=self.tools_of("api-specialist"),
        )

    # agents[6] integrations-specialist (reportsToKey technical-lead)
    @agent
    def integrations_specialist(self) -> Agent:
        return Agent(
            config=self.agents_config["integrations_specialist"],
            llm=self.llm_of("integrations-specialist"),
            tools=self.tools_of("integrations-specialist"),
        )

    # agents[7] trust-safety-lead (reportsToKey head-of-support): manages fraud-analyst
    @agent
    def trust_safety_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["trust_safety_lead"],
            llm=self.llm_of("trust-safety-lead"),
            tools=self.tools_of("trust-safety-lead"),
        )

    # agents[8] fraud-analyst (reportsToKey trust-safety-lead)
    @agent
    def fraud_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["fraud_analyst"],
            llm=self.llm_of("fraud-analyst"),
            tools=self.tools_of("fraud-analyst"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = EnterpriseSupportDeskCrew
