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
class WeeklyPipelineReviewCrew(HierarchyCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("weekly_pipeline_review")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] revops-analyst: the first root, the crew's manager
    @agent
    def revops_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["revops_analyst"],
            llm=self.llm_of("revops-analyst"),
            tools=self.tools_of("revops-analyst"),
        )

    # agents[1] deal-coach (reportsToKey revops-analyst)
    @agent
    def deal_coach(self) -> Agent:
        return Agent(
            config=self.agents_config["deal_coach"],
            llm=self.llm_of("deal-coach"),
            tools=self.tools_of("deal-coach"),
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = WeeklyPipelineReviewCrew
