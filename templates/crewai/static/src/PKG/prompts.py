"""Agent prompts (agents[].prompt), delivered to the model verbatim.

Each prompt is stored byte for byte in `prompts/<agent key>.txt` (empty when the agent
has no prompt). CrewAI rewrites
`{word}` placeholders in role, goal, backstory and task text (and replaces
`{input}`, `{tools}` and `{tool_names}` even inside the backstory), so the agent's
backstory in config/agents.yaml is only a marker, `[[envelope-prompt:<key>]]`.
A before-LLM-call hook swaps the marker for the rendered prompt in the messages
right before they reach the model, after CrewAI has finished formatting them.
Run-time text placed in a task description (inputs, earlier steps' outputs), task
text from config/tasks.yaml and agent goals go through the same hook via
`verbatim(text)`, since CrewAI also rewrites `{tools}` and `{tool_names}` there.

Text that comes back from a tool or a model is data: the agent marker is filled in only
in system messages (where CrewAI puts the backstory), and text markers carry a random
tag of this process, so no fetched page or answer can name one, pull another agent's
prompt into a request or abort the run. The values of a run live in a context variable
(copied into the threads a run starts), so two runs in one process never mix them.

Rendering replaces `{{NAME}}` with a variable, secret or input value and leaves
every other character as it is.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from functools import cache
from importlib.resources import files
from typing import Any

from crewai.hooks import HookAborted, LLMCallHookContext, register_before_llm_call_hook

_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
_PROMPT_MARKER = re.compile(r"\[\[envelope-prompt:([A-Za-z0-9_-]+)\]\]")
_TAG = secrets.token_hex(8)
_TEXT_MARKER = re.compile(rf"\[\[envelope-text-{_TAG}:([0-9a-f]+)\]\]")

_lock = threading.Lock()
_values: ContextVar[Mapping[str, str] | None] = ContextVar("envelope_prompt_values", default=None)
_texts: dict[str, str] = {}


def marker(agent_key: str) -> str:
    return f"[[envelope-prompt:{agent_key}]]"


@cache
def raw_prompt(agent_key: str) -> str:
    """The prompt exactly as written in the definition."""
    resource = files(__package__).joinpath("prompts", f"{agent_key}.txt")
    return resource.read_bytes().decode("utf-8")


def render(text: str, values: Mapping[str, str]) -> str:
    """Replace each `{{NAME}}` that has a value; leave all other text untouched."""
    return _PLACEHOLDER.sub(lambda match: values.get(match[1], match[0]), text)


def reference_name(input_key: str) -> str:
    """An input's upper-case name in prompts: `{{TICKET_TEXT}}` for `ticket-text`."""
    return re.sub(r"[^A-Z0-9_]", "_", input_key.upper())


def placeholder_values(
    env_names: Sequence[str],
    environ: Mapping[str, str],
    inputs: Mapping[str, Any],
    declared: Sequence[str] = (),
) -> dict[str, str]:
    """Values for `{{NAME}}`: variables and secrets first, then inputs.

    An input is reachable by its own key and by its upper-case name (`{{TICKET_TEXT}}`).
    An exact key wins over another input's upper-case name, and of inputs that share one
    the first declared (`declared`: team.INPUTS order) wins. Non-string inputs are JSON.
    """
    keys = list(declared) or list(inputs)
    targets = {key: key for key in keys}
    for key in keys:
        targets.setdefault(reference_name(key), key)
    values: dict[str, str] = {}
    for name, key in targets.items():
        if key in inputs:
            value = inputs[key]
            values[name] = value if isinstance(value, str) else json.dumps(value)
    for name in env_names:
        if name in environ:
            values[name] = environ[name]
    return values


def activate(values: Mapping[str, str]) -> None:
    """Set the values used to render prompts for the coming run (this context only)."""
    _values.set(dict(values))


def rendered(agent_key: str) -> str:
    return render(raw_prompt(agent_key), _values.get() or {})


def verbatim(text: str) -> str:
    """A marker that reaches the model as exactly `text`."""
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    with _lock:
        _texts[key] = text
    return f"[[envelope-text-{_TAG}:{key}]]"


def _text(match: re.Match[str]) -> str:
    with _lock:
        text = _texts.get(match[1])
    if text is None:
        raise HookAborted(f"unknown text marker {match[1]!r}")
    return text


def _prompt(match: re.Match[str]) -> str:
    try:
        return rendered(match[1])
    except FileNotFoundError:
        raise HookAborted(f"no prompt file for agent {match[1]!r}") from None


def _deliver_prompts(context: LLMCallHookContext) -> None:
    # Edits the messages in place, as CrewAI's hook contract requires. A rendered prompt is
    # scanned for text markers afterwards; it cannot hold one, since it cannot know the tag.
    for message in context.messages:
        content = message.get("content")
        if not isinstance(content, str) or "[[envelope-" not in content:
            continue
        if message.get("role") == "system":
            content = _PROMPT_MARKER.sub(_prompt, content)
        message["content"] = _TEXT_MARKER.sub(_text, content)


register_before_llm_call_hook(_deliver_prompts)
