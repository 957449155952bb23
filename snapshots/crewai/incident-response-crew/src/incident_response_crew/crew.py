"""The team's agents: one @agent method per definition agent (agents[]).

Tools, the manager, the team's task and sub-teams are built by delegation.py.
"""

from __future__ import annotations

from crewai import Agent, Crew, Task
from crewai.project import CrewBase, agent, crew, task

from .delegation import TeamCrewBase


@CrewBase
class IncidentResponseCrewCrew(TeamCrewBase):
    """The agents; delegation.TeamCrewBase builds their tools, tasks and crews."""

    # agents[0] incident-commander: the first root, the crew's manager
    @agent
    def incident_commander(self) -> Agent:
        return Agent(
            config=self.agents_config["incident_commander"],
            **self.agent_options("incident-commander"),
        )

    # agents[1] investigator (reportsToKey incident-commander)
    @agent
    def investigator(self) -> Agent:
        return Agent(
            config=self.agents_config["investigator"], **self.agent_options("investigator")
        )

    # agents[2] deploy-analyst (reportsToKey incident-commander)
    @agent
    def deploy_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["deploy_analyst"], **self.agent_options("deploy-analyst")
        )

    # agents[3] comms-writer (reportsToKey incident-commander)
    @agent
    def comms_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["comms_writer"], **self.agent_options("comms-writer")
        )

    # description, outputs: the team's run, handed to the manager
    @task
    def handle_request(self) -> Task:
        return self.team_task()

    @crew
    def crew(self) -> Crew:
        return self.team_crew()


TeamCrew = IncidentResponseCrewCrew
