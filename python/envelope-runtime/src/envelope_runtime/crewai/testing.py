"""A team's whole run offline, for the team's own tests (tests/test_team.py).

`Script` gives every agent a `ScriptedLLM` (a CrewAI BaseLLM, through the models' public
seam ENVELOPE_MODEL_FACTORY) that answers from the team's structure, never a network: a
crew's manager delegates to each of its coworkers once with CrewAI's delegation tool, an
agent that runs a sub-team hands it the task first (delegate_to_team), and a final answer
the task wants structured (the team's result, a step's records: its output_pydantic) is a
value of its JSON schema, any other a line of prose. `run_offline` runs the team as its
console script does (main.py's COMMANDS) with those models, inputs its TeamInputs accept and
test values for its environment; a run that waits at a gate is resumed with the decisions
file it wrote, every record approved, round after round, until the run ends.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewai import BaseLLM
from pydantic import Field

from ..team_package import TeamPackage
from ..testing import offline_env, sample
from . import runtime
from .llms import FACTORY_ENV, ModelSpec

DELEGATE = "delegate_work_to_coworker"
"""CrewAI's delegation tool (a hierarchical crew's manager holds it)."""
SUB_TEAM = "delegate_to_team"
"""delegation.SUB_TEAM_TOOL: a mid-level manager runs its sub-team with it."""


@dataclass(frozen=True)
class Call:
    """One model call: the agent whose model it is, the CrewAI role that made it (a
    manager's "<role> Requests" worker has the manager's model), and the task's name."""

    agent_key: str
    role: str | None
    task: str | None


@dataclass
class Script:
    """The answers of every agent's model in one offline run, and the calls made."""

    package: TeamPackage
    roles: Mapping[str, str]
    """Agent key -> CrewAI role (this run's: `{{NAME}}` filled in)."""
    items: int = 2
    """Entries in every list of a structured answer (the records a gate reviews)."""
    calls: list[Call] = field(default_factory=list)

    def llm_for(self, agent_key: str, spec: ModelSpec | None = None) -> ScriptedLLM:
        return ScriptedLLM(model=f"scripted/{agent_key}", agent_key=agent_key, script=self)

    def coworkers(self, manager_key: str) -> list[str]:
        """The roles a manager's crew delegates to (delegation.py's structure)."""
        from . import delegation

        keys = delegation.workers_of(self.package, manager_key)
        roles = [self.roles[key] for key in keys]
        if delegation.has_requests_delegate(self.package, manager_key):
            roles.append(f"{self.roles[manager_key]} Requests")
        return roles

    def answer(self, agent_key: str, messages: Any, task: Any, agent: Any, model: Any) -> str:
        role = getattr(agent, "role", None)
        self.calls.append(Call(agent_key, role, getattr(task, "name", None)))
        said = json.dumps(messages, default=str) if not isinstance(messages, str) else messages
        if getattr(agent, "allow_delegation", False):
            for coworker in self.coworkers(agent_key):
                action = _act(DELEGATE, task="Do your part.", context="", coworker=coworker)
                if _input_of(action) not in said:
                    return action
        held = {tool.name for tool in getattr(agent, "tools", None) or []}
        if SUB_TEAM in held and f"Action: {SUB_TEAM}" not in said:
            return _act(SUB_TEAM, task="Do your part of the task.")
        model = model or getattr(task, "output_pydantic", None)
        if model is not None:
            return _final(json.dumps(sample(model.model_json_schema(), self.items)))
        return _final(f"{role or agent_key} has done its part.")


def _act(tool: str, **arguments: str) -> str:
    return f"Thought: I will use a tool\nAction: {tool}\nAction Input: {json.dumps(arguments)}"


def _input_of(action: str) -> str:
    """What an action of ours leaves in the conversation, JSON-escaped as `said` holds it."""
    return json.dumps(action.rpartition("Action Input: ")[2])[1:-1]


def _final(answer: str) -> str:
    return f"Thought: I now know the final answer\nFinal Answer: {answer}"


class ScriptedLLM(BaseLLM):
    """One agent's model in an offline run: its Script answers (ReAct text, no tool schema)."""

    agent_key: str
    script: Any = Field(exclude=True)

    def call(
        self,
        messages: Any,
        tools: Any = None,
        callbacks: Any = None,
        available_functions: Any = None,
        from_task: Any = None,
        from_agent: Any = None,
        response_model: Any = None,
    ) -> str:
        answer: str = self.script.answer(
            self.agent_key, messages, from_task, from_agent, response_model
        )
        return answer

    async def acall(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        return self.call(messages, *args, **kwargs)

    def supports_function_calling(self) -> bool:
        return False

    def get_context_window_size(self) -> int:
        return 200_000


_SCRIPT: ContextVar[Script | None] = ContextVar("envelope_offline_script", default=None)


def scripted_llm(agent_key: str, spec: ModelSpec) -> ScriptedLLM:
    """ENVELOPE_MODEL_FACTORY of an offline run: the agent's model from its Script."""
    script = _SCRIPT.get()
    if script is None:
        raise RuntimeError("scripted_llm serves run_offline only")
    return script.llm_for(agent_key, spec)


@dataclass
class OfflineRun:
    """What `run_offline` saw: the exit code of each command, the last one's output (the
    team's result, or what it waits for), the gates reviewed in order, the model calls."""

    codes: list[int]
    output: Any
    reviews: list[str]
    calls: list[Call]

    def agents(self) -> set[str]:
        """The agents whose model was called (by key)."""
        return {call.agent_key for call in self.calls}


OFFLINE_RUN_MS = 600_000
"""The run's deadline offline: timeout.runMs bounds a real run's models, and scripted ones
take no time, but CrewAI's own work on a busy test machine could pass a short runMs."""


@contextlib.contextmanager
def _offline(package: TeamPackage, directory: Path, script: Script) -> Iterator[None]:
    env = {**offline_env(package), FACTORY_ENV: f"{__name__}:scripted_llm"}
    saved = {name: os.environ.get(name) for name in env}
    token, here, run_ms = _SCRIPT.set(script), Path.cwd(), package.team.RUN_TIMEOUT_MS
    os.environ.update(env)
    os.chdir(directory)  # no .env, knowledge/ or state of the project's
    package.team.RUN_TIMEOUT_MS = max(run_ms, OFFLINE_RUN_MS)
    try:
        yield
    finally:
        package.team.RUN_TIMEOUT_MS = run_ms
        os.chdir(here)
        _SCRIPT.reset(token)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _command(package: TeamPackage, argv: list[str]) -> tuple[int, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = package.module("main").COMMANDS.main(argv)
    try:
        return code, json.loads(out.getvalue())
    except json.JSONDecodeError:
        return code, out.getvalue()


def run_offline(package: TeamPackage, directory: Path, max_rounds: int = 20) -> OfflineRun:
    """Run the team offline in `directory` (a test's tmp_path) to its end."""
    team = package.team
    inputs = sample(team.TeamInputs.model_json_schema())
    counts = [getattr(spec, "threshold_count", None) or 1 for spec in team.GATES.values()]
    script = Script(package, {}, items=max([2, *counts]))
    state = ["--state-dir", str(directory / "runs")]
    pipeline = team.MODE == "pipeline"
    with _offline(package, directory, script):
        crews = package.module("crew").TeamCrew(inputs)
        script.roles = {key: crews.role_of(key) for key in team.AGENTS}
        argv = ["--inputs", json.dumps(inputs), *(["--no-interactive", *state] if pipeline else [])]
        code, output = _command(package, argv)
        codes, reviews = [code], []
        while code == runtime.EXIT_PENDING and len(codes) <= max_rounds:
            decisions = Path(output["decisions_file"])
            document = json.loads(decisions.read_text(encoding="utf-8"))
            for name, gate in document["gates"].items():
                reviews.append(name)
                actions = team.GATES[name].actions
                approve = next(a.label for a in actions if a.verb == "approve")
                for item in gate["decisions"]:
                    item["action"] = approve
            decisions.write_text(json.dumps(document), encoding="utf-8")
            resume = ["resume", output["run_id"], "--decisions", str(decisions), *state]
            code, output = _command(package, resume)
            codes.append(code)
    return OfflineRun(codes, output, reviews, script.calls)
