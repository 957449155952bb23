"""A team's whole run offline, for the team's own tests (tests/test_team_run.py).

`ScriptedModels` gives every agent a LangChain chat model that answers from what it is
bound to, never from a network: a manager asks each of its reports once (its `ask_<report>`
tools, so the whole hierarchy works), an agent that owes a structured answer (create_agent's
ToolStrategy tool: the team's result, a step's records, a revision) calls it with values its
JSON schema accepts, and any other agent answers in prose. `run_offline` runs the team's
compiled graph (build_graph with an in-memory checkpointer and these models) from inputs its
input schema accepts, through every gate: each review is answered with `Command(resume=...)`,
rejecting the first round where the gate sends rejected records back (onReject rerun or
escalate), approving every record otherwise, until the run ends.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from ..team_package import TeamPackage
from ..testing import offline_env, sample
from .agents import ASK_PREFIX


def sample_inputs(package: TeamPackage) -> dict[str, Any]:
    """A value for every field of the team's input schema (state.TeamInputs), by its key in
    the graph's input."""
    return dict(sample(package.module("state").TeamInputs.model_json_schema()))


class ScriptedChatModel(BaseChatModel):
    """One agent's model in an offline run (ScriptedModels): answers from its bound tools."""

    agent_key: str
    script: Any
    """The ScriptedModels that made it: what counts as an answer, and the log of calls."""

    @property
    def _llm_type(self) -> str:
        return "envelope-scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(tool)["function"] for tool in tools])

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        reply = self.script.reply(self.agent_key, messages, kwargs.get("tools") or [])
        return ChatResult(generations=[ChatGeneration(message=reply)])


@dataclass
class ScriptedModels:
    """The `model_for` of an offline run: each agent's ScriptedChatModel; `calls` logs which
    agent each model call was made for, `prompts` its system prompt."""

    package: TeamPackage
    calls: list[str] = field(default_factory=list)
    prompts: dict[str, str] = field(default_factory=dict)
    _ids: Iterator[int] = field(default_factory=itertools.count)

    def model_for(self, agent_key: str) -> BaseChatModel:
        return ScriptedChatModel(agent_key=agent_key, script=self)

    def answers(self) -> set[str]:
        """The names of the structured answers an agent may owe (ToolStrategy's tools)."""
        state = self.package.module("state")
        names = {state.TeamResult.__name__, *(m.__name__ for m in state.RECORD_MODELS.values())}
        return names | ({"GateDecisions"} if self.package.team.GATES else set())

    def records(self) -> int:
        """Records per structured answer: enough for every gate's threshold."""
        gates = self.package.team.GATES.values()
        return max([1, *(getattr(gate, "threshold_count", None) or 1 for gate in gates)])

    def reply(
        self, agent_key: str, messages: Sequence[BaseMessage], tools: Sequence[Mapping[str, Any]]
    ) -> AIMessage:
        self.calls.append(agent_key)
        if messages and messages[0].type == "system":
            self.prompts.setdefault(agent_key, messages[0].text)
        done = {c["name"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
        asks = [t["name"] for t in tools if t["name"].startswith(ASK_PREFIX)]
        calls = [
            {"name": name, "args": {"task": f"Your part of the run ({agent_key} asks)."}}
            for name in asks
            if name not in done
        ]
        if not calls:
            answers = self.answers()
            owed = next((t for t in tools if t["name"] in answers), None)
            if owed is None:
                return AIMessage(content=f"{agent_key}: done.", id=f"run-{next(self._ids)}")
            calls = [{"name": owed["name"], "args": sample(owed["parameters"], self.records())}]
        for call in calls:
            call["id"] = f"call-{next(self._ids)}"
        return AIMessage(content="", tool_calls=calls, id=f"run-{next(self._ids)}")


@dataclass
class OfflineRun:
    """What an offline run did: its output, the gates it reviewed (in order, once per
    review) and the models' log (ScriptedModels)."""

    output: dict[str, Any]
    reviews: list[str]
    models: ScriptedModels


def _decisions(request: Mapping[str, Any], reject: bool) -> dict[str, Any]:
    """A reviewer's resume value for one gate's interrupt: every record rejected or approved
    (approve, else skip, when the gate's actions have no approve)."""
    verbs = {action["verb"]: action["label"] for action in request["actions"]}
    label = verbs.get("reject") if reject else verbs.get("approve", verbs.get("skip"))
    items = [{"record": record["id"], "action": label} for record in request["records"]]
    return {"decisions": items}


@contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_offline(
    package: TeamPackage,
    build_graph: Callable[..., Any],
    inputs: Mapping[str, Any] | None = None,
    max_reviews: int = 20,
) -> OfflineRun:
    """The team's whole run (its graph.build_graph) offline, through every gate; see the
    module's docstring. `inputs`: the run's, by key (default: sample_inputs)."""
    return asyncio.run(_run(package, build_graph, inputs, max_reviews))


async def _run(
    package: TeamPackage, build_graph: Callable[..., Any], inputs: Any, max_reviews: int
) -> OfflineRun:
    from .nodes import graph_input

    models = ScriptedModels(package)
    graph = build_graph(checkpointer=InMemorySaver(), model_for=models.model_for)
    config: Any = {"configurable": {"thread_id": "offline"}}
    gates = package.team.GATES
    reviews: list[str] = []
    with _environment(offline_env(package)):
        start = sample_inputs(package) if inputs is None else graph_input(package, inputs)
        output = await graph.ainvoke(start, config)
        while len(reviews) < max_reviews:
            pending = (await graph.aget_state(config)).interrupts
            if not pending:
                break
            answers = {}
            for interrupt in pending:
                request = interrupt.value
                name = request["gate"]
                first = request["round"] == 1 and name not in reviews
                reject = first and gates[name].on_reject in ("rerun", "escalate")
                answers[interrupt.id] = _decisions(request, reject)
                reviews.append(name)
            output = await graph.ainvoke(Command(resume=answers), config)
    return OfflineRun(output=output, reviews=reviews, models=models)
