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
class OutboundLeadDeskCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("outbound_lead_desk")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] lead-researcher: the first root, the crew's manager
    @agent
    def lead_researcher(self) -> Agent:
        return Agent(
            config=self.agents_config["lead_researcher"],
            llm=self.llm_of("lead-researcher"),
            tools=self.tools_of("lead-researcher"),
        )

    # agents[1] email-drafter (reportsToKey lead-researcher)
    @agent
    def email_drafter(self) -> Agent:
        return Agent(
            config=self.agents_config["email_drafter"],
            llm=self.llm_of("email-drafter"),
            tools=self.tools_of("email-drafter"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = OutboundLeadDeskCrew
