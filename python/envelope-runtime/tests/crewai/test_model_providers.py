"""A model variable naming a provider that neither CrewAI's own clients nor LiteLLM serves is
refused before the run, naming the variable (CrewAI started such a run and failed at its first
model call); a provider only LiteLLM serves still runs."""

from __future__ import annotations

import sys

import helpers
import pytest
from fake_llm import FakeModels
from project import llms, main, model_env, models, runtime

FIRST = next(iter(models.MODELS))


def test_an_unknown_provider_stops_the_run_before_any_model_call(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    variable = model_env.agent_env(FIRST)
    monkeypatch.setenv(variable, "nosuchprovider/x")

    assert main.main(helpers.run_argv()) == runtime.EXIT_CONFIG

    assert f"{variable}='nosuchprovider/x': no provider 'nosuchprovider'" in (
        capsys.readouterr().err
    )
    assert fake_models.calls == []


def test_a_provider_only_litellm_serves_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("litellm")
    monkeypatch.setenv("MODEL_OVERRIDE", "groq:llama-3.1-8b-instant")
    assert llms.factory_problems(models.MODELS) == []
    monkeypatch.setenv("MODEL_OVERRIDE", "nosuchprovider:x")
    (problem,) = llms.factory_problems(models.MODELS)  # once, for every agent
    assert problem.startswith("MODEL_OVERRIDE='nosuchprovider:x'")


def test_model_is_checked_for_an_agent_without_a_model_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("litellm")
    monkeypatch.setenv("MODEL", "nosuchprovider/x")
    (problem,) = llms.factory_problems({"writer": llms.ModelSpec(model=None, timeout_ms=1000)})
    assert problem.startswith("MODEL='nosuchprovider/x'")


def test_without_litellm_only_crewais_providers_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nor is LiteLLM imported for CrewAI's own providers (seconds at every start)."""
    monkeypatch.setitem(sys.modules, "litellm", None)  # `import litellm` fails
    monkeypatch.setenv("MODEL_OVERRIDE", "google:gemini-2.5-flash")
    assert llms.factory_problems(models.MODELS) == []
    monkeypatch.setenv("MODEL_OVERRIDE", "groq:llama-3.1-8b-instant")
    (problem,) = llms.factory_problems(models.MODELS)
    assert problem.startswith("MODEL_OVERRIDE='groq:llama-3.1-8b-instant': 'groq' is not")
    assert "crewai[litellm]" in problem
