"""The whole team, run offline through the command-line runner with fake models."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import fake_llm
import helpers
import httpx
import pytest
from crewai.hooks import InterceptionPoint, dispatch
from crewai.hooks.contexts import InputContext
from fake_llm import FakeModels, act
from input_cases import invalid_cases
from project import (
    PACKAGE,
    TEAM,
    crew,
    crew_base,
    delegation,
    input_spec,
    llms,
    main,
    models,
    placeholders,
    policy_rules,
    runtime,
    team,
    texts,
    tools,
)

from envelope_runtime.crewai import deadline as run_deadline
from envelope_runtime.crewai import kickoff_inputs

EXPECTED_OK = runtime.EXIT_PENDING if team.GATES else runtime.EXIT_OK
"""Exit code of a run without a reviewer at the terminal: gates make it wait."""


@pytest.mark.parametrize("how", ["inputs-json", "flags"])
def test_a_run_returns_the_team_result(
    how: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    argv = helpers.run_argv(interactive=True)
    if how == "flags":
        argv = [*helpers.as_flags(helpers.valid_inputs()), *argv[2:]]

    code = main.main(argv)

    out = capsys.readouterr()
    assert code == 0, out.err
    result = json.loads(out.out)
    team.TeamResult.model_validate(result)
    assert set(result) == {
        name if field.alias is None else field.alias
        for name, field in team.TeamResult.model_fields.items()
    }
    assert fake_models.calls, "no model was called"


def test_omitted_inputs_take_their_defaults(
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
) -> None:
    given = {
        name: helpers.sample_input(name, spec)
        for name, spec in team.INPUTS.items()
        if spec.required and spec.default is input_spec.NO_DEFAULT
    }
    expected = {**given}
    for name, spec in team.INPUTS.items():
        if spec.default is not input_spec.NO_DEFAULT:
            expected[name] = spec.default
    expected = {name: expected[name] for name in team.INPUTS if name in expected}

    main.main(helpers.run_argv(given))

    dumped = json.dumps(expected, indent=2, ensure_ascii=False)
    assert f"Run inputs (JSON):\n{dumped}" in fake_models.calls[0].content("user")


def test_missing_env_is_reported_all_at_once_before_any_model_call(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    labels = helpers.env_labels()
    kept = labels[0] if len(labels) > 1 else None
    for label in labels:
        if label != kept:
            for name in label.split(" or "):
                monkeypatch.delenv(name, raising=False)

    code = main.main(helpers.run_argv())

    err = capsys.readouterr().err
    assert code == runtime.EXIT_CONFIG
    missing = [label for label in labels if label != kept]
    assert f"Missing {len(missing)} required environment variable(s):" in err
    for label in missing:
        assert f"  - {label}\n" in err
    if kept is not None:
        assert f"  - {kept}\n" not in err
    assert fake_models.calls == []


@pytest.mark.parametrize(
    ("argv", "problem"),
    [(argv, problem) for _, argv, problem in invalid_cases()],
    ids=[case for case, _, _ in invalid_cases()],
)
def test_invalid_inputs_stop_the_run_before_any_model_call(
    argv: list[str],
    problem: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main.main(argv) == runtime.EXIT_CONFIG
    assert problem in capsys.readouterr().err
    assert fake_models.calls == []


def test_run_deadline_stops_the_run_with_a_clear_message(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 300)
    release = threading.Event()
    fake_models.hold = release  # the run's first model calls last until the test says
    # The deadline passes once a model call is under way, however long the run took to get
    # there (a loaded machine can spend 300 ms before the first call).
    arrived = fake_models.arrived
    monkeypatch.setattr(
        run_deadline.Deadline, "remaining", lambda self: -1.0 if arrived.is_set() else 3600.0
    )

    code = main.main(helpers.run_argv())
    held = list(fake_models.calls)
    under_way = [call.ended == 0.0 for call in held]
    release.set()

    # The runner ended on the deadline without waiting for the calls under way.
    assert code == runtime.EXIT_TIMEOUT
    assert held and all(under_way)
    assert (
        "Run deadline exceeded: the team did not finish within 300 ms (timeout.runMs)"
        in capsys.readouterr().err
    )
    # The abandoned worker finishes the calls under way; the guard refuses every later one.
    for thread in threading.enumerate():
        if thread.name == "envelope-run":
            thread.join(timeout=30)
    assert fake_models.calls == held


def _egress_target() -> tuple[str, str] | None:
    """An agent with egress that a run reaches, and the CrewAI role that holds its tool."""
    in_steps = {step.agent_key for step in team.PIPELINE.values()}
    for agent_key in helpers.egress_agents():
        if team.MODE == "pipeline" and agent_key not in in_steps:
            continue
        role = helpers.roles()[agent_key]
        return agent_key, f"{role} Requests" if helpers.has_requests_delegate(agent_key) else role
    return None


def test_a_refused_request_reaches_the_agent_as_the_rule_reason(
    team_env: dict[str, str],
    fake_models: FakeModels,
    no_network: list[httpx.Request],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = _egress_target()
    refused = target and helpers.refused_request(target[0], team_env)
    if not target or not refused:
        pytest.skip("no agent that a run reaches has a policy that refuses a request")
    agent_key, holder = target
    method, url = refused
    request = act("http_request", method=method, url=url)
    if team.MODE == "pipeline":
        step = next(k for k, s in team.PIPELINE.items() if s.agent_key == agent_key)
        fake_models.script_task(step, request)
        helpers.approve_everything(monkeypatch)
    elif helpers.has_requests_delegate(agent_key):
        fake_models.script(agent_key, fake_llm.delegate(holder, "Make this request."))
        fake_models.script(holder, request)
    else:
        helpers.drive(fake_models, agent_key, "Make this request.", request)

    assert main.main(helpers.run_argv(interactive=True)) == 0, capsys.readouterr().err

    reason = policy_rules.evaluate(tools.policies(TEAM)[agent_key], method, url, team_env).reason
    calls = fake_models.calls_of(holder)
    refusal = f"REFUSED by access policy of {agent_key}: {reason}"
    assert any(refusal in call.text() for call in calls[1:]), [c.text() for c in calls]
    assert no_network == []


def test_each_agent_gets_its_configured_model_arguments(
    team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[dict[str, Any]] = []

    def record(**arguments: Any) -> dict[str, Any]:
        built.append(arguments)
        return arguments

    monkeypatch.setattr(llms, "LLM", record)

    for agent_key, spec in models.MODELS.items():
        built.clear()
        models.llm_for(agent_key)
        (arguments,) = built
        model = llms.model_id(spec)
        assert arguments["model"] == model and arguments["temperature"] == spec.temperature
        if llms.provider(model) == "gemini":  # CrewAI's Gemini client has its own names
            assert arguments["max_output_tokens"] == spec.max_tokens
            assert arguments["client_params"] == {"http_options": {"timeout": spec.timeout_ms}}
        else:
            assert arguments["max_tokens"] == spec.max_tokens
            assert arguments["timeout"] == spec.timeout_ms / 1000
    assert llms.execution_limit_s(llms.ModelSpec(model=None, timeout_ms=1500)) == 2


def test_provider_keys_and_model_are_required_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    declared = [spec.model for spec in models.MODELS.values() if spec.model is not None]
    uses_model_env = any(spec.model is None for spec in models.MODELS.values())
    keys = [llms.PROVIDER_KEYS.get(llms.provider(model)) for model in declared]
    required = llms.required_env(models.MODELS)

    assert len(required) == len(set(required))
    expected = {key for key in keys if key is not None} | ({"MODEL"} if uses_model_env else set())
    assert set(required) == expected
    if uses_model_env:
        # Once MODEL names a provider, that provider's key is required too (either spelling).
        for chosen, provider in (
            ("mistral:mistral-large-latest", "mistral"),
            ("openai/o3", "openai"),
        ):
            monkeypatch.setenv("MODEL", chosen)
            with_model = llms.required_env(models.MODELS)
            assert len(with_model) == len(set(with_model))
            assert set(with_model) == set(required) | {llms.PROVIDER_KEYS[provider]}


# Routed through LiteLLM, whose import alone takes about ten seconds.
SLOW_PROVIDERS = {"mistral"}


def test_crewai_builds_every_configured_provider(team_env: dict[str, str]) -> None:
    seen: set[str] = set()
    for agent_key, spec in models.MODELS.items():
        model = llms.model_id(spec)
        if llms.provider(model) in SLOW_PROVIDERS | seen:
            continue
        seen.add(llms.provider(model))
        llm = models.llm_for(agent_key)
        assert not isinstance(llm, fake_llm.FakeLLM)
        assert llm.model in (model, model.split("/", 1)[1]), agent_key
        assert llm.temperature == spec.temperature


def test_a_model_factory_named_in_the_environment_supplies_every_model(
    team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv(llms.FACTORY_ENV, "fake_llm:llm_from_env")
    monkeypatch.setenv("FAKE_LLM_LOG", str(tmp_path / "calls.jsonl"))
    monkeypatch.setattr(fake_llm, "_process_board", None)

    built = [models.llm_for(agent_key) for agent_key in models.MODELS]

    assert all(isinstance(llm, fake_llm.FakeLLM) for llm in built)
    assert llms.required_env(models.MODELS) == []


def test_run_with_trigger_takes_the_inputs_as_a_json_payload(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "argv", ["run_with_trigger", json.dumps(helpers.valid_inputs())])
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)

    with pytest.raises(SystemExit) as stopped:
        main.run_with_trigger()

    assert stopped.value.code == EXPECTED_OK, capsys.readouterr().err
    assert "Run inputs (JSON)" in fake_models.calls[0].content("user")


def test_the_crew_class_has_one_agent_method_per_definition_agent(
    team_env: dict[str, str], fake_models: fake_llm.FakeModels
) -> None:
    crews = crew.TeamCrew()
    for agent_key, spec in team.AGENTS.items():
        assert callable(getattr(crews, spec.method)), agent_key
        # The agent carries its prompt, {{NAME}} filled in, and the one-pass executor.
        prompt = crews.agents_config[spec.method]["backstory"]
        built = crews._agent(agent_key)
        assert built.backstory == placeholders.render(prompt, crews.values), agent_key
        assert built.executor_class is texts.VerbatimExecutor, agent_key
    assert set(crews.agents_config) == {spec.method for spec in team.AGENTS.values()}
    if team.MODE == "pipeline":
        assert set(crews.tasks_config) == {step.method for step in team.PIPELINE.values()}
    else:
        assert set(crews.tasks_config) == {delegation.TEAM_TASK}
    assert set(models.MODELS) == set(team.AGENTS)


def test_resume_needs_a_pipeline(
    team_env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    if team.MODE == "pipeline":
        assert main.main(["resume", "no-such-run"]) == runtime.EXIT_CONFIG
        assert "not found" in capsys.readouterr().err
    else:
        assert main.main(["resume", "some-run"]) == runtime.EXIT_CONFIG
        assert "has no pipeline" in capsys.readouterr().err


def test_help_names_the_console_script_and_the_resume_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith(f"usage: {PACKAGE} ")
    assert (f"{PACKAGE} resume RUN_ID" in text) == (team.MODE == "pipeline")
    assert (f"{PACKAGE} sweep applies" in text) == (team.MODE == "pipeline")
    documents = getattr(team, "WORKSPACE", {})
    assert (f"{PACKAGE} workspace list|show|edit" in text) == bool(documents)
    assert (f"{PACKAGE} watch [--once]" in text) == any(s.triggers for s in documents.values())


def test_a_model_factory_that_cannot_be_loaded_stops_the_run_before_any_model_call(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(llms.FACTORY_ENV, "envelope_no_such_module:make")

    assert main.main(helpers.run_argv()) == runtime.EXIT_CONFIG

    assert f"{llms.FACTORY_ENV}: cannot load 'envelope_no_such_module:make'" in (
        capsys.readouterr().err
    )
    assert fake_models.calls == []


def _a_crew(inputs: dict[str, Any]) -> Any:
    """The team's crew: a hierarchy's @crew, or a pipeline's first step's (a pipeline has no
    @crew: its flow is the one way it runs)."""
    team_crew = crew.TeamCrew(inputs)
    if team.MODE == "pipeline":
        return team_crew.step_crew(next(iter(team.PIPELINE)), "", {})
    return team_crew.crew()


def test_files_in_knowledge_become_the_crews_knowledge(
    team_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "knowledge").mkdir()
    (tmp_path / "knowledge" / "README.md").write_text("About this folder.", encoding="utf-8")
    (tmp_path / "knowledge" / "refunds.txt").write_text("Refunds in 30 days.", encoding="utf-8")
    (tmp_path / "knowledge" / "prices.csv").write_text("plan,price\npro,10\n", encoding="utf-8")

    team_crew = _a_crew(helpers.valid_inputs())

    sources = {type(s).__name__: list(s.file_paths) for s in team_crew.knowledge_sources or []}
    assert sources == {
        "CSVKnowledgeSource": ["prices.csv"],
        "TextFileKnowledgeSource": ["refunds.txt"],
    }


def test_without_knowledge_files_a_crew_has_no_knowledge(
    team_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    assert not _a_crew(helpers.valid_inputs()).knowledge_sources


def test_every_knowledge_suffix_has_its_source() -> None:
    from envelope_runtime.crewai import knowledge  # what a crew with knowledge files imports

    assert set(crew_base.KNOWLEDGE_SUFFIXES) == set(knowledge.KINDS)


def test_a_run_loads_no_kickoff_inputs_knowledge_or_litellm_code(
    team_env: dict[str, str],
    fake_models: fake_llm.FakeModels,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Our runner's kickoffs give no inputs, knowledge/ has no files here and the models are
    CrewAI's own providers: those paths' modules stay unloaded (issue 37)."""
    monkeypatch.chdir(tmp_path)
    names = [f"envelope_runtime.crewai.{m}" for m in ("kickoff_inputs", "knowledge")]
    names.append("envelope_runtime.crewai.litellm_providers")
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
        # `from . import` would find the attribute of the package
        monkeypatch.delattr(sys.modules["envelope_runtime.crewai"], name.rpartition(".")[2], False)

    assert main.main(helpers.run_argv()) == EXPECTED_OK, capsys.readouterr().err
    assert [name for name in names if name in sys.modules] == []


def test_kickoff_inputs_other_than_the_crews_are_refused(
    team_env: dict[str, str], fake_models: fake_llm.FakeModels
) -> None:
    inputs = helpers.valid_inputs()
    team_crew = _a_crew(inputs)
    given = dispatch(InterceptionPoint.INPUT, InputContext(crew=team_crew, payload=dict(inputs)))

    assert given.payload == kickoff_inputs.crewai_inputs(team_crew, inputs)
    if team.INPUTS:
        key = next(iter(team.INPUTS))
        with pytest.raises(ValueError, match="TeamCrew\\(inputs\\)"):
            team_crew.kickoff(inputs={**inputs, key: "another value"})
        assert fake_models.calls == []


def test_a_team_crew_leaves_crewai_checkpointing_on(
    team_env: dict[str, str], fake_models: fake_llm.FakeModels
) -> None:
    # A callback CrewAI cannot serialize (a closure, a bound method) turns checkpointing off;
    # the runtime adds none (@CrewBase's own close_mcp_server is CrewAI's).
    team_crew = _a_crew(helpers.valid_inputs())
    members = [*team_crew.agents, *([team_crew.manager_agent] if team_crew.manager_agent else [])]
    callbacks = [
        *team_crew.before_kickoff_callbacks,
        *team_crew.after_kickoff_callbacks,
        team_crew.step_callback,
        team_crew.task_callback,
        *(member.step_callback for member in members),
        *(task.callback for task in team_crew.tasks),
    ]

    assert [c for c in callbacks if c is not None and c.__module__.split(".")[0] != "crewai"] == []
