"""An exception without the team's secret values, for what LangGraph checkpoints: a failed
task's exception (its repr, the `__error__` write) is stored in every namespace it passes
through, and a provider's error may echo a prompt with `{{SECRET}}` filled in. Loaded only
when a model call, tool call or node of a team fails (agents.secrets_redacted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.errors import GraphBubbleUp

from .. import redaction


class RedactedError(RuntimeError):
    """An exception that could not be copied without a secret value in its text: its type's
    name and its text, redacted (without_secrets)."""


def without_secrets(error: BaseException, secrets: Sequence[str]) -> BaseException:
    """`error` itself when neither it nor its chain (causes, contexts) shows a secret value
    (repr, text, notes); else a copy of the same type (so `except` clauses and retry checks
    still match), its arguments, string attributes, notes and chain redacted, or, when such
    a copy still shows one, a RedactedError. Never LangGraph's own signals (interrupts)."""
    values = [value for value in secrets if len(value) >= redaction.MIN_LENGTH]
    if not values or isinstance(error, GraphBubbleUp) or not _shows(error, values, set()):
        return error
    return _error_copy(error, values, {})


def _shown(error: BaseException) -> str:
    try:
        return f"{error!r}\n{error}\n{getattr(error, '__notes__', '')}"
    except Exception:  # a broken __str__: nothing of it is shown either
        return type(error).__name__


def _shows(error: BaseException | None, values: Sequence[str], seen: set[int]) -> bool:
    if error is None or id(error) in seen:
        return False
    seen.add(id(error))
    text = _shown(error)
    return (
        any(value in text for value in values)
        or _shows(error.__cause__, values, seen)
        or _shows(error.__context__, values, seen)
    )


def _error_copy(
    error: BaseException, values: Sequence[str], copies: dict[int, BaseException]
) -> BaseException:
    """without_secrets' copy; `copies` by id of the original (a chain may loop)."""
    if id(error) in copies:
        return copies[id(error)]
    cls = type(error)
    copy: BaseException | None
    try:
        # Without __init__: its signature is the class's own (keyword-only arguments).
        copy = cls.__new__(cls, *_redacted_value(error.args, values, copies))
        copy.__dict__.update(_redacted_value(vars(error), values, copies))
    except Exception:
        copy = None
    if copy is None or any(value in _shown(copy) for value in values):
        text = redaction.redact(_shown_text(error), values)
        copy = RedactedError(f"{cls.__name__}: {text}" if text else cls.__name__)
    copies[id(error)] = copy
    copy.__cause__ = _error_copy(error.__cause__, values, copies) if error.__cause__ else None
    copy.__context__ = _error_copy(error.__context__, values, copies) if error.__context__ else None
    copy.__suppress_context__ = error.__suppress_context__
    return copy.with_traceback(error.__traceback__)


def _shown_text(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:
        return ""


def _redacted_value(value: Any, values: Sequence[str], copies: dict[int, BaseException]) -> Any:
    """An exception's argument or attribute redacted: text, exceptions (an ExceptionGroup's),
    and the lists, tuples and dicts holding them; anything else as it is."""
    if isinstance(value, str):
        return redaction.redact(value, values)
    if isinstance(value, BaseException):
        return _error_copy(value, values, copies)
    if type(value) in (list, tuple):  # not a named tuple's type: it takes its fields
        return type(value)(_redacted_value(item, values, copies) for item in value)
    if isinstance(value, dict):
        return {key: _redacted_value(item, values, copies) for key, item in value.items()}
    return value
