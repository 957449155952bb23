"""MODEL_OVERRIDE / MODEL_<AGENT>, the run's context.Context, and the providers' base URLs
(README: Any model endpoint, Models per run)."""

from __future__ import annotations

import os
from dataclasses import fields

import helpers
import pytest
from fakes import FakeBoard
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from project import context, graph, llms, model_env, models

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


# --- the run's context (context.Context, the graph's context_schema) ---------------------


def test_context_has_one_model_field_per_agent_and_one_for_all() -> None:
    names = [f.name for f in fields(context.Context)]
    assert names == [context.ALL_AGENTS_FIELD, *context.AGENT_FIELDS.values()]
    assert list(context.AGENT_FIELDS) == AGENTS
    assert all(value is None for value in llms.context_values(context.Context()).values())


def test_context_wins_over_the_environment_for_its_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = AGENTS
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:from-env")
    chosen = context.Context(**{context.AGENT_FIELDS[first]: "anthropic:from-context"})
    assert llms.agent_model(first, models.MODELS[first], chosen) == "anthropic:from-context"
    for agent_key in others:
        assert llms.agent_model(agent_key, models.MODELS[agent_key], chosen) == "openai:from-env"
    # The field for every agent, under each agent's own; provider aliases as in the environment.
    every = context.Context(
        **{context.ALL_AGENTS_FIELD: "google:gemini-2.5-flash", context.AGENT_FIELDS[first]: None}
    )
    for agent_key in AGENTS:
        model = llms.agent_model(agent_key, models.MODELS[agent_key], every)
        assert model == "google_genai:gemini-2.5-flash"
    # The context's providers decide which keys are needed.
    assert llms.required_env(models.MODELS, every) == [llms.PROVIDER_KEYS["google_genai"]]
    # Without a context (outside a run: none), the environment's and definition's.
    assert llms.chosen_model(first) is None
    assert llms.agent_model(first, models.MODELS[first]) == "openai:from-env"


def test_outside_a_graph_run_no_context_chooses() -> None:
    # A LangChain runnable outside any graph has a config but no LangGraph runtime.
    in_runnable = RunnableLambda(lambda _: llms.chosen_model(AGENTS[0]))
    assert in_runnable.invoke(None) is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("llama3.1", "expected provider:model"),
        ("acme:model-1", "unknown provider"),
        (5, "expected provider:model"),
    ],
)
def test_a_context_model_passes_the_environments_checks(value: object, problem: str) -> None:
    field = context.AGENT_FIELDS[AGENTS[0]]
    chosen = context.Context(**{field: value})  # type: ignore[arg-type]
    (found,) = llms.context_problems(chosen)
    assert found.startswith(f"context {field}={value!r}: {problem}")
    with pytest.raises(ValueError, match=problem):
        llms.chosen_model(AGENTS[0], chosen)


def test_an_unknown_provider_in_the_environment_is_reported_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "acme:model-1")
    (problem,) = llms.factory_problems(models.MODELS)
    assert problem.startswith("MODEL_OVERRIDE='acme:model-1': unknown provider")


@pytest.mark.anyio
async def test_a_runs_context_chooses_the_model_of_that_run_only(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    first = AGENTS[0]
    asked: list[tuple[str, str | None]] = []

    def model_for(agent_key: str) -> BaseChatModel:
        # What a model_for seam sees of the run's context (the default seam builds that model).
        asked.append((agent_key, llms.chosen_model(agent_key)))
        return board.model_for(agent_key)

    g = graph.build_graph(checkpointer=InMemorySaver(), model_for=model_for)
    chosen = {context.AGENT_FIELDS[first]: "openai:per-run"}
    await helpers.run_to_end(g, chosen=chosen)
    assert asked, "no agent was asked"
    assert {model for agent_key, model in asked if agent_key == first} <= {"openai:per-run"}
    assert {model for agent_key, model in asked if agent_key != first} <= {None}

    asked.clear()
    g_next = graph.build_graph(checkpointer=InMemorySaver(), model_for=model_for)
    await helpers.run_to_end(g_next)
    assert asked and {model for _, model in asked} == {None}


@pytest.mark.anyio
async def test_a_bad_context_fails_the_run_before_any_model_call(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    g = helpers.build(board)
    with pytest.raises(ValueError, match="unknown provider"):
        await g.ainvoke(
            helpers.start(), helpers.config(), context={context.ALL_AGENTS_FIELD: "acme:x"}
        )
    assert board.calls == []
