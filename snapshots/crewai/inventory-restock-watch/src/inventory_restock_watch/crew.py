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
class InventoryRestockWatchCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("inventory_restock_watch")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] inventory-planner: the first root, the crew's manager
    @agent
    def inventory_planner(self) -> Agent:
        return Agent(
            config=self.agents_config["inventory_planner"],
            llm=self.llm_of("inventory-planner"),
            tools=self.tools_of("inventory-planner"),
        )

    # agents[1] purchasing-assistant (reportsToKey inventory-planner)
    @agent
    def purchasing_assistant(self) -> Agent:
        return Agent(
            config=self.agents_config["purchasing_assistant"],
            llm=self.llm_of("purchasing-assistant"),
            tools=self.tools_of("purchasing-assistant"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = InventoryRestockWatchCrew
