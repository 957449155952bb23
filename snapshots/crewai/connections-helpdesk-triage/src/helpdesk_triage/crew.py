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
class HelpdeskTriageCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("helpdesk_triage")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] triager: the first root, the crew's manager
    @agent
    def triager(self) -> Agent:
        return Agent(
            config=self.agents_config["triager"],
            llm=self.llm_of("triager"),
            tools=self.tools_of("triager"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = HelpdeskTriageCrew
