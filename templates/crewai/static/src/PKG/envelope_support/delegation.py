"""How the team's agents are assembled into crews, and how work is delegated.

The generated crew.py is a CrewAI @CrewBase class deriving from `TeamCrewBase`, with one
@agent method per definition agent, each `Agent(config=..., llm=self.llm_of(key),
tools=self.tools_of(key))`. Everything else is here. Agents and tasks carry the real texts
of config/*.yaml, with `{{NAME}}` filled in for the run this object belongs to (texts.py).

hierarchy mode (`team.MODE == "hierarchy"`, agents[].reportsToKey):
- The first root agent (no reportsToKey, in definition order) is the crew's
  manager_agent: out of the crew's `agents` and without tools, as CrewAI requires.
- Its workers are its direct reports and the other roots. When the manager has an
  access policy, a "<role> Requests" worker makes its HTTP requests for it.
- A worker that manages agents of its own (a mid-level manager) gets the tool
  `delegate_to_team`, which runs its sub-team as a nested hierarchical crew with that
  agent as the manager; the sub-team's mid-level managers get the same tool, to any depth.
- A first root that manages nobody (a one-agent team) runs the task itself.

pipeline mode (`team.MODE == "pipeline"`): each step is an @task of crew.py (`step_task`);
pipeline.py runs it as a one-task crew (`step_crew`), the answers it waits for as its
context, and gates' escalations as one-off tasks (`agent_crew`), each with fresh agents.
`steps_crew` is every step in one sequential crew (the pipeline's @crew).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml
from crewai import Agent, Crew, CrewOutput, Process, Task
from crewai.agents.agent_builder.base_agent import BaseAgent
from crewai.knowledge.source.base_knowledge_source import BaseKnowledgeSource
from crewai.tasks.task_output import TaskOutput
from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from .. import models, team
from . import http_tools as tools
from . import llms, texts

TEAM_TASK = "handle_request"
"""hierarchy: the @task method and config/tasks.yaml entry of the team's run."""

SUB_TEAM_TOOL = "delegate_to_team"

KNOWLEDGE = Path("knowledge")
"""CrewAI's knowledge folder, where the team runs: each file in it is knowledge of every crew."""
_KNOWLEDGE_SUFFIXES = (".txt", ".md", ".csv", ".json", ".pdf")

_LIVE: list[TeamCrewBase] = []
"""Every crew object stays alive: CrewAI memoizes @agent and @task results by id(self),
so a collected object's id must never be reused within a process. (A process that runs
the team many times, such as a server, keeps them all: a few kB per step.)"""


def kickoff(crew: Crew) -> CrewOutput:
    """Run a crew to the end (these crews never stream)."""
    output = crew.kickoff()
    if not isinstance(output, CrewOutput):
        raise TypeError(f"expected a CrewOutput, got {type(output).__name__}")
    return output


def knowledge_sources() -> list[BaseKnowledgeSource]:
    """A CrewAI knowledge source per kind of file in knowledge/ (its README.md aside)."""
    from crewai.knowledge.source.csv_knowledge_source import CSVKnowledgeSource
    from crewai.knowledge.source.json_knowledge_source import JSONKnowledgeSource
    from crewai.knowledge.source.pdf_knowledge_source import PDFKnowledgeSource
    from crewai.knowledge.source.text_file_knowledge_source import TextFileKnowledgeSource

    kind_of: dict[str, Any] = {
        ".txt": TextFileKnowledgeSource,
        ".md": TextFileKnowledgeSource,
        ".csv": CSVKnowledgeSource,
        ".json": JSONKnowledgeSource,
        ".pdf": PDFKnowledgeSource,
    }
    names: dict[Any, list[str]] = {}
    for path in knowledge_files():
        names.setdefault(kind_of[path.suffix.lower()], []).append(path.name)
    return [kind(file_paths=paths) for kind, paths in names.items()]


def knowledge_files() -> list[Path]:
    """The files of knowledge/ that are knowledge (its README.md aside)."""
    files = sorted(KNOWLEDGE.iterdir()) if KNOWLEDGE.is_dir() else []
    return [
        path
        for path in files
        if path.is_file()
        and path.suffix.lower() in _KNOWLEDGE_SUFFIXES
        and path.name != "README.md"
    ]


def configured_llms() -> set[str]:
    """Agents whose config/agents.yaml entry sets `llm:` (it replaces models.MODELS)."""
    path = Path(__file__).parent.parent / "config" / "agents.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {key for key, spec in team.AGENTS.items() if (config.get(spec.method) or {}).get("llm")}


# --- the hierarchy (agents[].reportsToKey) --------------------------------


def roots() -> list[str]:
    """Agents without reportsToKey, in definition order."""
    return [key for key, spec in team.AGENTS.items() if spec.reports_to is None]


def reports_of(agent_key: str) -> list[str]:
    """The agents whose reportsToKey is `agent_key`, in definition order."""
    return [key for key, spec in team.AGENTS.items() if spec.reports_to == agent_key]


def top_manager() -> str | None:
    """hierarchy: the first root, if it has anyone to delegate to; pipeline: None."""
    if team.MODE != "hierarchy":
        return None
    first, *others = roots()
    return first if others or reports_of(first) else None


def workers_of(manager_key: str) -> list[str]:
    """Whom a manager's crew delegates to: its reports, and for the top manager the other roots."""
    others = [key for key in roots() if key != manager_key] if manager_key == top_manager() else []
    return [*reports_of(manager_key), *others]


def manager_of(agent_key: str) -> str:
    """Who an agent's work escalates to: its reportsToKey, else the first root."""
    return team.AGENTS[agent_key].reports_to or roots()[0]


def has_sub_team(agent_key: str) -> bool:
    """A mid-level manager: a worker in its parent's crew that has reports of its own."""
    return team.MODE == "hierarchy" and agent_key != top_manager() and bool(reports_of(agent_key))


def has_requests_delegate(agent_key: str) -> bool:
    """The top manager's access policy is carried by its "<role> Requests" worker."""
    return agent_key == top_manager() and agent_key in tools.POLICIES


# --- the sub-team tool ----------------------------------------------------


class SubTeamInput(BaseModel):
    task: str = Field(description="The task for your team, with everything they need to do it.")


class SubTeamTool(BaseTool):
    """Runs a mid-level manager's sub-team as a nested hierarchical crew."""

    name: str = SUB_TEAM_TOOL
    description: str = "Hand a task to the team you manage and get their answer."
    args_schema: type[BaseModel] = SubTeamInput
    manager_key: str
    run_team: Callable[[str, str], str] = Field(exclude=True)
    """(manager key, task) -> the sub-team's answer."""

    def _run(self, task: str) -> str:
        return self.run_team(self.manager_key, task)


# --- the crew base ---------------------------------------------------------


class TeamCrewBase:
    """Base of the generated @CrewBase class (crew.py): agents, tasks and crews."""

    agents: list[BaseAgent]
    tasks: list[Task]
    crew: Callable[[], Crew]
    """The generated @crew method: team_crew() (hierarchy), steps_crew() (pipeline)."""
    # CrewAI's defaults, read by @CrewBase; each becomes the loaded YAML (a dict).
    agents_config: Any = "config/agents.yaml"
    tasks_config: Any = "config/tasks.yaml"
    memory: bool = False
    """CrewAI memory for every crew of the team (`Crew(memory=...)`); crew.py may set it.
    (A Flow, flow.py, has CrewAI's own flow memory besides, as every CrewAI Flow.)"""
    embedder: dict[str, Any] | None = None
    """The embedder of the crews' memory and knowledge (`Crew(embedder=...)`); None: CrewAI's
    default, OpenAI's."""

    def __init__(
        self,
        inputs: Mapping[str, Any] | None = None,
        verbose: bool = False,
        managing: str | None = None,
    ) -> None:
        """`managing`: the agent this object builds as a manager (default: the top manager)."""
        self.inputs = dict(inputs or {})
        self.values = texts.placeholder_values(
            [*team.SECRETS, *team.VARIABLES], os.environ, self.inputs, list(team.INPUTS)
        )
        self.verbose = verbose
        self.managing = managing if managing is not None else top_manager()
        self._ready: set[int] = set()
        _LIVE.append(self)

    def role_of(self, agent_key: str) -> str:
        """The agent's CrewAI role (agents[].name), which delegation addresses it by."""
        return self._text(self.agents_config[team.AGENTS[agent_key].method]["role"])

    def llm_of(self, agent_key: str) -> Any:
        """The agent's model: `llm:` in its config/agents.yaml entry, else models.MODELS."""
        configured = self.agents_config[team.AGENTS[agent_key].method].get("llm")
        return configured if configured else models.llm_for(agent_key)

    def tools_of(self, agent_key: str) -> list[BaseTool]:
        """The agent's tools: `tools:` in config/agents.yaml, its HTTP tool, its sub-team.

        No tool for the agent this object builds as a manager: CrewAI gives a manager its
        delegation tools and refuses any other.
        """
        if agent_key == self.managing:
            return []
        configured = self.agents_config[team.AGENTS[agent_key].method].get("tools") or []
        agent_tools: list[BaseTool] = list(configured)
        if agent_key in tools.POLICIES:
            agent_tools.append(tools.http_tool(agent_key))
        if has_sub_team(agent_key):
            agent_tools.append(self._sub_team_tool(agent_key))
        return agent_tools

    def _prepared(self, agent_key: str, agent: Agent) -> Agent:
        """The agent of crew.py, with this run's texts and its part in the hierarchy."""
        texts.render_agent(agent, self.values)
        agent.verbose = self.verbose
        agent.allow_delegation = agent_key == self.managing
        if agent_key != self.managing and not has_sub_team(agent_key):
            # A sub-team's work runs inside its manager's execution: only runMs bounds it.
            agent.max_execution_time = llms.execution_limit_s(models.MODELS[agent_key])
        return agent

    # hierarchy mode ------------------------------------------------------

    def team_task(self) -> Task:
        """The team's run (config/tasks.yaml handle_request, the run inputs, outputs)."""
        config = self.tasks_config[TEAM_TASK]
        return Task(
            name=TEAM_TASK,
            description=f"{self._text(config['description'])}\n\n{self.inputs_text()}",
            expected_output=self._text(config["expected_output"]),
            output_pydantic=team.TeamResult,
            agent=None if self.managing is not None else self._agent(roots()[0]),
        )

    def team_crew(self) -> Crew:
        """The crew of one run; the generated @crew method returns it."""
        if self.managing is None:
            worker = self._agent(roots()[0])
            return self._crew(
                agents=[worker],
                tasks=self.tasks,
                process=Process.sequential,
            )
        return self._hierarchical_crew(self.managing, self.tasks)

    def _hierarchical_crew(self, manager_key: str, tasks: list[Task]) -> Crew:
        workers: list[BaseAgent] = [self._agent(key) for key in workers_of(manager_key)]
        if has_requests_delegate(manager_key):
            workers.append(self._requests_delegate(manager_key))
        return self._crew(
            agents=workers,
            tasks=tasks,
            process=Process.hierarchical,
            manager_agent=self._agent(manager_key),
        )

    def _requests_delegate(self, manager_key: str) -> Agent:
        role = self.role_of(manager_key)
        delegate = Agent(
            role=f"{role} Requests",
            goal=f"Make the HTTP requests {role} asks for and report the results exactly.",
            backstory=(
                f"You make outbound HTTP requests on behalf of {role}, within {role}'s "
                "access policy. You do nothing else."
            ),
            llm=self.llm_of(manager_key),
            tools=[tools.http_tool(manager_key)],
            max_execution_time=llms.execution_limit_s(models.MODELS[manager_key]),
            verbose=self.verbose,
        )
        # Its texts are already this run's (the role is rendered): only the executor.
        delegate.executor_class = texts.VerbatimExecutor
        return delegate

    def _sub_team_tool(self, manager_key: str) -> SubTeamTool:
        team_roles = ", ".join(self.role_of(key) for key in workers_of(manager_key))
        return SubTeamTool(
            manager_key=manager_key,
            run_team=self._run_sub_team,
            description=(
                f"Hand a task to the team you manage ({team_roles}) and get their answer. "
                "They cannot see your conversation: put everything they need into the task."
            ),
        )

    def _run_sub_team(self, manager_key: str, task: str) -> str:
        # A fresh crew object: its agents are new, and `manager_key` is built as a manager.
        sub_team = self._fresh(managing=manager_key)
        work = Task(
            name=f"team:{manager_key}",
            description=task,
            expected_output="The team's complete answer to the task.",
        )
        return kickoff(sub_team._hierarchical_crew(manager_key, [work])).raw

    # pipeline mode -------------------------------------------------------

    def step_task(self, step_key: str) -> Task:
        """pipeline[] step: its @task in crew.py (config/tasks.yaml), for this run, once."""
        work: Task = getattr(self, team.PIPELINE[step_key].method)()
        if id(work) not in self._ready:
            self._ready.add(id(work))
            work.name = step_key
            work.description = self._text(work.description)
            work.expected_output = self._text(work.expected_output)
            work.agent = self._agent(team.PIPELINE[step_key].agent_key)
            output_model = team.RECORD_MODELS.get(step_key)
            work.output_pydantic = team.TeamResult if step_key == team.FINAL_STEP else output_model
        return work

    def step_crew(self, step_key: str, received: str, answers: Mapping[str, str]) -> Crew:
        """One step as a one-task crew, with fresh agents: its task gets `received` (released
        records, or the run inputs) appended, and the answers of the steps it waits for as
        CrewAI context (`Task.context`, each a finished task)."""
        steps = self._fresh()
        work = steps.step_task(step_key)
        if answers:
            # CrewAI's context joins the answers without saying whose each one is.
            whose = ", ".join(f"step {dep} ({team.PIPELINE[dep].label})" for dep in answers)
            work.description = f"{work.description}\n\nThe context is the answer of {whose}."
        if received:
            work.description = f"{work.description}\n\n{received}"
        work.context = [steps._finished(dep, text) for dep, text in answers.items()]
        worker = steps._agent(team.PIPELINE[step_key].agent_key)
        return self._crew(
            agents=[worker],
            tasks=[work],
            process=Process.sequential,
        )

    def steps_crew(self) -> Crew:
        """pipeline: every step as one sequential crew, each task's context the steps it
        depends on. A gate becomes CrewAI's own `human_input` on the step it reviews (free
        feedback at the terminal, not per record): flow.py runs the team with its gates."""
        tasks = [self.step_task(key) for key in team.PIPELINE]
        for work, (key, spec) in zip(tasks, team.PIPELINE.items(), strict=True):
            work.context = [self.step_task(dep) for dep in spec.depends_on]
            if not spec.depends_on:
                work.description = f"{work.description}\n\n{self.inputs_text()}"
            work.human_input = any(gate.after_step == key for gate in team.GATES.values())
        agents = {id(work.agent): work.agent for work in tasks if work.agent is not None}
        return self._crew(
            agents=list(agents.values()),
            tasks=tasks,
            process=Process.sequential,
        )

    def _finished(self, step_key: str, text: str) -> Task:
        """A step's task holding the answer it gave earlier in the run (a task's context)."""
        done = self.step_task(step_key)
        done.output = TaskOutput(
            name=step_key, description=done.description, raw=text, agent=done.agent.role
        )
        return done

    def agent_crew(
        self,
        agent_key: str,
        name: str,
        description: str,
        expected_output: str,
        output_model: type[BaseModel] | None,
    ) -> Crew:
        """One task for one agent (a step, or a gate's escalation), with a fresh agent."""
        worker = self._fresh()._agent(agent_key)
        work = Task(
            name=name,
            description=description,
            expected_output=expected_output,
            agent=worker,
            output_pydantic=output_model,
        )
        return self._crew(
            agents=[worker],
            tasks=[work],
            process=Process.sequential,
        )

    # helpers -------------------------------------------------------------

    def _crew(self, **options: Any) -> Crew:
        """A crew of the team, with the class's memory and embedder and knowledge/ files."""
        team_crew = Crew(
            **options,
            memory=self.memory,
            embedder=self.embedder,
            knowledge_sources=knowledge_sources() or None,
            verbose=self.verbose,
        )
        team_crew.before_kickoff_callbacks.append(self._kickoff_inputs(team_crew))
        return team_crew

    def _kickoff_inputs(self, team_crew: Crew) -> Callable[[dict[str, Any] | None], dict[str, Any]]:
        """`kickoff(inputs=...)`: this object filled in its texts when it was built, so CrewAI
        gets `texts.crewai_inputs`, which leave them as written. A run input other than this
        object's would be silently ignored: it is refused."""

        def given(inputs: dict[str, Any] | None) -> dict[str, Any]:
            inputs = dict(inputs or {})
            other = sorted(
                key
                for key, value in inputs.items()
                if key in team.INPUTS and value != "{" + key + "}" and self.inputs.get(key) != value
            )
            if other:
                raise ValueError(
                    f"inputs {other} differ from the crew's: give a run's inputs to the crew "
                    "class, TeamCrew(inputs).crew().kickoff(), which fills in its texts"
                )
            return texts.crewai_inputs(team_crew, inputs)

        return given

    def _agent(self, agent_key: str) -> Agent:
        """The agent from its @agent method (memoized per crew object), prepared once."""
        agent: Agent = getattr(self, team.AGENTS[agent_key].method)()
        if id(agent) not in self._ready:
            self._ready.add(id(agent))
            self._prepared(agent_key, agent)
        return agent

    def inputs_text(self) -> str:
        """The run inputs as a task receives them (the team's task, a first step)."""
        return f"Run inputs (JSON):\n{json.dumps(self.inputs, indent=2, ensure_ascii=False)}"

    def _text(self, text: Any) -> str:
        """A text of config/*.yaml, `{{NAME}}` filled in for this run."""
        return texts.render(str(text), self.values)

    def _fresh(self, managing: str | None = None) -> TeamCrewBase:
        fresh: TeamCrewBase = type(self)(self.inputs, self.verbose, managing)
        return fresh
