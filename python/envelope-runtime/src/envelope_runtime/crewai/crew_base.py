"""`TeamCrewBase`, what the generated @CrewBase class of crew.py shares in both modes
(delegation.HierarchyCrew, steps.PipelineCrew): its agents carry config/*.yaml's texts with
`{{NAME}}` filled in for this object's run (texts.py), and every crew gets the class's
memory, embedder and the files of knowledge/."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from crewai import Agent, Crew, CrewOutput, Task
from crewai.agents.agent_builder.base_agent import BaseAgent
from crewai.tools import BaseTool
from typing_extensions import Self

from .. import placeholders
from ..team_package import TeamPackage
from . import llms, texts
from ._crewai_private import forget_memoized

if TYPE_CHECKING:
    from crewai.knowledge.source.base_file_knowledge_source import BaseFileKnowledgeSource

KNOWLEDGE = Path("knowledge")  # CrewAI's knowledge folder, where the team runs
KNOWLEDGE_SUFFIXES = (".txt", ".md", ".csv", ".json", ".pdf")  # knowledge.KINDS' keys


def kickoff(crew: Crew) -> CrewOutput:
    """Run a crew to the end (a crew crew.py makes stream is refused by name)."""
    output = crew.kickoff()
    if not isinstance(output, CrewOutput):
        raise TypeError(f"expected a CrewOutput, got {type(output).__name__} (stream=True?)")
    return output


def knowledge_sources() -> list[BaseFileKnowledgeSource]:
    """A CrewAI knowledge source per kind of file in knowledge/ (its README.md aside)."""
    files = knowledge_files()
    if not files:
        return []
    from .knowledge import sources

    return sources(files)


def knowledge_files() -> list[Path]:
    """The files of knowledge/ that are knowledge (its README.md aside)."""
    return [
        path
        for path in sorted(KNOWLEDGE.glob("*"))  # none when knowledge/ is missing
        if path.is_file() and path.suffix.lower() in KNOWLEDGE_SUFFIXES and path.name != "README.md"
    ]


def config_dir(package: TeamPackage) -> Path:
    """The team's config/ folder, beside its team.py."""
    return Path(str(package.team.__file__)).parent / "config"


def configured_llms(package: TeamPackage) -> dict[str, Any]:
    """Agent key -> the `llm:` its config/agents.yaml entry sets (it replaces models.MODELS),
    as written: a model id or an @llm method's name."""
    path = config_dir(package) / "agents.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries = {key: config.get(spec.method) or {} for key, spec in package.team.AGENTS.items()}
    return {key: entry["llm"] for key, entry in entries.items() if entry.get("llm")}


def request_tools(package: TeamPackage, agent_key: str) -> list[BaseTool]:
    """The agent's policy-enforcing http_request tool and its connection packs' tools
    (http_tools.py and connection_tools.py, each imported for a team that has them only)."""
    found: list[BaseTool] = []
    if agent_key in package.team.EGRESS:
        from .http_tools import http_tool

        found.append(http_tool(package, agent_key))
    if getattr(package.team, "CONNECTION_AGENTS", {}).get(agent_key):
        from .connection_tools import connection_tools

        found += connection_tools(package, agent_key)
    return found


def document_tools(package: TeamPackage, agent_key: str) -> list[BaseTool]:
    """The agent's workspace documents' tools (workspace_tools.py, imported for them only)."""
    if not getattr(package.team, "WORKSPACE", None):
        return []
    from .workspace_tools import workspace_tools

    return workspace_tools(package, agent_key)


def roots(package: TeamPackage) -> list[str]:
    """Agents without reportsToKey, in definition order."""
    return [key for key, spec in package.team.AGENTS.items() if spec.reports_to is None]


class TeamCrewBase:
    """Base of the generated @CrewBase class (crew.py): its agents and its crews."""

    package: TeamPackage  # crew.py sets it
    agents: list[BaseAgent]
    tasks: list[Task]
    crew: Callable[[], Crew]  # the generated @crew method
    # CrewAI's defaults, read by @CrewBase; each becomes the loaded YAML (a dict).
    agents_config: Any = "config/agents.yaml"
    tasks_config: Any = "config/tasks.yaml"
    memory: bool = False  # every crew's `Crew(memory=...)`; crew.py may set it
    embedder: dict[str, Any] | None = None  # the crews' `Crew(embedder=...)`; None: OpenAI's

    def __init__(self, inputs: Mapping[str, Any] | None = None, verbose: bool = False) -> None:
        team = self.package.team
        # Built without inputs (CrewAI AMP's `TeamCrew().crew().kickoff(inputs=...)`): the
        # kickoff's inputs, checked, fill in the texts (texts.py).
        self.deferred = inputs is None
        self.inputs = dict(inputs or {})
        self.values = placeholders.placeholder_values(
            [*team.SECRETS, *team.VARIABLES], os.environ, self.inputs, list(team.INPUTS)
        )
        self.verbose = verbose
        self._ready: set[int] = set()
        # CrewAI memoizes @agent/@task results by id(self) for the life of the process.
        forget_memoized(self)

    def role_of(self, agent_key: str) -> str:
        """The agent's CrewAI role (agents[].name), which delegation addresses it by."""
        return self._text(self._config(agent_key)["role"])

    def llm_of(self, agent_key: str) -> Any:
        """The agent's model: `llm:` in its config/agents.yaml entry, else models.MODELS;
        ENVELOPE_MODEL_FACTORY's whatever `llm:` says (it makes every model: offline runs)."""
        configured = self._config(agent_key).get("llm")
        if configured and not os.environ.get(llms.FACTORY_ENV):
            return configured
        return self.package.models.llm_for(agent_key)

    def tools_of(self, agent_key: str) -> list[BaseTool]:
        """`tools:` in config/agents.yaml, its HTTP tool, its packs' and documents' tools."""
        configured = self._config(agent_key).get("tools") or []
        own = request_tools(self.package, agent_key) + document_tools(self.package, agent_key)
        return [*configured, *own]

    def _config(self, agent_key: str) -> Any:
        """The agent's config/agents.yaml entry as @CrewBase maps it (`tools:` names become
        crew.py's @tool objects); its key is the agent's @agent method."""
        return self.agents_config[self.package.team.AGENTS[agent_key].method]

    def _prepared(self, agent_key: str, agent: Agent) -> Agent:
        """The agent of crew.py, with this run's texts: it delegates to no one, and one
        execution of it is bounded by its model's timeout (see llms.py) unless agents.yaml or
        crew.py sets max_execution_time; verbose when the run or they ask."""
        texts.render_agent(agent, self.values)
        agent.verbose = self.verbose or agent.verbose
        agent.allow_delegation = False
        model = self.package.models.MODELS[agent_key]
        agent.max_execution_time = agent.max_execution_time or llms.execution_limit_s(model)
        return agent

    def _crew(self, **options: Any) -> Crew:
        """A crew with the class's memory and embedder and knowledge/ files, whose texts
        `kickoff(inputs=...)` keeps (texts.kept_as_written)."""
        team_crew = Crew(
            **options,
            memory=self.memory,
            embedder=self.embedder,
            knowledge_sources=knowledge_sources() or None,
            verbose=self.verbose,
        )
        return texts.kept_as_written(team_crew, self)

    def _agent(self, agent_key: str) -> Agent:
        """The agent from its @agent method (memoized per crew object), prepared once."""
        agent: Agent = getattr(self, self.package.team.AGENTS[agent_key].method)()
        if id(agent) not in self._ready:
            self._ready.add(id(agent))
            self._prepared(agent_key, agent)
        return agent

    def inputs_text(self) -> str:
        """The run inputs as a task receives them, and the workspace rows whose trigger
        started the run (`watch`; run_context.py, for a team with `workspace` only)."""
        text = f"Run inputs (JSON):\n{json.dumps(self.inputs, indent=2, ensure_ascii=False)}"
        if getattr(self.package.team, "WORKSPACE", None):
            from .. import run_context

            text += run_context.trigger_text()
        return text

    def _text(self, text: Any) -> str:
        """A text of config/*.yaml, `{{NAME}}` filled in for this run."""
        return placeholders.render(str(text), self.values)

    def _fresh(self, **options: Any) -> Self:
        """A new object of the crew class for the same run: new agents, new tasks."""
        return type(self)(self.inputs, self.verbose, **options)
