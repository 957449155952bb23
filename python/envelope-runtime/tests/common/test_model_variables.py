"""MODEL_<AGENT> names and `provider:model` values (model_env.py, python-common): how
each target's models use them is that target's test_model_env.py."""

from __future__ import annotations

import pytest
from common_project import model_env


def test_agent_variable_names() -> None:
    assert model_env.agent_env("lead-writer") == "MODEL_LEAD_WRITER"
    assert model_env.agent_env("a.b c") == "MODEL_A_B_C"
    assert model_env.agent_env("réd9") == "MODEL_R_D9"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("openai:llama3.1", ("openai", "llama3.1")),
        ("openai/llama3.1", ("openai", "llama3.1")),
        ("openai:llama3.1:8b", ("openai", "llama3.1:8b")),
        ("OpenRouter/anthropic/claude-sonnet-4-5", ("openrouter", "anthropic/claude-sonnet-4-5")),
        ("llama3.1", None),
        ("openai:", None),
        (":x", None),
    ],
)
def test_split_model(value: str, expected: tuple[str, str] | None) -> None:
    assert model_env.split_model(value) == expected
