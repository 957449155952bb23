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
class SupportTierCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("support_tier")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] support-lead: the first root, the crew's manager
    @agent
    def support_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["support_lead"],
            llm=self.llm_of("support-lead"),
            tools=self.tools_of("support-lead"),
        )

    # agents[1] billing-specialist (reportsToKey support-lead)
    @agent
    def billing_specialist(self) -> Agent:
        return Agent(
            config=self.agents_config["billing_specialist"],
            llm=self.llm_of("billing-specialist"),
            tools=self.tools_of("billing-specialist"),
        )

    # agents[2] technical-specialist (reportsToKey support-lead)
    @agent
    def technical_specialist(self) -> Agent:
        return Agent(
            config=self.agents_config["technical_specialist"],
            llm=self.llm_of("technical-specialist"),
            tools=self.tools_of("technical-specialist"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = SupportTierCrew
