"""The whole team run offline: the runner, inputs, environment, models, limits, egress."""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import fakes
import helpers
import httpx
import pytest
from fakes import Call, FakeBoard
from input_cases import invalid_cases
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langgraph.errors import GraphRecursionError
from project import (
    PACKAGE,
    TEAM,
    agents,
    graph,
    input_spec,
    llms,
    main,
    models,
    nodes,
    policy_rules,
    redaction,
    runner,
    runtime,
    state,
    team,
    tools,
)
from pydantic import ValidationError

from envelope_runtime.inputs import EnvRequirement

pytestmark = pytest.mark.anyio

PROVIDER_MODULES = (
    "langchain_anthropic",
    "langchain_openai",
    "langchain_google_genai",
    "langchain_mistralai",
    "langchain_openrouter",
    "anthropic",
    "openai",
    "google",
    "mistralai",
    "openrouter",
)


def _result_keys() -> set[str]:
    return {
        name if field.alias is None else field.alias
        for name, field in state.TeamResult.model_fields.items()
    }


# --- the runner ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["inputs-json", "flags"])
async def test_a_run_prints_the_team_result(
    how: str,
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    helpers.approve_everything(monkeypatch)
    argv = helpers.run_argv(interactive=True)
    if how == "flags":
        argv = ["run", *helpers.as_flags(helpers.valid_inputs()), *argv[2:]]

    code = await main.amain(argv)

    out = capsys.readouterr()
    assert code == runtime.EXIT_OK, out.err
    result = json.loads(out.out)
    state.TeamResult.model_validate(result)
    assert set(result) == _result_keys()
    assert board.calls, "no model was called"


async def test_omitted_inputs_take_their_defaults(
    team_env: dict[str, str], board: FakeBoard, capsys: pytest.CaptureFixture[str]
) -> None:
    given = {
        name: helpers.sample_input(name, spec)
        for name, spec in team.INPUTS.items()
        if spec.required and spec.default is input_spec.NO_DEFAULT
    }

    await main.amain(helpers.run_argv(given))

    expected = {**given}
    for name, spec in team.INPUTS.items():
        if spec.default is not input_spec.NO_DEFAULT:
            expected[name] = spec.default
    expected = {name: expected[name] for name in team.INPUTS if name in expected}
    dumped = json.dumps(expected, indent=2, ensure_ascii=False)
    assert f"Run inputs (JSON):\n{dumped}" in board.calls[0].human


async def test_missing_env_is_reported_all_at_once_before_any_model_call(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    labels = helpers.env_labels()
    kept = labels[0] if len(labels) > 1 else None
    for label in labels:
        if label != kept:
            for name in label.split(" or "):
                monkeypatch.delenv(name, raising=False)

    code = await main.amain(helpers.run_argv())

    err = capsys.readouterr().err
    assert code == runtime.EXIT_CONFIG
    missing = [label for label in labels if label != kept]
    assert f"Missing {len(missing)} required environment variable(s):" in err
    for label in missing:
        assert f"  - {label}\n" in err
    if kept is not None:
        assert f"  - {kept}\n" not in err
    assert board.calls == []


async def test_the_graph_checks_the_environment_before_any_model_call(
    board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # and the connection packs' credentials (--connections), which prepare requires too
    names = [*team.SECRETS, *team.VARIABLES, *getattr(team, "CONNECTION_SECRETS", ())]
    if not names:
        pytest.skip("the team requires no secrets or variables")
    for name in names:
        monkeypatch.delenv(name, raising=False)

    with pytest.raises(runtime.MissingEnvError) as raised:
        await helpers.build(board).ainvoke(helpers.start(), helpers.config())

    assert raised.value.missing == names
    assert board.calls == []


@pytest.mark.parametrize(
    ("argv", "problem"),
    [(argv, problem) for _, argv, problem in invalid_cases()],
    ids=[case for case, _, _ in invalid_cases()],
)
async def test_invalid_inputs_stop_the_run_before_any_model_call(
    argv: list[str],
    problem: str,
    team_env: dict[str, str],
    board: FakeBoard,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert await main.amain(argv) == runtime.EXIT_CONFIG
    assert problem in capsys.readouterr().err
    assert board.calls == []


async def test_invalid_inputs_given_to_the_graph_fail_before_any_model_call(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    # The graph's input is flat (state.TeamInputs, a pydantic model): LangGraph drops a key
    # it does not know, and validates the values as prepare's input, naming the bad one.
    if not team.INPUTS:
        pytest.skip("the team has no inputs")
    name, spec = next(iter(team.INPUTS.items()))
    wrong = {"string": 5, "number": "many", "boolean": "yes", "object": [1], "array": {"a": 1}}
    bad = {**helpers.valid_inputs(), name: wrong[spec.type]}
    channel = nodes.graph_input(TEAM, {name: None}).popitem()[0]

    with pytest.raises(ValidationError) as refused:
        await helpers.build(board).ainvoke(nodes.graph_input(TEAM, bad), helpers.config())

    # A number is int | float: pydantic names the key once for each (loc (key, "int"), …).
    assert {error["loc"][0] for error in refused.value.errors()} == {channel}

    assert board.calls == []


async def test_the_run_deadline_stops_the_run_with_a_clear_message(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Less than any node's own timeout (llms.node_timeout: over 8.75 s; a hierarchy's
    # subtree: runMs and 5 s), far more than any machine takes to its first model call.
    monkeypatch.setattr(team, "RUN_TIMEOUT_MS", 8000)
    release = threading.Event()
    board.hold = release  # the run's model calls last until the test says
    # The deadline passes once a model call is under way (the loop's clock moves on).
    with helpers.clock_ahead_on_arrival(board, team.RUN_TIMEOUT_MS / 1000):
        code = await main.amain(helpers.run_argv())
    held = list(board.calls)
    under_way = [call.ended == 0.0 for call in held]
    release.set()

    # The runner ended on the deadline without waiting for the calls under way: cancelled.
    assert code == runtime.EXIT_TIMEOUT
    assert held and all(under_way), "the deadline did not cancel the model call in flight"
    assert (
        "Run deadline exceeded: the team did not finish within 8000 ms of work "
        "(timeout.runMs, counted across resumes)" in capsys.readouterr().err
    )
    assert all(call.ended == 0.0 for call in board.calls), "a model call finished"


async def test_the_recursion_limit_stops_a_looping_graph(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(team, "RECURSION_LIMIT", 2)

    code = await main.amain(helpers.run_argv())

    assert code == runtime.EXIT_FAILED
    err = capsys.readouterr().err
    assert "Run failed: more than 2 steps (team.RECURSION_LIMIT)" in err
    assert "Recursion limit of 2 reached" in err


async def test_the_recursion_limit_bounds_every_agent(
    team_env: dict[str, str], board: FakeBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = 7
    monkeypatch.setattr(team, "RECURSION_LIMIT", limit)
    agent_key = next(iter(team.AGENTS))
    # A model that never stops calling a tool that does not exist.
    board.script(agent_key, *[fakes.tool_call("no_such_tool") for _ in range(500)])
    team_agents = nodes.TeamNodes(TEAM, board.model_for).agents

    with pytest.raises(GraphRecursionError):
        await team_agents.ask(
            agent_key, helpers.resolved(helpers.valid_inputs()), "Loop.", "probe", state.TeamResult
        )

    assert 1 < len(board.calls_of(agent_key)) <= limit


# --- models ------------------------------------------------------------------------------------


async def test_each_agent_gets_its_configured_model_arguments(
    team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[tuple[str, dict[str, Any]]] = []

    def record(model: str, **kwargs: Any) -> BaseChatModel:
        built.append((model, kwargs))
        return FakeBoard().model_for("recorded")

    monkeypatch.setattr(llms, "init_chat_model", record)

    for agent_key, spec in models.MODELS.items():
        built.clear()
        models.model_for(agent_key)
        ((model, kwargs),) = built
        assert model == llms.model_id(spec), agent_key
        assert kwargs.get("temperature") == spec.temperature, agent_key
        assert kwargs.get("max_tokens") == spec.max_tokens, agent_key
        # Each integration's own unit for the request timeout.
        expected = {"mistralai": -(-spec.timeout_s // 1), "openrouter": spec.timeout_s * 1000}
        timeout = expected.get(llms.provider(model), spec.timeout_s)
        assert kwargs["timeout"] == timeout, agent_key
        # The client's own retries off: agents.model_retry is the one retry of a model call.
        assert kwargs["max_retries"] == llms.NO_CLIENT_RETRIES[llms.provider(model)], agent_key


async def test_langchain_builds_every_configured_provider(team_env: dict[str, str]) -> None:
    seen: set[str] = set()
    for agent_key, spec in models.MODELS.items():
        prefix = llms.provider(llms.model_id(spec))
        if prefix in seen:
            continue
        seen.add(prefix)
        chat = models.model_for(agent_key)
        assert isinstance(chat, BaseChatModel) and not isinstance(chat, fakes.FakeChatModel)
        name = llms.model_id(spec).partition(":")[2]
        names = [str(getattr(chat, a, "")) for a in ("model", "model_name")]
        assert any(found.endswith(name) for found in names), (agent_key, names)
        if spec.temperature is not None:
            assert getattr(chat, "temperature", None) == spec.temperature, agent_key
        timeout = llms.model_kwargs(spec)["timeout"]
        held = [getattr(chat, a, None) for a in ("timeout", "default_request_timeout")]
        held.append(getattr(chat, "request_timeout", None))
        assert timeout in held, (agent_key, held)


@pytest.mark.parametrize("prefix", sorted(llms.PROVIDER_KEYS))
def test_every_provider_takes_the_model_arguments_in_its_own_units(
    prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = llms.ModelSpec(model=f"{prefix}:envelope-test", timeout_s=12.5, temperature=0.2)
    kwargs = llms.model_kwargs(spec)
    expected = {"mistralai": 13, "openrouter": 12500}.get(prefix, 12.5)
    retries = llms.NO_CLIENT_RETRIES[prefix]
    assert kwargs == {"temperature": 0.2, "timeout": expected, "max_retries": retries}
    package = f"langchain_{prefix}" if prefix != "google_genai" else "langchain_google_genai"
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed (no agent of this team uses {prefix})")
    requirement = llms.PROVIDER_KEYS[prefix]
    monkeypatch.setenv(requirement if isinstance(requirement, str) else requirement[0], "unused")
    # The real constructor validates the types (an integer timeout for some integrations).
    chat = llms.build_chat_model("probe", spec)
    held = [getattr(chat, a, None) for a in ("timeout", "default_request_timeout")]
    assert expected in [*held, getattr(chat, "request_timeout", None)]
    # Its client makes one request per call: 0 retries, or (Google, Mistral) 1 attempt.
    assert chat.max_retries == retries  # type: ignore[attr-defined]


def test_provider_keys_are_required_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    expected: list[EnvRequirement] = []
    for spec in models.MODELS.values():
        needed = llms.PROVIDER_KEYS.get(llms.provider(llms.model_id(spec)))
        if needed is not None and needed not in expected:
            expected.append(needed)
    assert llms.required_env(TEAM) == expected


def test_an_agent_without_a_model_uses_model_else_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = llms.ModelSpec(model=None, timeout_s=30)
    assert llms.model_id(spec) == llms.DEFAULT_MODEL
    assert llms.required_env(TEAM, models={"a": spec}) == [
        llms.PROVIDER_KEYS[llms.provider(llms.DEFAULT_MODEL)]
    ]
    monkeypatch.setenv(llms.MODEL_ENV, "google:gemini-2.5-flash")
    assert llms.model_id(spec) == "google_genai:gemini-2.5-flash"
    assert llms.required_env(TEAM, models={"a": spec}) == [("GOOGLE_API_KEY", "GEMINI_API_KEY")]
    assert llms.model_kwargs(spec) == {"timeout": 30.0, "max_retries": 1}  # Google's: 1 attempt


def test_a_model_factory_named_in_the_environment_supplies_every_model(
    team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(llms.FACTORY_ENV, "fakes:model_from_env")
    monkeypatch.setenv("FAKE_LLM_LOG", str(tmp_path / "calls.jsonl"))
    monkeypatch.setattr(fakes, "_process_board", None)

    built = [models.model_for(agent_key) for agent_key in models.MODELS]

    assert all(isinstance(chat, fakes.FakeChatModel) for chat in built)
    assert [chat.agent_key for chat in built] == list(models.MODELS)
    assert llms.required_env(TEAM) == []


def test_importing_the_graph_needs_no_key_and_no_provider_package(tmp_path: Path) -> None:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.endswith(("_API_KEY", "_TOKEN")) and name not in team.SECRETS
    }
    env["PYTHONPATH"] = os.pathsep.join([helpers.source_root(), env.get("PYTHONPATH", "")])
    probe = (
        "import json, sys\n"
        f"from {PACKAGE} import graph\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {PROVIDER_MODULES!r})\n"
        "print(json.dumps({'loaded': loaded, 'checkpointer': repr(graph.graph.checkpointer)}))\n"
    )

    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"loaded": [], "checkpointer": "None"}


def test_the_served_graph_has_no_checkpointer_and_an_explicit_recursion_limit() -> None:
    assert graph.graph.checkpointer is None
    assert (graph.graph.config or {}).get("recursion_limit") == team.RECURSION_LIMIT


# --- access policies and secrets -------------------------------------------------------------


def _reached_egress_agent(allowed: bool) -> tuple[str, tuple[str, str]] | None:
    """An agent with egress that a run reaches, and a request its policy allows/refuses."""
    env = helpers.test_env()
    for agent_key in helpers.reached_agents():
        if agent_key not in team.POLICIES:
            continue
        find = helpers.allowed_request if allowed else helpers.refused_request
        request = find(agent_key, env)
        if request is not None:
            return agent_key, request
    return None


async def test_a_refused_request_reaches_the_agent_as_a_tool_result(
    team_env: dict[str, str], board: FakeBoard, no_network: list[httpx.Request]
) -> None:
    target = _reached_egress_agent(allowed=False)
    if target is None:
        pytest.skip("no agent that a run reaches has a policy that refuses a request")
    agent_key, (method, url) = target
    board.script(agent_key, fakes.tool_call("http_request", method=method, url=url))

    snapshot = await helpers.run_to_end(helpers.build(board))

    assert snapshot.values.get("result") is not None, "the run did not complete"
    reason = policy_rules.evaluate(team.POLICIES[agent_key], method, url, team_env).reason
    refusal = f"REFUSED by access policy of {agent_key}: {reason}"
    results = [m.text for call in board.calls_of(agent_key) for m in call.tool_results()]
    assert refusal in results, results
    assert no_network == []


async def test_secrets_never_reach_the_checkpoints(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not team.SECRETS:
        pytest.skip("the team has no secrets")
    name = team.SECRETS[0]
    secret = team_env[name]
    seen: list[httpx.Request] = []

    def echo(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, text=f"echo {request.headers.get('authorization')}")

    monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(echo))
    target = _reached_egress_agent(allowed=True)
    leaky = target[0] if target else helpers.reached_agents()[0]
    if target is not None:
        method, url = target[1]
        header = {"Authorization": "Bearer {{" + name + "}}"}
        board.script(leaky, fakes.tool_call("http_request", method=method, url=url, headers=header))

    leaked: set[str] = set()

    def leak(call: Call) -> Any:
        # The agent's answer quotes the secret, in a string field when it is structured.
        reply = board.generic_reply(call)
        if reply.tool_calls and reply.tool_calls[0]["name"] == call.structured_tool():
            text = json.dumps(reply.tool_calls[0]["args"]).replace('"sample ', f'"{secret} ', 1)
            if secret in text:
                leaked.add(call.agent_key)
            return fakes.tool_call(reply.tool_calls[0]["name"], **json.loads(text))
        if reply.tool_calls:
            return reply
        leaked.add(call.agent_key)
        return f"{reply.text} {secret}"

    # Every agent the run reaches leaks, so answers that land in state (not only tool
    # results inside an agent's own conversation) carry the secret too.
    for agent_key in helpers.reached_agents():
        board.script(agent_key, *[leak] * 20)
    helpers.approve_everything(monkeypatch)

    code = await main.amain(helpers.run_argv(interactive=True))

    assert code == runtime.EXIT_OK, capsys.readouterr().err
    if target is not None:
        assert seen and seen[0].headers["authorization"] == f"Bearer {secret}"
        results = [m.text for call in board.calls_of(leaky) for m in call.tool_results()]
        assert f"echo Bearer {redaction.REDACTED}" in "\n".join(results)
    stored = b"".join(path.read_bytes() for path in runner.STATE_DIR.glob("checkpoints.sqlite*"))
    assert secret.encode() not in stored
    # An answer that quoted the secret and is kept in state was stored redacted (checkpoints
    # hold plain msgpack strings). Answers without a free-text field cannot quote it.
    kept = {agents.entry_agent(TEAM)} if team.MODE == "hierarchy" else set(helpers.reached_agents())
    if leaked & kept:
        assert redaction.REDACTED.encode() in stored
    with sqlite3.connect(runner.STATE_DIR / runner.CHECKPOINTS) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM checkpoints").fetchone()
    assert count > 0


def test_agents_are_named_by_their_identifiers() -> None:
    names = [spec.name for spec in team.AGENTS.values()]
    assert len(set(names)) == len(names)
    for agent_key, spec in team.AGENTS.items():
        # create_agent(name=...) is copied to every AIMessage; providers accept [A-Za-z0-9_-].
        assert spec.name.isascii() and spec.name.replace("_", "").isalnum(), agent_key
        assert agents.ask_tool_name(TEAM, agent_key) == f"ask_{spec.name}"
    assert set(models.MODELS) == set(team.AGENTS)


async def test_a_short_secret_that_occurs_in_timestamps_corrupts_nothing(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Only free text is redacted: a secret such as `20` (in every timestamp of this
    century) must not reach gate timestamps, statuses or the keys of a JSON answer."""
    if not team.SECRETS:
        pytest.skip("the team has no secrets")
    monkeypatch.setenv(team.SECRETS[0], "20")
    helpers.approve_everything(monkeypatch)

    code = await main.amain(helpers.run_argv(interactive=True))

    out = capsys.readouterr()
    assert code == runtime.EXIT_OK, out.err
    assert set(json.loads(out.out)) == _result_keys()


async def test_a_model_factory_that_cannot_be_loaded_stops_the_run_before_any_model_call(
    team_env: dict[str, str],
    board: FakeBoard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(llms.FACTORY_ENV, "envelope_no_such_module:make")

    assert await main.amain(helpers.run_argv()) == runtime.EXIT_CONFIG

    assert f"{llms.FACTORY_ENV}: cannot load 'envelope_no_such_module:make'" in (
        capsys.readouterr().err
    )
    assert board.calls == []


async def test_a_later_run_on_the_thread_never_gets_the_last_runs_inputs(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    # Studio submits again on the same thread: an optional input it omits takes its default
    # (state.TeamInputs are EphemeralValue channels), not the previous run's value.
    given = helpers.valid_inputs()
    needed = {key: value for key, value in given.items() if team.INPUTS[key].required}
    if helpers.resolved(needed) == helpers.resolved(given):
        pytest.skip("no optional input whose sample differs from its default")
    g = helpers.build(board)
    first = await helpers.run_to_end(g, given)
    assert first.values["inputs"] == helpers.resolved(given)

    second = await helpers.run_to_end(g, needed)  # the same thread

    assert second.values["inputs"] == helpers.resolved(needed)


async def test_a_finished_run_outputs_its_status_and_the_team_result(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    g = helpers.build(board)
    snapshot = await helpers.run_to_end(g)
    output = await g.ainvoke(None, helpers.config())  # a finished thread: its output again

    # state.TeamOutput: status, halted (None) and the result, nothing of the internal state.
    assert output == {"status": "done", "halted": None, "result": snapshot.values["result"]}
    state.TeamResult.model_validate(output["result"])
    assert set(g.get_output_jsonschema()["properties"]) == {"status", "halted", "result"}
    schema = g.get_input_jsonschema()
    channels = {key: state.INPUT_CHANNELS.get(key, key) for key in team.INPUTS}
    assert set(schema["properties"]) == set(channels.values())
    # One run's inputs, each still required or not (EphemeralValue changes no schema).
    required = {channels[key] for key, spec in team.INPUTS.items() if spec.required}
    assert set(schema.get("required", [])) == required
    assert g.get_context_jsonschema() is not None


async def test_a_finished_thread_run_again_and_again_gives_each_run_its_own_result(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    # Studio's "submit" on a thread whose run is done, twice more (an SDK run on the same
    # thread_id): each run is done, with the result its own final answer gave, and none
    # inherits the last run's halt or status (nodes.fresh_run).
    g = helpers.build(board)
    cfg = helpers.config("again-and-again")
    final = team.FINAL_STEP or nodes.TEAM_ANSWER
    for attempt in range(3):
        before = len(board.calls)
        # Each run's final answer differs: its free-text fields say which run it is. A
        # hierarchy's entry agent asks its reports first.
        delegates = team.MODE == "hierarchy" and agents.reports_of(TEAM, agents.entry_agent(TEAM))
        first: list[fakes.Reply] = [board.generic_reply] if delegates else []
        board.script_task(final, *first, _final_answer(f"run {attempt}"))
        payload: Any = helpers.start()
        for _ in range(len(team.GATES) * 4 + 1):
            output = await g.ainvoke(payload, cfg)
            snapshot = await g.aget_state(cfg)
            if not snapshot.interrupts:
                break
            payload = helpers.approve_all(snapshot.interrupts)
        answered = [c.reply for c in board.calls[before:] if c.task == final and c.reply]
        assert answered and not board.scripts[f"task:{final}"], f"run {attempt}: no final answer"
        args = next(t["args"] for t in answered[-1].tool_calls if t["name"] == "TeamResult")
        own = state.TeamResult.model_validate(args).model_dump(mode="json", by_alias=True)
        got = {key: output.get(key) for key in ("status", "halted", "result")}
        assert got == {"status": "done", "halted": None, "result": own}, f"run {attempt}"
        assert snapshot.values["status"] == "done" and snapshot.next == ()


def _final_answer(tag: str) -> fakes.Reply:
    """The final step's (or team's) TeamResult call, every free-text field ending in `tag`."""

    def reply(call: Call) -> AIMessage:
        name = call.structured_tool()
        assert name == "TeamResult", f"{call.task}: bound {sorted(call.tools)}"
        schema = call.tools[name]
        data = fakes.sample(schema, helpers.list_length())
        return fakes.tool_call(name, **_tagged(schema, data, tag, schema.get("$defs", {})))

    return reply


def _tagged(schema: dict[str, Any], value: Any, tag: str, defs: dict[str, Any]) -> Any:
    """`value` (an instance of `schema`) with `tag` added to every free-text string."""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        schema = defs[ref.rsplit("/", 1)[-1]]
    if isinstance(value, str):
        free = schema.get("type") == "string" and not {"enum", "const", "format", "pattern"} & set(
            schema
        )
        return f"{value} ({tag})" if free else value
    if isinstance(value, dict):
        props = schema.get("properties", {})
        return {k: _tagged(props.get(k, {}), v, tag, defs) for k, v in value.items()}
    if isinstance(value, list):
        return [_tagged(schema.get("items", {}), v, tag, defs) for v in value]
    return value
