"""The node functions every team's graph (graph.py) has, and what its other nodes share.

- `prepare` checks the run's models (its context) and the environment before any model
  call, and stores the inputs by key (the graph's input is flat; LangGraph has validated
  it against the team's state.TeamInputs).
- `finalize` validates the team's result (outputs).

`TeamNodes` is the base of the mode's node functions: hierarchy.py (the `team` node) or
pipeline.py (steps and gates). Every model-calling node runs within what is left of
timeout.runMs (`_within_deadline`); every node does nothing once the run is halted, so a
halt stops all branches. No node is retried: a node holds model and tool calls that already
completed, so only a failed model call is tried again, itself (llms.MODEL_ATTEMPTS). No
secret value is written to the state: answers are redacted before they are stored.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import BaseModel

from .. import redaction
from ..team_package import TeamPackage
from . import agents, llms, runtime
from .runtime import EnvRequirement, MissingEnvError, missing_env

TEAM_ANSWER = "team"
"""hierarchy: the key of the team's answer in `answers` (and the team node's name)."""

Update = dict[str, Any]
State = Mapping[str, Any]
"""The graph's state as a node gets it (the team's state.TeamState)."""
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
    """The graph's (flat) input for the run's inputs by key: the team's state.TeamInputs."""
    channels: Mapping[str, str] = package.module("state").INPUT_CHANNELS
    return {channels.get(key, key): value for key, value in inputs.items()}


RUN_FIELDS = ("answers", "records", "approved", "gates", "feedback", "work", "halted", "status")
"""The state's fields one run fills with reducers (state.TeamState); prepare starts them afresh."""


def fresh_run() -> Update:
    """prepare's reset: a new run on a thread that ran before (Studio's next run in a
    thread, an SDK run on the same thread_id) must not inherit the last run's halt, answers,
    gates, working time or result. None empties each reducer's field (runtime.merge and
    the others); `result` has no reducer, so None simply replaces it. Every run writes
    them, so every run's output has the same keys."""
    return {**dict.fromkeys(RUN_FIELDS), "result": None}


def halt(reason: str) -> Update:
    """The update that halts the run: every node does nothing once `halted` is set, and the
    output says so (`status`)."""
    return {"halted": reason, "status": "halted"}


class StepFailed(RuntimeError):
    """A step's answer could not be used."""


def as_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def secret_values(package: TeamPackage) -> list[str]:
    return [os.environ[name] for name in package.team.SECRETS if os.environ.get(name)]


def clean(package: TeamPackage, text: T) -> T:
    """Free text a node writes (answers, records, feedback), redacted: everything in the
    state is checkpointed, and no secret value may reach a checkpoint. The run's own
    fields (statuses, timestamps, ids) are never passed here."""
    return redaction.redact(text, secret_values(package))


def answer_json(package: TeamPackage, answer: BaseModel) -> str:
    """A structured answer as JSON text, its values redacted (never its keys)."""
    data = clean(package, answer.model_dump(mode="json", by_alias=True))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class TeamNodes:
    """The node functions of the graph (graph.py wires them) of the team `package`.

    `model_for(agent_key)` supplies each agent's chat model (default: the team's
    models.model_for, which builds the configured one on first use).
    """

    agents_class: type[agents.TeamAgents] = agents.TeamAgents
    """What builds the agents (hierarchy.py: each agent's graph)."""

    def __init__(self, package: TeamPackage, model_for: llms.ModelFactory | None = None) -> None:
        self.package = package
        self.default_models = model_for is None
        self.agents = self.agents_class(package, model_for or package.models.model_for)
        state = package.module("state")
        self.team_result: type[BaseModel] = state.TeamResult
        """The team's result (outputs): its state.TeamResult."""
        self.input_channels: Mapping[str, str] = state.INPUT_CHANNELS

    # --- start and end -----------------------------------------------------

    async def prepare(self, state: BaseModel, runtime: Runtime[Any]) -> Update:
        """Check the run's models (context) and environment, keep the inputs given or
        defaulted by key, and start the run afresh (fresh_run); no model call. Its input is
        the graph's flat input as LangGraph validated it (graph.py: `input_schema=TeamInputs`)."""
        self.check_run(runtime.context)
        keys = {channel: key for key, channel in self.input_channels.items()}
        given = state.model_dump()
        inputs = {keys.get(name, name): value for name, value in given.items() if value is not None}
        return {"inputs": inputs, **fresh_run()}

    def check_run(self, chosen: object | None) -> None:
        """The run's context (its models) and environment (secrets, variables, the provider
        keys of the models it uses). prepare checks them first; every model-calling node
        again (_within_deadline), as a resumed run is a new run, perhaps with another
        context: it fails the same way, before any model call."""
        problems = llms.context_problems(self.package, chosen)
        if problems:
            raise ValueError("; ".join(problems))
        # and the connection packs' credentials, as the runner's check (runner._missing_env)
        team = self.package.team
        packs = getattr(team, "CONNECTION_SECRETS", ())
        required: list[EnvRequirement] = [*team.SECRETS, *team.VARIABLES, *packs]
        if self.default_models:
            required += llms.required_env(self.package, chosen)
        missing = missing_env(required)
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
        """A model-calling node's work, bounded by what is left of timeout.runMs (the
        state's `work` spans), its own span added to the update. Past the deadline the
        run halts: no further model call is made. The run's context and environment are
        checked first (check_run): a resumed run's too."""
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
        """One task through an agent (`graph`: its graph of the team, hierarchy mode). A
        malformed structured answer goes back to the model with the validation error inside
        the conversation (create_agent's ToolStrategy); a conversation that ends without
        one (the model answered prose) is asked once more, told why, in the same
        conversation (its tool calls and their results kept, so none is made again); then
        the caller's check fails the step."""
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
        """The agent's structured answer (create_agent's `structured_response`)."""
        answer = result.get("structured_response")
        if not isinstance(answer, schema):
            raise StepFailed(f"{who}: the answer is not a {schema.__name__}")
        return answer
