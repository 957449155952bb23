"""A run as OpenWOP conversation events (`--trace FILE`, ENVELOPE_TRACE_FILE): one JSON
object per line, each a payload of spec/openwop/conversation-event.schema.json (the same in
every Envelope target).

One conversation per exchange between two parties: whoever asks (the run, `user`; a
manager delegating to a report; a reviewer deciding at a gate) and the agent asked.
`conversation.opened` carries the request (turn 0), `conversation.exchanged` each answer of
the agent's model (turn 1, 2, ...), `conversation.closed` the agent's final answer handed
back. A line's kind is the key it has: `initialTurn` (opened), `turn` (exchanged),
`finalTurn` (closed). Agent turns carry `speakerId` (the agent's key) and `agent`: its key
and, for a model's answer, the provider and model names only (never a key, an endpoint or a
prompt). Every text is redacted as the rest of the runtime redacts (redaction.py); ids are
the run's own and are not. The file is appended to, so a run and its resumes make one trace.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .redaction import redact

__all__ = [
    "DecisionHook",
    "ENV",
    "NAME_LIMIT",
    "TraceWriter",
    "USER",
    "agent_id",
    "decided",
    "default_path",
    "on_decisions",
]

ENV = "ENVELOPE_TRACE_FILE"
"""The trace file when `--trace` is not given."""

USER = "user"
"""The party of the run itself (its task and inputs) and of a reviewer at a gate."""

NAME_LIMIT = 256
"""The schema's longest participant name."""


def agent_id(agent_key: str) -> str:
    """An agent's key as an OpenWOP agentId (`[A-Za-z0-9._~:-]`, at most 128 characters)."""
    return re.sub(r"[^A-Za-z0-9._~:-]", "_", agent_key)[:128] or "agent"


DecisionHook = Callable[[str, str, str, str, str | None], None]
"""(agent key, gate, record, action, feedback): TraceWriter.decision, or what collects it."""

_decision_hook: DecisionHook | None = None


def on_decisions(hook: DecisionHook | None) -> None:
    """Where `decided` sends a reviewer's decisions (None: nowhere, no trace)."""
    global _decision_hook
    _decision_hook = hook


def decided(agent_key: str, gate: str, items: Iterable[Any]) -> None:
    """A reviewer's decisions (gates.DecisionItem) just applied at `gate`, on records of
    `agent_key`'s step, into the run's trace when it has one."""
    hook = _decision_hook
    if hook is None:
        return
    for item in items:
        if item.action.strip():
            hook(agent_key, gate, item.record, item.action, item.feedback)


def default_path(environ: Mapping[str, str] = os.environ) -> str | None:
    """`--trace`'s default: ENVELOPE_TRACE_FILE, when set and not empty."""
    return environ.get(ENV) or None


class TraceWriter:
    """Writes conversation events to `path` as they happen (thread-safe)."""

    def __init__(
        self,
        path: str | Path,
        run_id: str | None,
        secret_values: Sequence[str] = (),
        personal: Callable[[], Sequence[str]] | None = None,
        deferred: bool = False,
    ) -> None:
        """`run_id`: the run's (a thread's) id, or None for a run that has none; `personal`:
        the personal values to leave out too, read as events are written (a workspace
        team's pii values, which agents may write or repeat during the run); `deferred`:
        events are kept until flush(), which reads `personal` then. A value an agent is
        about to write is in its model's answer before the store holds it: written at once,
        that answer would carry it in clear."""
        self._personal = personal
        self._deferred = deferred
        self._pending: list[dict[str, Any]] = []
        self.path = Path(path)
        run_id = run_id or time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        self._secrets = [value for value in secret_values if value]
        # Unique per process: a resume appends conversations of the same run to the file.
        self._prefix = f"{run_id}:{secrets.token_hex(3)}"
        self._count = 0
        self._turns: dict[str, int] = {}
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def open(
        self,
        sender: str,
        agent_key: str,
        content: Any,
        names: Mapping[str, str] | None = None,
    ) -> str:
        """Open a conversation: `sender` (USER or an agent's key) asks `agent_key`;
        `names`: the agents' names (agents[].name). Returns its id."""
        with self._lock:
            self._count += 1
            conversation = f"{self._prefix}:{self._count}"
            self._turns[conversation] = 0
        agents = [key for key in dict.fromkeys([sender, agent_key]) if key != USER]
        participants = [
            {
                "agentId": agent_id(key),
                **({"name": self._text(names[key])[:NAME_LIMIT]} if names and key in names else {}),
            }
            for key in agents
        ]
        self._write(
            {
                "conversationId": conversation,
                "agentId": agent_id(agent_key),
                "participants": participants,
                "initialTurn": self._turn(conversation, 0, sender, agent_key, content, None),
            }
        )
        return conversation

    def exchange(
        self,
        conversation: str,
        sender: str,
        receiver: str,
        content: Any,
        model: tuple[str, str] | None = None,
    ) -> None:
        """One turn: `sender` says `content` to `receiver`; `model`: (provider, model) of
        the answer's model."""
        index = self._next(conversation)
        turn = self._turn(conversation, index, sender, receiver, content, model)
        self._write({"conversationId": conversation, "turnIndex": index, "turn": turn})

    def close(
        self,
        conversation: str,
        sender: str,
        receiver: str,
        content: Any,
        model: tuple[str, str] | None = None,
    ) -> None:
        """The last turn: `sender` hands `content` (its answer, or a decision) back."""
        index = self._next(conversation)
        turn = self._turn(conversation, index, sender, receiver, content, model)
        self._write(
            {
                "conversationId": conversation,
                "turnIndex": index,
                "finalTurn": turn,
                "outcome": turn["content"],
            }
        )
        with self._lock:
            self._turns.pop(conversation, None)

    def decision(
        self, agent_key: str, gate: str, record: str, action: str, feedback: str | None
    ) -> None:
        """A reviewer's decision at a gate on a record of `agent_key`'s step: a conversation
        of two `user` turns, the record under review and the decision."""
        conversation = self.open(USER, agent_key, {"gate": gate, "record": record})
        self.close(
            conversation,
            USER,
            agent_key,
            {"gate": gate, "record": record, "action": action, "feedback": feedback or ""},
        )

    def _next(self, conversation: str) -> int:
        with self._lock:
            index = self._turns.get(conversation, 0) + 1
            self._turns[conversation] = index
            return index

    def _turn(
        self,
        conversation: str,
        index: int,
        sender: str,
        receiver: str,
        content: Any,
        model: tuple[str, str] | None,
    ) -> dict[str, Any]:
        turn: dict[str, Any] = {
            "messageId": f"{conversation}:{index}",
            "from": sender if sender == USER else agent_id(sender),
            "to": receiver if receiver == USER else agent_id(receiver),
            "role": "user" if sender == USER else "agent",
            "turnIndex": index,
            "content": self._text(_json_value(content)),
            "ts": int(time.time() * 1000),
        }
        if sender != USER:
            turn["speakerId"] = agent_id(sender)
            agent: dict[str, Any] = {"agentId": agent_id(sender)}
            if model is not None and model[0] and model[1]:
                provider, name = self._text(model[0])[:128], self._text(model[1])[:256]
                agent["model"] = {"provider": provider, "model": name}
            turn["agent"] = agent
        return turn

    def _text(self, value: Any) -> Any:
        return redact(value, self._secrets)

    def _write(self, event: dict[str, Any]) -> None:
        if self._deferred:
            with self._lock:
                self._pending.append(event)
            return
        self._append([event])

    def flush(self) -> None:
        """Write the events kept so far (`deferred`), the personal values read now."""
        with self._lock:
            events, self._pending = self._pending, []
        if events:
            self._append(events)

    def _append(self, events: list[dict[str, Any]]) -> None:
        if self._personal is not None:  # read once per batch, not once per text
            personal = list(self._personal())
            events = [redact(event, personal) for event in events]
        # ASCII: text may hold U+2028, U+0085 and other characters that readers (Python's
        # str.splitlines among them) take for line breaks; escaped, one event stays one line.
        text = "".join(json.dumps(event, ensure_ascii=True) + "\n" for event in events)
        with self._lock, self.path.open("a", encoding="utf-8") as out:
            out.write(text)


def _json_value(value: Any) -> Any:
    """`value` as JSON data (a model, a message, anything else as its text)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        return {str(key): _json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(item) for item in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return _json_value(dump(mode="json"))
    return str(value)
