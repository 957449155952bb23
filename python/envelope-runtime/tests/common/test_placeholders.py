"""`{{NAME}}` placeholders (placeholders.py, python-common): the substitution and the values
every target fills prompts and texts with. That the model receives them so is each
target's test (CrewAI's test_texts.py, LangGraph's test_prompts.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common_project import placeholders


def test_render_replaces_known_names_only() -> None:
    values = {"A": "x\\1", "b": "{y}"}
    rendered = placeholders.render("{{A}}-{{b}}-{{C}}-{A}-{{ A }}", values)
    assert rendered == "x\\1-{y}-{{C}}-{A}-{{ A }}"


def test_reference_names_are_upper_case_with_underscores() -> None:
    assert placeholders.reference_name("ticket-text") == "TICKET_TEXT"
    assert placeholders.reference_name("a.b c9") == "A_B_C9"


def test_inputs_are_reachable_by_name_and_upper_cased() -> None:
    values = placeholders.placeholder_values(
        ["KEY", "ABSENT"], {"KEY": "v", "OTHER": "o"}, {"topic": "t", "n": 3, "tags": ["a"]}
    )
    assert values == {
        "topic": "t",
        "TOPIC": "t",
        "n": "3",
        "N": "3",
        "tags": '["a"]',
        "TAGS": '["a"]',
        "KEY": "v",
    }


def test_an_exact_key_wins_and_the_first_declared_input_of_a_name() -> None:
    inputs = {"Topic": "upper", "topic": "lower", "TOPIC": "exact"}
    values = placeholders.placeholder_values([], {}, inputs, ["topic", "Topic", "TOPIC"])
    assert values == {"topic": "lower", "Topic": "upper", "TOPIC": "exact"}
    no_exact = placeholders.placeholder_values([], {}, {"a-b": "1", "a_b": "2"}, ["a-b", "a_b"])
    assert no_exact == {"a-b": "1", "a_b": "2", "A_B": "1"}


def test_variables_and_secrets_win_over_inputs() -> None:
    values = placeholders.placeholder_values(["TOPIC"], {"TOPIC": "env"}, {"topic": "input"})
    assert values == {"topic": "input", "TOPIC": "env"}


VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[4] / "spec" / "placeholder-vectors.json").read_text(encoding="utf-8")
)["vectors"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_placeholder_vector(vector: dict[str, Any]) -> None:
    """The shared vectors (envelope-runtime-js's placeholders.test.ts checks them too)."""
    values = placeholders.placeholder_values([], {}, {"v": vector["value"]}, ["v"])
    expected = vector["rendered"]
    assert placeholders.render("<{{V}}>|<{{v}}>", values) == f"<{expected}>|<{expected}>"
