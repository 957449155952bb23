"""MODEL_OVERRIDE / MODEL_<AGENT> and the providers' base URLs (README: Any model endpoint)."""

from __future__ import annotations

import os

import pytest
from project import llms, model_env, models

AGENTS = list(models.MODELS)


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


def test_override_reaches_every_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    for agent_key, spec in models.MODELS.items():
        assert llms.model_id(spec, agent_key) == "openai:llama3.1", agent_key
    # The override decides which key is needed: OpenAI's, not the definition's providers'.
    assert llms.required_env(models.MODELS) == ["OPENAI_API_KEY"]


def test_agent_variable_wins_over_override(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = AGENTS
    monkeypatch.setenv("MODEL_OVERRIDE", "openai/llama3.1")
    monkeypatch.setenv(model_env.agent_env(first), "google:gemini-2.5-flash")
    assert llms.model_id(models.MODELS[first], first) == "google_genai:gemini-2.5-flash"
    for agent_key in others:
        if model_env.agent_env(agent_key) != model_env.agent_env(first):
            assert llms.model_id(models.MODELS[agent_key], agent_key) == "openai:llama3.1"
    required = llms.required_env(models.MODELS)
    assert llms.PROVIDER_KEYS["google_genai"] in required


def test_bad_override_is_reported_before_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "llama3.1")
    (problem,) = llms.factory_problems(models.MODELS)
    assert problem.startswith("MODEL_OVERRIDE='llama3.1'")


def test_base_url_is_passed_to_the_chat_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    spec = models.MODELS[AGENTS[0]]
    assert llms.model_kwargs(spec, AGENTS[0])["base_url"] == "http://127.0.0.1:9/v1"
    monkeypatch.setenv(model_env.agent_env(AGENTS[0]), "mistral:open-mistral-nemo")
    monkeypatch.setenv("MISTRAL_BASE_URL", "http://127.0.0.1:9/m")
    assert llms.model_kwargs(spec, AGENTS[0])["base_url"] == "http://127.0.0.1:9/m"


def test_unknown_openai_model_goes_to_the_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("langchain_openai")
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    chat = models.model_for(AGENTS[0])
    assert type(chat).__name__ == "ChatOpenAI"
    assert getattr(chat, "model_name", None) == "llama3.1"
    assert getattr(chat, "openai_api_base", None) == "http://127.0.0.1:9/v1"


def test_a_blank_base_url_is_unset_not_sent_to_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    # An unset repository secret reaches the scheduled workflow as "": the provider SDK
    # would read it itself and take "" as its endpoint.
    for names in llms.BASE_URL_ENV.values():
        for name in names:
            monkeypatch.setenv(name, "")
    for model in ("openai/gpt-4o", "openai:gpt-4o"):
        assert llms.base_url(model) is None
    assert not [n for n in llms.BASE_URL_ENV["openai"] if n in os.environ]
