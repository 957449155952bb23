"""The nodes every team's graph has (`prepare`, `finalize`) and what the others share
(`TeamNodes`, the base of hierarchy.py's and pipeline.py's): every model-calling node runs
within what is left of timeout.runMs, every node does nothing once the run is halted, and
no secret value is written to the state (answers are redacted first) or in an exception
that ends one of those nodes (LangGraph checkpoints it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

# The task's read function (config key): LangGraph has no public name for it (1.2).
from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import BaseModel

from .. import redaction
from ..team_package import TeamPackage
from . import agents, llms, runtime
from .runtime import MissingEnvError

if TYPE_CHECKING:  # annotations only: check_run loads inputs.py when it checks a run
    from ..inputs import EnvRequirement

TEAM_ANSWER = "team"  # hierarchy: the team's answer in `answers`, and the team node

Update = dict[str, Any]
State = Mapping[str, Any]  # the team's state.TeamState
Node = Callable[[State], Awaitable[Update | Command[str]]]
Answer = TypeVar("Answer", bound=BaseModel)
T = TypeVar("T")


DEADLINE_PREFIX = "Run deadline exceeded"


def deadline_message(package: TeamPackage) -> str:
    limit = package.team.RUN_TIMEOUT_MS
    return (
        f"{DEADLINE_PREFIX}: the team did not finish within {limit} ms of work "
        "(timeout.runMs, counted across resumes). No further model calls are made."
    )


def graph_input(package: TeamPackage, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The graph's flat input (state.TeamInputs) for the run's inputs by key."""
    channels: Mapping[str, str] = package.module("state").INPUT_CHANNELS
    return {channels.get(key, key): value for key, value in inputs.items()}


RUN_FIELDS = ("answers", "records", "approved", "gates", "feedback", "work", "halted", "status")
"""The state's fields with reducers (state.TeamState), which prepare starts afresh."""


def fresh_run() -> Update:
    """prepare's reset: a new run on a thread that ran before must not inherit the last
    run's halt, answers, gates, working time or result; None empties each reducer's field."""
    return {**dict.fromkeys(RUN_FIELDS), "result": None}


def halt(reason: str) -> Update:
    return {"halted": reason, "status": "halted"}


class StepFailed(RuntimeError):
    """A step's answer could not be used."""


def as_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def clean(package: TeamPackage, text: T) -> T:
    """Free text a node writes (answers, records, feedback) redacted: the state is
    checkpointed. Never the run's own fields (statuses, timestamps, ids)."""
    return redaction.redact(text, redaction.secret_values(package.team.SECRETS))


def answer_json(package: TeamPackage, answer: BaseModel) -> str:
    """A structured answer as JSON text, its values redacted (never its keys)."""
    data = clean(package, answer.model_dump(mode="json", by_alias=True))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class TeamNodes:
    """The node functions of the team `package`'s graph (graph.py wires them); `model_for`:
    each agent's chat model (default: the team's models.model_for)."""

    agents_class: type[agents.TeamAgents] = agents.TeamAgents

    def __init__(self, package: TeamPackage, model_for: llms.ModelFactory | None = None) -> None:
        self.package = package
        self.default_models = model_for is None
        self.agents = self.agents_class(package, model_for or package.models.model_for)
        state = package.module("state")
        self.team_result: type[BaseModel] = state.TeamResult
        self.input_channels: Mapping[str, str] = state.INPUT_CHANNELS

    async def prepare(self, state: BaseModel, runtime: Runtime[Any]) -> Update:
        """Check the run's context and environment, keep the inputs (as LangGraph validated
        them: graph.py's `input_schema=TeamInputs`) by key, and start the run afresh."""
        self.check_run(runtime.context)
        keys = {channel: key for key, channel in self.input_channels.items()}
        given = state.model_dump()
        inputs = {keys.get(name, name): value for name, value in given.items() if value is not None}
        return {"inputs": inputs, **fresh_run()}

    def new_run(self, state: Mapping[str, Any]) -> str:
        """START's edge to prepare (graph.py): a new run is refused on a thread whose last run
        did not end done (it waits, halted or failed). The joins' barrier channels
        (add_edge([a, b], x)) may stay half-filled in the checkpoint, and no node update can
        empty them, so the run would join on one side only. An edge reads the thread's
        channels (prepare's own state is the input only: graph.py's input_schema)."""
        if state.get("status") == "done" or "inputs" not in state:
            return "prepare"  # the last run ended done, or no run got past prepare here
        thread = get_config()["configurable"].get("thread_id")
        status = state.get("status") or "none: it failed or was stopped"
        raise ValueError(
            f"thread {thread}: a new run is refused, as its last run did not end done "
            f"(status {status}): it would start with that run's joins half-done. Start the "
            "run on a new thread (the runner gives each run one). The earlier run is no "
            "longer the thread's latest checkpoint, so a resume of the thread has nothing "
            "to go on with; it stays in the thread's history (the checkpoint before this "
            "run), from which LangGraph can resume it (checkpoint_id)."
        )

    def check_run(self, chosen: object | None) -> None:
        """The run's context (its models) and environment (secrets, variables, provider keys),
        by prepare and again by every model-calling node: a resumed run may have another
        context, and fails the same way before any model call."""
        problems = llms.context_problems(self.package, chosen)
        if problems:
            raise ValueError("; ".join(problems))
        team = self.package.team
        packs = getattr(team, "CONNECTION_SECRETS", ())
        required: list[EnvRequirement] = [*team.SECRETS, *team.VARIABLES, *packs]
        if self.default_models:
            required += llms.required_env(self.package, chosen)
        # inputs.py is the runner's (building the graph does not load it): a run's check loads it.
        from ..inputs import missing_env

        missing = missing_env(required, os.environ)
        if missing:
            raise MissingEnvError(missing)

    async def finalize(self, state: State) -> Update:
        """The team's result (outputs), from the final step's or the team's answer."""
        if state.get("halted"):
            return {}
        source = self.package.team.FINAL_STEP or TEAM_ANSWER
        result = self.team_result.model_validate_json(state["answers"][source])
        return {"result": result.model_dump(mode="json", by_alias=True), "status": "done"}

    async def _within_deadline(
        self, state: State, work: Callable[[], Awaitable[Update | Command[str]]]
    ) -> Update | Command[str]:
        """A model-calling node's work within what is left of timeout.runMs (the state's
        `work` spans), its own span added; past the deadline the run halts. An exception
        leaves it without secret values (agents.secrets_redacted): LangGraph stores it."""
        return await agents.secrets_redacted(self.package, self._bounded(state, work))

    async def _bounded(
        self, state: State, work: Callable[[], Awaitable[Update | Command[str]]]
    ) -> Update | Command[str]:
        if state.get("halted"):
            return await work()  # a halted run's nodes do nothing
        self.check_run(llms.run_context())
        left_ms = self.package.team.RUN_TIMEOUT_MS - runtime.worked_ms(state.get("work"))
        if left_ms <= 0:
            return halt(deadline_message(self.package))
        started = time.time()
        try:
            async with asyncio.timeout(left_ms / 1000) as scope:
                outcome = await work()
        except TimeoutError:
            if not scope.expired():
                raise
            return {**halt(deadline_message(self.package)), "work": [(started, time.time())]}
        span = {"work": [(started, time.time())]}
        if isinstance(outcome, Command):
            return dataclasses.replace(outcome, update={**(outcome.update or {}), **span})
        return {**outcome, **span}

    async def _ask(
        self,
        agent_key: str,
        inputs: Mapping[str, Any],
        task: str,
        task_name: str,
        schema: type[BaseModel] | None = None,
        graph: agents.AgentGraph | None = None,
    ) -> dict[str, Any]:
        """One task through an agent. A conversation that ends without a structured answer
        (ToolStrategy already returned malformed ones with the error) is asked once more,
        told why, in the same conversation (no tool call made again); then the step fails."""
        result = await self.agents.ask(agent_key, inputs, task, task_name, schema, graph)
        if schema is None or isinstance(result.get("structured_response"), schema):
            return result
        feedback = (
            f"Your previous answer could not be used: it did not end with a valid call of "
            f"{schema.__name__}. "
        )
        history = list(result.get("messages") or [])
        if history and not getattr(history[-1], "tool_calls", None):
            feedback += f"Finish the task by calling {schema.__name__} now."
            return await self.agents.ask(
                agent_key, inputs, feedback, task_name, schema, graph, history
            )
        # No conversation to go on with (none, or one ending on calls not answered).
        retry = f"{task}\n\n{feedback}Do the task again and finish by calling {schema.__name__}."
        return await self.agents.ask(agent_key, inputs, retry, task_name, schema, graph)

    @staticmethod
    def _structured(result: Mapping[str, Any], schema: type[Answer], who: str) -> Answer:
        answer = result.get("structured_response")
        if not isinstance(answer, schema):
            raise StepFailed(f"{who}: the answer is not a {schema.__name__}")
        return answer
