"""Test data derived from the team's own definition modules, never written per team."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from common_helpers import list_length as list_length
from common_helpers import sample_input as sample_input
from common_helpers import valid_inputs as valid_inputs
from fake_llm import Call, FakeModels, act, delegate, final
from project import PACKAGE, TEAM, delegation, llms, models, policy, policy_rules, team, tools

SUB_TEAM_TOOL = "delegate_to_team"
"""delegation.SUB_TEAM_TOOL (hierarchy teams only ship delegation.py)."""

# --- the definition --------------------------------------------------------------

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _well_formed(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_well_formed(v) for v in value]
    if isinstance(value, dict):
        return {_well_formed(k): _well_formed(v) for k, v in value.items()}
    return value


def definition() -> dict[str, Any]:
    """envelope.json, with U+FFFD for each lone surrogate, as the generated modules hold it."""
    text = files(PACKAGE).joinpath("envelope.json").read_text(encoding="utf-8")
    return _well_formed(json.loads(text))  # type: ignore[no-any-return]


# --- environment and inputs -------------------------------------------------------


def agents_config() -> dict[str, Any]:
    """config/agents.yaml as loaded, without building the crew (which builds the models of
    the agents tasks.yaml names)."""
    text = files(PACKAGE).joinpath("config", "agents.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)  # type: ignore[no-any-return]


def roles() -> dict[str, str]:
    """Agent key -> CrewAI role, as config/agents.yaml defines it."""
    config = agents_config()
    return {key: str(config[spec.method]["role"]) for key, spec in team.AGENTS.items()}


def test_env() -> dict[str, str]:
    """A value for every required environment name (secrets, variables, provider keys)."""
    env: dict[str, str] = {}
    # and the connection packs' credentials (team.CONNECTION_SECRETS, --connections)
    for name in [*team.SECRETS, *getattr(team, "CONNECTION_SECRETS", ())]:
        env[name] = f"secret-{name.lower().replace('_', '-')}-7f3a"
    for name in team.VARIABLES:
        env[name] = f"test-{name.lower().replace('_', '-')}"
    for requirement in llms.required_env(models.MODELS):
        name = requirement if isinstance(requirement, str) else requirement[0]
        env[name] = "openai/gpt-4.1-mini" if name == "MODEL" else f"unused-{name.lower()}"
    if "MODEL" in env:  # then the runner also wants the key of the provider MODEL names
        key = llms.PROVIDER_KEYS[llms.provider(env["MODEL"])]
        env[key if isinstance(key, str) else key[0]] = "unused-model-provider-key"
    return env


def env_labels() -> list[str]:
    """How the runner names every required environment variable when all are missing: with
    MODEL unset, which provider's key it needs is not known, so none is named."""
    chosen = os.environ.pop("MODEL", None)
    try:
        provider_needs = llms.required_env(models.MODELS)
    finally:
        if chosen is not None:
            os.environ["MODEL"] = chosen
    labels: list[str] = []
    packs = getattr(team, "CONNECTION_SECRETS", ())
    for requirement in [*team.SECRETS, *team.VARIABLES, *packs, *provider_needs]:
        label = requirement if isinstance(requirement, str) else " or ".join(requirement)
        if label not in labels:
            labels.append(label)
    return labels


def as_flags(inputs: dict[str, Any]) -> list[str]:
    """Command-line flags for `inputs`: one per input that has a flag, the rest as --inputs."""
    argv: list[str] = []
    rest: dict[str, Any] = {}
    for name, value in inputs.items():
        flag = team.INPUTS[name].flag
        if flag is None:
            rest[name] = value
            continue
        argv += [flag, value if isinstance(value, str) else json.dumps(value)]
    return [*argv, "--inputs", json.dumps(rest)] if rest else argv


# --- access policies -------------------------------------------------------------


def refused_request(agent_key: str, env: dict[str, str]) -> tuple[str, str] | None:
    """A request (method, url) the agent's policy refuses, preferring a rule's own reason."""
    agent_policy = tools.policies(TEAM)[agent_key]
    hosts = ["refused.envelope.invalid"]
    for rule in agent_policy.rules:
        # An unreadable host (say "a*b.com") would give a URL no client can send.
        host = policy_rules.example_host(policy.expand(rule.host, env)) if rule.host else None
        if host is not None:
            hosts.append(host)
    candidates = [
        (method, f"https://{host}{path}")
        for host in reversed(hosts)
        for method in ("DELETE", "POST", "PATCH", "PUT", "GET")
        for path in ("/envelope/refused", "/")
    ]
    refused = [
        (method, url)
        for method, url in candidates
        if not policy_rules.evaluate(agent_policy, method, url, env).allowed
    ]
    by_rule = [c for c in refused if policy_rules.evaluate(agent_policy, *c, env).rule is not None]
    chosen = by_rule or refused
    return chosen[0] if chosen else None


def egress_agents() -> list[str]:
    return sorted(team.EGRESS)


# --- driving a hierarchy with scripted replies --------------------------------


def has_requests_delegate(agent_key: str) -> bool:
    """delegation.has_requests_delegate; no agent of a pipeline team has one."""
    return delegation is not None and bool(delegation.has_requests_delegate(TEAM, agent_key))


def path_to(agent_key: str) -> list[str]:
    """hierarchy: the chain of agents a task passes from the top manager to `agent_key`."""
    chain = [agent_key]
    while team.AGENTS[chain[0]].reports_to is not None:
        chain.insert(0, team.AGENTS[chain[0]].reports_to)  # type: ignore[arg-type]
    top = delegation.top_manager(TEAM)
    return chain if top is None or chain[0] == top else [top, *chain]


def drive(board: FakeModels, agent_key: str, task: str, *replies: str) -> None:
    """Script the hierarchy so that `task` reaches `agent_key`, which answers `replies`.

    Each manager on the way delegates it; a mid-level manager first calls its
    `delegate_to_team` tool (as a worker), then delegates inside its sub-team (as that
    team's manager). Unscripted calls afterwards get the fake's generic answers.
    """
    chain = path_to(agent_key)
    for upper, lower in zip(chain, chain[1:], strict=False):
        if delegation.has_sub_team(TEAM, upper):
            board.script(upper, act(SUB_TEAM_TOOL, task=task))
        board.script(upper, delegate(board.roles[lower], task))
    board.script(agent_key, *replies)


def relay(marker: str) -> Callable[[Call], str]:
    """A reply that ends the task with the last line of the conversation holding `marker`."""

    def reply(call: Call) -> str:
        lines = [line for line in call.text().splitlines() if marker in line]
        return final(lines[-1].strip() if lines else f"{marker} not found")

    return reply


def drive_everyone(board: FakeModels, task: str) -> None:
    """Script the hierarchy so that every agent gets `task` once (depth first)."""

    def visit(manager: str) -> None:
        for worker in delegation.workers_of(TEAM, manager):
            board.script(manager, delegate(board.roles[worker], task))
            if delegation.reports_of(TEAM, worker):
                board.script(worker, act(SUB_TEAM_TOOL, task=task))
                visit(worker)

    top = delegation.top_manager(TEAM)
    if top is not None:
        visit(top)


# --- pipeline runs and gates ----------------------------------------------------


def approve_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Terminal review answers: approve every record of every gate."""
    answers = iter(["approve"] * 500)

    def read(prompt: object = "") -> str:
        sys.stdout.write(str(prompt))  # as input() does when stdout is no terminal
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", read)


def run_argv(inputs: dict[str, Any] | None = None, interactive: bool = False) -> list[str]:
    """Runner arguments: every input as --inputs JSON; in pipeline mode, how gates review."""
    argv = ["--inputs", json.dumps(valid_inputs() if inputs is None else inputs)]
    if team.MODE == "pipeline":
        argv.append("--interactive" if interactive else "--no-interactive")
    return argv


def approved_records(call: Call, gate: str) -> list[dict[str, Any]]:
    """The records a step received from a gate, parsed back from its task text."""
    text = call.content("user")
    marker = f"approved at gate {gate} (JSON):\n"
    start = text.index(marker) + len(marker)
    found, _ = json.JSONDecoder().raw_decode(text[start:])
    return found  # type: ignore[no-any-return]


def write_decisions(path: Path, run_id: str, decisions: dict[str, list[dict[str, str]]]) -> Path:
    gates = {name: {"decisions": items} for name, items in decisions.items()}
    path.write_text(json.dumps({"run": run_id, "gates": gates}), encoding="utf-8")
    return path


def approve_all(pending: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Decisions approving every record of every waiting gate."""
    return {
        name: [{"record": item["record"], "action": "approve"} for item in gate["decisions"]]
        for name, gate in pending["gates"].items()
    }


def steps_before(step_key: str) -> Iterator[str]:
    """Every step `step_key` depends on, directly or not."""
    for dep in team.PIPELINE[step_key].depends_on:
        yield dep
        yield from steps_before(dep)


def gates_before(step_key: str) -> set[str]:
    """Gates that must release before `step_key` can run: those that trigger it or a step
    before it, and those that review a step before it (a reviewed step's records reach
    the steps after it only through its gates)."""
    before = set(steps_before(step_key))
    return {
        name
        for name, spec in team.GATES.items()
        if spec.triggers_step in before | {step_key} or spec.after_step in before
    }
