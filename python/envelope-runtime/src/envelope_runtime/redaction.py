"""Secret values out of what a run stores or shows (the same in every Envelope target).

Callers pass free text only (answers, records, feedback, tool results), never a run's own
fields (ids, timestamps, statuses), which a short secret must not corrupt. Dict keys are
kept; text already redacted stays as it is (redacting again changes nothing).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

__all__ = ["MIN_LENGTH", "REDACTED", "redact", "replace_text", "secret_values", "short_secrets"]

REDACTED = "[redacted]"

MIN_LENGTH = 8
"""Shorter values are not redacted: `2026` or `true` would rewrite ordinary text (years,
flags, counts). The runner warns about them (short_secrets)."""

T = TypeVar("T")


def redact(data: T, secret_values: Sequence[str]) -> T:
    """`data` (str, or JSON-like dicts and lists) with every secret value of at least
    MIN_LENGTH characters replaced."""
    # Longest first: a secret that contains another is replaced whole.
    values = sorted({v for v in secret_values if len(v) >= MIN_LENGTH}, key=len, reverse=True)
    if not values:
        return data
    return replace_text(data, lambda text: _redact_text(text, values))  # type: ignore[no-any-return]


def replace_text(data: Any, change: Callable[[str], str]) -> Any:
    """`data` (str, or JSON-like dicts and lists) with `change` applied to every string but
    dict keys."""
    if isinstance(data, str):
        return change(data)
    if isinstance(data, dict):
        return {key: replace_text(item, change) for key, item in data.items()}
    if isinstance(data, list | tuple):
        return [replace_text(item, change) for item in data]
    return data


def _redact_text(text: str, values: Sequence[str]) -> str:
    for value in values:
        # Also the value as written inside a JSON string (quotes and backslashes escaped),
        # since answers often hold JSON text.
        forms = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
        for form in sorted(forms, key=len, reverse=True):
            # Only between earlier markers: a secret inside "[redacted]" leaves it alone.
            text = REDACTED.join(part.replace(form, REDACTED) for part in text.split(REDACTED))
    return text


def secret_values(names: Iterable[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    """The values of the secrets `names` that are set (not empty), in their order: what
    `redact` is given."""
    return [environ[name] for name in names if environ.get(name)]


def short_secrets(names: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """A warning naming the secrets set to values too short to redact, or None."""
    short = [name for name in names if 0 < len(environ.get(name, "")) < MIN_LENGTH]
    if not short:
        return None
    return (
        f"warning: {', '.join(short)}: shorter than {MIN_LENGTH} characters, so not "
        "redacted from tool results, answers and stored runs (it would rewrite ordinary "
        "text); use a longer value"
    )
