"""The hierarchy (agents[].reportsToKey) as CrewAI crews: `HierarchyCrew`, the base of a
hierarchy team's crew.py.

- The first root agent is the crew's manager_agent (without tools, as CrewAI requires);
  its workers are its reports and the other roots. A "<role> Requests" worker makes the
  manager's HTTP requests and workspace reads and writes, with the manager's tools.
- A worker with reports of its own gets `delegate_to_team` (sub_teams.py): its sub-team as a
  nested hierarchical crew it manages, to any depth.
- A first root that manages nobody (a one-agent team) runs the task itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crewai import Agent, Crew, Process, Task
from crewai.agents.agent_builder.base_agent import BaseAgent
from crewai.tools import BaseTool

from ..team_package import TeamPackage
from . import llms, texts
from .crew_base import TeamCrewBase, document_tools, request_tools, roots

TEAM_TASK = "handle_request"  # the @task method and config/tasks.yaml entry of a run

SUB_TEAM_TOOL = "delegate_to_team"


def reports_of(package: TeamPackage, agent_key: str) -> list[str]:
    return [key for key, spec in package.team.AGENTS.items() if spec.reports_to == agent_key]


def top_manager(package: TeamPackage) -> str | None:
    """The first root, if it has anyone to delegate to."""
    first, *others = roots(package)
    return first if others or reports_of(package, first) else None


def workers_of(package: TeamPackage, manager_key: str) -> list[str]:
    """Whom a manager's crew delegates to: its reports, and for the top manager the other roots."""
    top = manager_key == top_manager(package)
    others = [key for key in roots(package) if key != manager_key] if top else []
    return [*reports_of(package, manager_key), *others]


def has_sub_team(package: TeamPackage, agent_key: str) -> bool:
    return agent_key != top_manager(package) and bool(reports_of(package, agent_key))


def has_requests_delegate(package: TeamPackage, agent_key: str) -> bool:
    """The top manager's HTTP, pack and workspace tools go to its "<role> Requests" worker."""
    return agent_key == top_manager(package) and bool(
        request_tools(package, agent_key) or document_tools(package, agent_key)
    )


class HierarchyCrew(TeamCrewBase):
    def __init__(
        self,
        inputs: Mapping[str, Any] | None = None,
        verbose: bool = False,
        managing: str | None = None,
    ) -> None:
        """`managing`: the agent this object builds as a manager (default: the top manager)."""
        super().__init__(inputs, verbose)
        self.managing = managing if managing is not None else top_manager(self.package)

    def tools_of(self, agent_key: str) -> list[BaseTool]:
        """Its tools and its sub-team's; none for the manager (CrewAI refuses any other)."""
        if agent_key == self.managing:
            if agent_key == top_manager(self.package) and self._config(agent_key).get("tools"):
                method = self.package.team.AGENTS[agent_key].method
                raise ValueError(
                    f"config/agents.yaml: {method}: tools: the crew's manager holds no tools "
                    "(CrewAI's rule for a hierarchical crew): give them to one of its reports"
                )
            return []
        agent_tools = super().tools_of(agent_key)
        if has_sub_team(self.package, agent_key):
            from .sub_teams import sub_team_tool  # a team with mid-level managers only

            agent_tools.append(sub_team_tool(self, agent_key))
        return agent_tools

    def _prepared(self, agent_key: str, agent: Agent) -> Agent:
        """The manager delegates. A sub-team's work runs inside its manager's execution: only
        runMs bounds a manager's (or what crew.py sets on it)."""
        own_limit = agent.max_execution_time
        super()._prepared(agent_key, agent)
        agent.allow_delegation = agent_key == self.managing
        if agent.allow_delegation or has_sub_team(self.package, agent_key):
            agent.max_execution_time = own_limit
        return agent

    def team_task(self) -> Task:
        config = self.tasks_config[TEAM_TASK]
        return Task(
            name=TEAM_TASK,
            description=f"{self._text(config['description'])}\n\n{self.inputs_text()}",
            expected_output=self._text(config["expected_output"]),
            output_pydantic=self.package.team.TeamResult,
            agent=None if self.managing is not None else self._agent(roots(self.package)[0]),
        )

    def team_crew(self) -> Crew:
        if self.managing is None:
            worker = self._agent(roots(self.package)[0])
            return self._crew(agents=[worker], tasks=self.tasks, process=Process.sequential)
        return self._hierarchical_crew(self.managing, self.tasks)

    def _hierarchical_crew(self, manager_key: str, tasks: list[Task]) -> Crew:
        managed = workers_of(self.package, manager_key)
        workers: list[BaseAgent] = [self._agent(key) for key in managed]
        if has_requests_delegate(self.package, manager_key):
            workers.append(self._requests_delegate(manager_key))
        return self._crew(
            agents=workers,
            tasks=tasks,
            process=Process.hierarchical,
            manager_agent=self._agent(manager_key),
        )

    def _requests_delegate(self, manager_key: str) -> Agent:
        role = self.role_of(manager_key)
        http = request_tools(self.package, manager_key)
        documents = document_tools(self.package, manager_key)
        jobs: list[str] = []
        about: list[str] = []
        if documents:
            jobs.append("the workspace reads and writes")
            about.append(f"You read and write {role}'s workspace documents for {role}.")
        if http:
            jobs.append("the HTTP requests")
            about.append(
                f"You make outbound HTTP requests on behalf of {role}, within {role}'s "
                "access policy."
            )
        return Agent(
            role=f"{role} Requests",
            goal=f"Make {' and '.join(jobs)} {role} asks for and report the results exactly.",
            backstory=" ".join([*about, "You do nothing else."]),
            llm=self.llm_of(manager_key),
            tools=[*http, *documents],
            max_execution_time=llms.execution_limit_s(self.package.models.MODELS[manager_key]),
            verbose=self.verbose,
            # Its texts are this run's already (the role is rendered): only the executor.
            executor_class=texts.VerbatimExecutor,
        )
