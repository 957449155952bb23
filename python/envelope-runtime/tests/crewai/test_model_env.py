"""MODEL_OVERRIDE / MODEL_<AGENT> and the providers' base URLs (README: Any model endpoint)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from project import llms, model_env, models

AGENTS = list(models.MODELS)


def test_override_reaches_every_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    for agent_key, spec in models.MODELS.items():
        assert llms.model_id(spec, agent_key) == "openai/llama3.1", agent_key
    # The override decides which key is needed: OpenAI's, not the definition's providers'.
    assert llms.required_env(models.MODELS) == ["OPENAI_API_KEY"]


def test_agent_variable_wins_over_override(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = AGENTS
    monkeypatch.setenv("MODEL_OVERRIDE", "openai/llama3.1")
    monkeypatch.setenv(model_env.agent_env(first), "google:gemini-2.5-flash")
    assert llms.model_id(models.MODELS[first], first) == "gemini/gemini-2.5-flash"
    for agent_key in others:
        if model_env.agent_env(agent_key) != model_env.agent_env(first):
            assert llms.model_id(models.MODELS[agent_key], agent_key) == "openai/llama3.1"
    required = llms.required_env(models.MODELS)
    assert llms.PROVIDER_KEYS["gemini"] in required


def test_bad_override_is_reported_before_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "llama3.1")
    (problem,) = llms.factory_problems(models.MODELS)
    assert problem.startswith("MODEL_OVERRIDE='llama3.1'")


def test_base_url_is_passed_to_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[dict[str, Any]] = []
    monkeypatch.setattr(llms, "LLM", lambda **arguments: built.append(arguments))
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    models.llm_for(AGENTS[0])
    assert built[0]["model"] == "openai/llama3.1"
    assert built[0]["base_url"] == "http://127.0.0.1:9/v1"


def test_gemini_reads_its_base_url_and_takes_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """google-genai reads GOOGLE_GEMINI_BASE_URL itself; CrewAI's Gemini client ignores
    `timeout`, so it goes in http_options."""
    pytest.importorskip("google.genai")
    monkeypatch.setenv("MODEL_OVERRIDE", "google:gemini-2.5-flash")
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("GEMINI_API_KEY", "dummy")
    llm = models.llm_for(AGENTS[0])
    options = llm._get_sync_client()._api_client._http_options
    assert options.base_url == "http://127.0.0.1:9/"
    assert options.timeout == models.MODELS[AGENTS[0]].timeout_ms


def test_unknown_openai_model_uses_crewais_own_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """No LiteLLM needed for a local model name behind OPENAI_BASE_URL."""
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    llm = models.llm_for(AGENTS[0])
    assert type(llm).__name__ == "OpenAICompletion"
    assert not getattr(llm, "is_litellm", False)
    assert llm.model == "llama3.1"


def test_a_blank_base_url_is_unset_not_sent_to_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    # An unset repository secret reaches the scheduled workflow as "": the provider SDK
    # would read it itself and take "" as its endpoint.
    for names in llms.BASE_URL_ENV.values():
        for name in names:
            monkeypatch.setenv(name, "")
    for model in ("openai/gpt-4o", "openai:gpt-4o"):
        assert llms.base_url(model) is None
    assert not [n for n in llms.BASE_URL_ENV["openai"] if n in os.environ]
