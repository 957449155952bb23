"""Secret redaction (redaction.py): values only, whole secrets, and redacting twice is once."""

from __future__ import annotations

import json

from common_project import redaction


def test_values_are_redacted_and_keys_kept() -> None:
    data = {"escalated": "escalated: yes", "notes": ["not escalated"], "count": 3, "flag": True}

    assert redaction.redact(data, ["escalated"]) == {
        "escalated": "[redacted]: yes",
        "notes": ["not [redacted]"],
        "count": 3,
        "flag": True,
    }


def test_a_secret_written_inside_a_json_string_is_redacted_too() -> None:
    secret = 'p"ss\\wörd'
    text = json.dumps({"answer": f"the key is {secret}"}, ensure_ascii=True)

    assert json.loads(redaction.redact(text, [secret])) == {"answer": "the key is [redacted]"}


def test_a_longer_secret_is_replaced_whole_and_empty_ones_are_ignored() -> None:
    assert redaction.redact("token-abcdefgh and abcdefgh", ["abcdefgh", "", "token-abcdefgh"]) == (
        "[redacted] and [redacted]"
    )


def test_redacting_again_changes_nothing_even_for_a_secret_inside_the_marker() -> None:
    once = redaction.redact("an alertred alert", ["alertred", "redacted"])

    assert once == "an [redacted] alert"
    assert redaction.redact(once, ["alertred", "redacted"]) == once


def test_short_values_are_left_alone_and_named_in_a_warning() -> None:
    text = "Ticket 2026-0042 opened 2026-01-02; status true"

    assert redaction.redact(text, ["2026", "true", "0042"]) == text
    warning = redaction.short_secrets(["PIN", "TOKEN", "UNSET"], {"PIN": "2026", "TOKEN": "x" * 8})
    assert warning is not None and warning.startswith("warning: PIN: shorter than 8 characters")
    assert redaction.short_secrets(["TOKEN"], {"TOKEN": "x" * 8}) is None


def test_secret_values_are_the_set_ones_in_order() -> None:
    environ = {"B_KEY": "bravo-value", "A_KEY": "alpha-value", "EMPTY": "", "OTHER": "x"}

    assert redaction.secret_values(["A_KEY", "UNSET", "EMPTY", "B_KEY"], environ) == [
        "alpha-value",
        "bravo-value",
    ]
