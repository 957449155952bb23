"""MODEL_OVERRIDE / MODEL_<AGENT>, the run's context.Context, and the providers' base URLs
(README: Any model endpoint, Models per run)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import fields

import helpers
import pytest
from fakes import FakeBoard
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from project import TEAM, agents, context, graph, llms, main, model_env, models, runtime, team

AGENTS = list(models.MODELS)


def test_override_reaches_every_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:llama3.1")
    for agent_key, spec in models.MODELS.items():
        assert llms.model_id(spec, agent_key) == "openai:llama3.1", agent_key
    # The override decides which key is needed: OpenAI's, not the definition's providers'.
    assert llms.required_env(TEAM) == ["OPENAI_API_KEY"]


def test_agent_variable_wins_over_override(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = AGENTS
    monkeypatch.setenv("MODEL_OVERRIDE", "openai/llama3.1")
    monkeypatch.setenv(model_env.agent_env(first), "google:gemini-2.5-flash")
    assert llms.model_id(models.MODELS[first], first) == "google_genai:gemini-2.5-flash"
    for agent_key in others:
        if model_env.agent_env(agent_key) != model_env.agent_env(first):
            assert llms.model_id(models.MODELS[agent_key], agent_key) == "openai:llama3.1"
    required = llms.required_env(TEAM)
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
    assert all(getattr(context.Context(), name) is None for name in names)
    assert llms.context_values(context.Context()) == {}


def test_context_wins_over_the_environment_for_its_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = AGENTS
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:from-env")
    chosen = context.Context(**{context.AGENT_FIELDS[first]: "anthropic:from-context"})
    assert llms.agent_model(TEAM, first, models.MODELS[first], chosen) == "anthropic:from-context"
    for agent_key in others:
        assert (
            llms.agent_model(TEAM, agent_key, models.MODELS[agent_key], chosen) == "openai:from-env"
        )
    # The field for every agent, under each agent's own; provider aliases as in the environment.
    every = context.Context(
        **{context.ALL_AGENTS_FIELD: "google:gemini-2.5-flash", context.AGENT_FIELDS[first]: None}
    )
    for agent_key in AGENTS:
        model = llms.agent_model(TEAM, agent_key, models.MODELS[agent_key], every)
        assert model == "google_genai:gemini-2.5-flash"
    # The context's providers decide which keys are needed.
    assert llms.required_env(TEAM, every) == [llms.PROVIDER_KEYS["google_genai"]]
    # Without a context (outside a run: none), the environment's and definition's.
    assert llms.chosen_model(TEAM, first) is None
    assert llms.agent_model(TEAM, first, models.MODELS[first]) == "openai:from-env"


def test_outside_a_graph_run_no_context_chooses() -> None:
    # A LangChain runnable outside any graph has a config but no LangGraph runtime.
    in_runnable = RunnableLambda(lambda _: llms.chosen_model(TEAM, AGENTS[0]))
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
    (found,) = llms.context_problems(TEAM, chosen)
    assert found.startswith(f"context {field}={value!r}: {problem}")
    with pytest.raises(ValueError, match=problem):
        llms.chosen_model(TEAM, AGENTS[0], chosen)


def test_an_unknown_provider_in_the_environment_is_reported_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MODEL_OVERRIDE", "acme:model-1")
    (problem,) = llms.factory_problems(models.MODELS)
    assert problem.startswith("MODEL_OVERRIDE='acme:model-1': unknown provider")


def _chosen_agent() -> str:
    """The agent a test's context chooses for: in a hierarchy one of the entry agent's
    reports (the context must reach the agents nested in its graph), else a step's agent."""
    if team.MODE == "hierarchy":
        reports = agents.reports_of(TEAM, agents.entry_agent(TEAM))
        return reports[0] if reports else agents.entry_agent(TEAM)
    return helpers.reached_agents()[-1]


def _recording(
    board: FakeBoard,
) -> tuple[list[tuple[str, str | None]], Callable[[str], BaseChatModel]]:
    """A model_for seam that records, per model built, the agent and what the run's context
    chose for it (the default seam builds that model), and the list it records in."""
    asked: list[tuple[str, str | None]] = []

    def model_for(agent_key: str) -> BaseChatModel:
        asked.append((agent_key, llms.chosen_model(TEAM, agent_key)))
        return board.model_for(agent_key)

    return asked, model_for


@pytest.mark.anyio
async def test_a_runs_context_chooses_the_model_of_that_run_only(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    target = _chosen_agent()
    asked, model_for = _recording(board)

    # One graph for both runs, as a server keeps it: its models must not outlive a run.
    g = graph.build_graph(checkpointer=InMemorySaver(), model_for=model_for)
    chosen = {context.AGENT_FIELDS[target]: "openai:per-run"}
    await helpers.run_to_end(g, chosen=chosen, thread_id="first")
    assert board.calls_of(target), f"{target} was not called"
    assert (target, "openai:per-run") in asked
    assert {model for agent_key, model in asked if agent_key == target} == {"openai:per-run"}
    assert {model for agent_key, model in asked if agent_key != target} <= {None}

    asked.clear()
    calls = len(board.calls_of(target))
    await helpers.run_to_end(g, thread_id="second")
    assert len(board.calls_of(target)) > calls, f"{target} was not called again"
    # The next run without a context gets the default model, built anew for it.
    assert asked == [(target, None)]


def test_the_graphs_models_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # A server's graph lives long; each run's context may choose another model.
    choice: list[str | None] = [None]
    monkeypatch.setattr(llms, "chosen_model", lambda agent_key, chosen=None: choice[0])
    built: list[tuple[str, str | None]] = []

    def model_for(agent_key: str) -> BaseChatModel:
        built.append((agent_key, choice[0]))
        return FakeBoard().model_for(agent_key)

    team_agents = agents.TeamAgents(TEAM, model_for)
    first = AGENTS[0]
    default = team_agents.model(first)
    for n in range(team_agents.model_cache_size * 2):
        choice[0] = f"openai:m{n}"
        assert team_agents.model(first) is team_agents.model(first)  # kept while in use
        choice[0] = None
        assert team_agents.model(first) is default  # the default, used every run, stays
    assert team_agents._models.cache_info().currsize <= team_agents.model_cache_size
    choice[0] = "openai:m0"
    team_agents.model(first)
    assert built.count((first, "openai:m0")) == 2  # dropped long ago, built again
    assert built.count((first, None)) == 1


def test_a_blank_context_field_is_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    first = AGENTS[0]
    monkeypatch.setenv("MODEL_OVERRIDE", "openai:from-env")
    for blank in ("", "   ", "\t\n"):
        chosen = context.Context(**{context.AGENT_FIELDS[first]: blank})
        assert llms.context_problems(TEAM, chosen) == []
        assert llms.chosen_model(TEAM, first, chosen) is None
        assert llms.agent_model(TEAM, first, models.MODELS[first], chosen) == "openai:from-env"
        # A blank own field leaves the field for every agent in charge.
        every = context.Context(
            **{context.ALL_AGENTS_FIELD: "anthropic:all", context.AGENT_FIELDS[first]: blank}
        )
        assert llms.chosen_model(TEAM, first, every) == "anthropic:all"
        assert llms.required_env(TEAM, every) == [llms.PROVIDER_KEYS["anthropic"]]


def test_a_context_key_that_is_no_field_is_a_problem() -> None:
    first = AGENTS[0]
    key = first if first != context.AGENT_FIELDS[first] else f"{first}-key"
    (problem,) = llms.context_problems(TEAM, {key: "openai:gpt-4.1"})
    assert problem.startswith(f"context {key!r}: no such field")
    assert context.AGENT_FIELDS[first] in problem


@pytest.mark.anyio
async def test_the_runners_model_option_chooses_one_agents_model_for_that_run(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = _chosen_agent()
    asked, model_for = _recording(board)
    monkeypatch.setattr(models, "model_for", model_for)
    # The runner asks for the key of the provider the option chooses, as for any model.
    monkeypatch.setenv("OPENAI_API_KEY", "test-openai-key")
    helpers.approve_everything(monkeypatch)
    argv = [*helpers.run_argv(interactive=True), "--model", f"{target}=openai:per-run"]

    assert await main.amain(argv) == runtime.EXIT_OK, capsys.readouterr().err
    assert {model for agent_key, model in asked if agent_key == target} == {"openai:per-run"}
    assert {model for agent_key, model in asked if agent_key != target} <= {None}

    asked.clear()
    assert await main.amain(helpers.run_argv(interactive=True)) == runtime.EXIT_OK
    assert (target, None) in asked and all(model is None for _, model in asked)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("option", "problem"),
    [
        ("no-such-agent=openai:x", "no agent 'no-such-agent'"),
        ("acme:x", "--model='acme:x': unknown provider"),  # the option, not the context, named
        ("bogus", "--model='bogus': expected provider:model"),
    ],
)
async def test_a_bad_model_option_is_refused_before_any_model_call(
    option: str,
    problem: str,
    team_env: dict[str, str],
    board: FakeBoard,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = await main.amain([*helpers.run_argv(), "--model", option])

    assert code == runtime.EXIT_CONFIG
    assert problem in capsys.readouterr().err
    assert board.calls == []


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
