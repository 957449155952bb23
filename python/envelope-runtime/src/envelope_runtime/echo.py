"""How a problem quotes what a person gave (an input, a decision): cut to ECHO_LIMIT
characters, so a pasted document does not flood the message. Shared by the input checks
and the gate rules; apart from both, so a team's build loads neither."""

from __future__ import annotations

ECHO_LIMIT = 200  # the most characters of a value a person gave that a problem quotes


def cut(text: str) -> str:
    """`text`, or its start and `… (N characters)`: ECHO_LIMIT characters in all."""
    if len(text) <= ECHO_LIMIT:
        return text
    suffix = f"… ({len(text)} characters)"
    return text[: ECHO_LIMIT - len(suffix)] + suffix


def quoted(value: object) -> str:
    return repr(cut(value if isinstance(value, str) else str(value)))
