"""`--trace FILE`: a run's conversations from LangChain's callbacks, written by trace.py.

The runner passes a TraceHandler in the run's config (`callbacks`); LangChain hands it to
every run inside the graph, each with its parent's run id:

- an agent's graph (`create_agent`, named by the team's AGENTS[key].name) started on a task opens a
  conversation with the task, from the agent whose graph it runs inside (a manager asking
  a report) or else from `user` (the run: the team's task, a step's task with its
  dependencies' outputs);
- each answer of a chat model (on_llm_end) is a turn of the agent whose graph it is in,
  with the provider and model LangChain reports (metadata `ls_provider`, `ls_model_name`);
- the agent graph's end closes the conversation with its answer;
- a reviewer's decisions at a gate (pipeline.py, trace.decided) are conversations of
  `user` turns with the agent whose step made the records.

The lines are written when the nodes of a super-step have all ended (the graph's own nodes,
parallel steps together) and when the graph run stops (it ends, waits at a gate or fails;
the runner flushes again whatever way it stops), as CrewAI's are written at the end: a
workspace team's pii values are left out as the store holds them then, so a value an agent
writes is out of the model answer that asked to write it too; and a process that dies
loses at most the lines of the nodes that were running.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from .. import redaction, trace
from ..team_package import TeamPackage


class TraceHandler(BaseCallbackHandler):
    """Writes the conversations of the runs it is given (of the team `package`) to a
    TraceWriter."""

    run_inline = True
    """Called in order, on the run's own thread (not in an executor)."""

    def __init__(self, package: TeamPackage, writer: trace.TraceWriter) -> None:
        self.writer = writer
        agents = package.team.AGENTS
        self._keys = {spec.name: key for key, spec in agents.items()}
        self._names = {key: spec.name for key, spec in agents.items()}
        self._parents: dict[UUID, UUID | None] = {}
        # An agent graph's run: (agent key, conversation, who asked).
        self._scopes: dict[UUID, tuple[str, str, str]] = {}
        self._models: dict[UUID, tuple[str, str]] = {}
        # The graph's own nodes running now (children of the outermost chain).
        self._running: set[UUID] = set()

    def _scope(self, run_id: UUID | None) -> tuple[str, str, str] | None:
        """The innermost agent graph `run_id` is in (itself included)."""
        while run_id is not None:
            found = self._scopes.get(run_id)
            if found is not None:
                return found
            run_id = self._parents.get(run_id)
        return None

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        self._parents[run_id] = parent_run_id
        if parent_run_id is not None and self._parents.get(parent_run_id, run_id) is None:
            self._running.add(run_id)  # a node of the graph itself
        key = self._keys.get(kwargs.get("name") or "")
        if key is None or not isinstance(inputs, dict) or "messages" not in inputs:
            return
        outer = self._scope(parent_run_id)
        if outer is not None and outer[0] == key:
            return  # the agent's own graph inside its unit (hierarchy.py)
        sender = outer[0] if outer is not None else trace.USER
        conversation = self.writer.open(sender, key, _task(inputs["messages"]), self._names)
        self._scopes[run_id] = (key, conversation, sender)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        scope = self._scopes.pop(run_id, None)
        if scope is not None:
            key, conversation, sender = scope
            self.writer.close(conversation, key, sender, _answer(outputs))
        self._stopped(run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        scope = self._scopes.pop(run_id, None)
        if scope is not None:
            key, conversation, sender = scope
            self.writer.close(conversation, key, sender, {"error": type(error).__name__})
        self._stopped(run_id)

    def _stopped(self, run_id: UUID) -> None:
        """The graph run itself (the outermost chain) ended, paused or failed, or the last
        running node of the graph's super-step ended: the lines so far."""
        if run_id in self._running:
            self._running.discard(run_id)
            if not self._running:
                self.writer.flush()
        elif run_id in self._parents and self._parents[run_id] is None:
            self.writer.flush()

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self._parents[run_id] = parent_run_id
        metadata = metadata or {}
        self._models[run_id] = (
            str(metadata.get("ls_provider") or "unknown"),
            str(metadata.get("ls_model_name") or "unknown"),
        )

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        model = self._models.pop(run_id, None)
        scope = self._scope(run_id)
        if scope is None:
            return
        key, conversation, sender = scope
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                content = _message(message) if message is not None else generation.text
                self.writer.exchange(conversation, key, sender, content, model)

    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        self._parents[run_id] = parent_run_id


def handler(package: TeamPackage, path: str | Path | None, thread_id: str) -> TraceHandler | None:
    """The run's handler for `path` (None: $ENVELOPE_TRACE_FILE; neither: no trace)."""
    path = path or trace.default_path()
    if path is None:
        trace.on_decisions(None)  # none from an earlier traced run in this process either
        return None
    secrets = redaction.secret_values(package.team.SECRETS)
    writer = trace.TraceWriter(path, thread_id, secrets, _personal_values(package), deferred=True)
    trace.on_decisions(writer.decision)  # a reviewer's decisions at a gate (pipeline.py)
    return TraceHandler(package, writer)


def _task(messages: Any) -> Any:
    """The task an agent's graph starts on: its last message."""
    if isinstance(messages, list) and messages:
        last = messages[-1]
        return last.content if isinstance(last, BaseMessage) else last
    return messages


def _message(message: Any) -> Any:
    """A model's answer: its text, and its tool calls when it makes any."""
    calls = getattr(message, "tool_calls", None) or []
    if not calls:
        return message.content
    return {
        "content": message.content,
        "tool_calls": [{"name": call["name"], "args": call["args"]} for call in calls],
    }


def _answer(outputs: Any) -> Any:
    """An agent graph's answer: its structured response, else its last message's text."""
    if not isinstance(outputs, dict):
        return outputs
    if outputs.get("structured_response") is not None:
        return outputs["structured_response"]
    messages = outputs.get("messages") or []
    return _task(messages)


def _personal_values(package: TeamPackage) -> Callable[[], list[str]] | None:
    """Workspace teams: the store's pii values, left out of the trace (workspace.py)."""
    if not getattr(package.team, "WORKSPACE", None):
        return None
    from ..workspace import pii_values
    from .workspace_store import open_workspace

    return lambda: pii_values(open_workspace(package))
