"""Secret values out of what a run stores or shows (the same in every Envelope target).

Callers pass free text only (model answers, records, reviewer feedback, tool results),
never a run's own fields (ids, timestamps, statuses): a short secret such as `2026` may
occur in those and must not corrupt them. Dict keys are kept. Text already redacted stays
as it is, so data redacted, loaded and saved again does not change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

__all__ = [
    "MIN_LENGTH",
    "REDACTED",
    "redact",
    "short_secrets",
]

REDACTED = "[redacted]"

MIN_LENGTH = 8
"""Shorter secret values are not redacted: a value such as `2026` or `true` would rewrite
ordinary text (years, flags, counts) in every tool result and answer. The runner warns
about them at start (short_secrets)."""

T = TypeVar("T")


def redact(data: T, secret_values: Sequence[str]) -> T:
    """`data` (str, or JSON-like dicts and lists) with every secret value of at least
    MIN_LENGTH characters replaced."""
    # Longest first: a secret that contains another is replaced whole.
    values = sorted({v for v in secret_values if len(v) >= MIN_LENGTH}, key=len, reverse=True)
    if not values:
        return data
    return _redact(data, values)  # type: ignore[no-any-return]


def _redact(data: Any, values: Sequence[str]) -> Any:
    if isinstance(data, str):
        return _redact_text(data, values)
    if isinstance(data, dict):
        return {key: _redact(item, values) for key, item in data.items()}
    if isinstance(data, list | tuple):
        return [_redact(item, values) for item in data]
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
