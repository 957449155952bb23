"""`--trace FILE`: a run's conversations from CrewAI's own event bus, written by trace.py.

CrewAI runs event handlers in a thread pool, so the listener only collects events; when
the run ends (or fails) they are put in order (when they were emitted) and written:

- an agent's execution (AgentExecutionStartedEvent) opens a conversation with its task
  prompt, from its manager (reportsToKey) when the manager is at work (a delegation),
  else from `user` (the run: the team's task, a step's task with its dependencies'
  outputs);
- each answer of its model (LLMCallCompletedEvent) is a turn of that agent;
- its final answer (AgentExecutionCompletedEvent) closes the conversation;
- a model call for a task outside its agent's execution (CrewAI's converter, which turns
  a text answer into the task's output model) is a conversation of its own, `user` to
  the task's agent;
- a reviewer's decisions at a gate (pipeline.py, trace.decided) are conversations of
  `user` turns with the agent whose step made the records.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from crewai.events import (
    AgentExecutionCompletedEvent,
    AgentExecutionStartedEvent,
    BaseEventListener,
    LLMCallCompletedEvent,
    TaskStartedEvent,
    crewai_event_bus,
)
from crewai.events.event_bus import CrewAIEventsBus

from .. import redaction, trace
from ..team_package import TeamPackage
from . import crew_base, llms
from .crew_base import TeamCrewBase

__all__ = ["FLUSH_TIMEOUT_S", "REQUESTS", "traced"]

FLUSH_TIMEOUT_S = 30.0
REQUESTS = "requests"


class _Collector(BaseEventListener):
    """Collects the events a trace is made of while `active`."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.active = False
        self._lock = threading.Lock()
        super().__init__()

    def setup_listeners(self, crewai_event_bus: CrewAIEventsBus) -> None:
        for kind in (
            AgentExecutionStartedEvent,
            AgentExecutionCompletedEvent,
            LLMCallCompletedEvent,
            TaskStartedEvent,
        ):
            crewai_event_bus.on(kind)(self._record)

    def _record(self, source: Any, event: Any) -> None:
        if self.active:
            with self._lock:
                self.events.append(event)

    def decision(
        self, agent_key: str, gate: str, record: str, action: str, feedback: str | None
    ) -> None:
        """A reviewer's decision (trace.decided), in order with the events."""
        with self._lock:
            self.events.append(_Decision(agent_key, gate, record, action, feedback))

    def take(self) -> list[Any]:
        """The collected events in the order they were emitted."""
        with self._lock:
            events, self.events = self.events, []
        return sorted(events, key=lambda e: (e.timestamp, e.emission_sequence or 0))


@dataclass
class _Decision:
    agent_key: str
    gate: str
    record: str
    action: str
    feedback: str | None
    timestamp: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    emission_sequence: int = 0


_COLLECTOR: _Collector | None = None


@contextmanager
def traced(path: str | Path | None, run_id: str | None, team_crew: TeamCrewBase) -> Iterator[None]:
    """Trace what runs inside to `path` (None: $ENVELOPE_TRACE_FILE; neither: no trace);
    `run_id`: the pipeline run's."""
    global _COLLECTOR
    path = path or trace.default_path()
    if path is None:
        yield
        return
    if _COLLECTOR is None:
        _COLLECTOR = _Collector()
    collector = _COLLECTOR
    collector.take()
    collector.active = True
    trace.on_decisions(collector.decision)
    try:
        yield
    finally:
        crewai_event_bus.flush(FLUSH_TIMEOUT_S)
        collector.active = False
        trace.on_decisions(None)
        package = team_crew.package
        secrets = redaction.secret_values(package.team.SECRETS)
        writer = trace.TraceWriter(path, run_id, secrets, _personal_values(package))
        _write(writer, collector.take(), team_crew)


def _write(writer: trace.TraceWriter, events: list[Any], team_crew: TeamCrewBase) -> None:
    # CrewAI names agents by role: each role's speaker and who asks it. A hierarchy's
    # "<role> Requests" worker (delegation.py) speaks as `<key>:requests`, asked by <key>.
    package = team_crew.package
    speakers: dict[str, tuple[str, str | None]] = {}
    for key, spec in package.team.AGENTS.items():
        role = team_crew.role_of(key)
        speakers[role] = (key, spec.reports_to)
        speakers.setdefault(f"{role} Requests", (f"{key}:{REQUESTS}", key))
    names = {speaker: role for role, (speaker, _) in speakers.items()}
    configured = crew_base.configured_llms(package)
    # Per speaker, its open conversations, innermost last: (conversation, who asked).
    open_: dict[str, list[tuple[str, str]]] = {}
    # The agent of each task (by its TaskStartedEvent): a model call made for a task but
    # not by its agent (the converter) has that event as its parent.
    task_roles: dict[str, str] = {}
    for event in events:
        if isinstance(event, _Decision):
            writer.decision(event.agent_key, event.gate, event.record, event.action, event.feedback)
        elif isinstance(event, TaskStartedEvent):
            agent = getattr(event.task, "agent", None)
            if agent is not None:
                task_roles[event.event_id] = agent.role
        elif isinstance(event, AgentExecutionStartedEvent):
            found = speakers.get(event.agent.role)
            if found is None:
                continue
            speaker, manager = found
            sender = manager if manager is not None and open_.get(manager) else trace.USER
            conversation = writer.open(sender, speaker, event.task_prompt, names)
            open_.setdefault(speaker, []).append((conversation, sender))
        elif isinstance(event, LLMCallCompletedEvent):
            role = event.agent_role or task_roles.get(event.parent_event_id or "", "")
            speaker = speakers.get(role, (None, None))[0]
            if speaker is None:
                continue
            model = _model(package, speaker, event, configured)
            if open_.get(speaker):
                conversation, sender = open_[speaker][-1]
                writer.exchange(conversation, speaker, sender, event.response, model)
                continue
            # A call outside the agent's execution (CrewAI's converter formatting its
            # answer): a conversation of its own, the request's last message to the answer.
            conversation = writer.open(trace.USER, speaker, _last_message(event.messages), names)
            writer.exchange(conversation, speaker, trace.USER, event.response, model)
            writer.close(conversation, speaker, trace.USER, event.response)
        elif isinstance(event, AgentExecutionCompletedEvent):
            found = speakers.get(event.agent.role)
            if found is None or not open_.get(found[0]):
                continue
            conversation, sender = open_[found[0]].pop()
            writer.close(conversation, found[0], sender, event.output)


def _last_message(messages: Any) -> Any:
    if isinstance(messages, list) and messages:
        last = messages[-1]
        return last.get("content") if isinstance(last, dict) else last
    return messages


def _model(
    package: TeamPackage, speaker: str, event: Any, configured: Collection[str]
) -> tuple[str, str]:
    """(provider, model) of the answer: the agent's own model (models.MODELS, overrides
    applied) unless `llm:` in config/agents.yaml replaces it (`configured`), else the name
    CrewAI reports."""
    agent_key = speaker.removesuffix(f":{REQUESTS}")
    spec = package.models.MODELS.get(agent_key)
    if spec is not None and agent_key not in configured:
        model = llms.model_id(spec, agent_key)
    else:
        model = str(event.model or "")
    provider, _, name = model.partition("/")
    return (llms.provider(model), name) if name else ("unknown", provider)


def _personal_values(package: TeamPackage) -> Callable[[], list[str]] | None:
    """Workspace teams: the store's pii values, left out of the trace (workspace.py)."""
    if not getattr(package.team, "WORKSPACE", None):
        return None
    from ..workspace import pii_values
    from .workspace_store import open_workspace

    return lambda: pii_values(open_workspace(package))
