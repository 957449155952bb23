"""Test data and drivers derived from the team's own modules, never written per team."""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from common_helpers import list_length as list_length
from common_helpers import sample_input as sample_input
from common_helpers import valid_inputs as valid_inputs
from fakes import Call, FakeBoard
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, Interrupt, StateSnapshot
from project import (
    PACKAGE,
    TEAM,
    context,
    graph,
    hierarchy,
    llms,
    nodes,
    pipeline,
    policy,
    policy_rules,
    state,
    team,
)

from envelope_runtime.inputs import checked

Graph = CompiledStateGraph[Any, Any, Any, Any]

# --- the definition ------------------------------------------------------------------


def source_root() -> str:
    """The directory holding the package: a new process imports this very copy of it, even
    while other projects are installed into or removed from the same environment."""
    module = importlib.import_module(PACKAGE)
    return str(Path(module.__file__ or ".").resolve().parent.parent)


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


def definition_prompts() -> dict[str, str]:
    return {agent["key"]: agent.get("prompt", "") for agent in definition()["agents"]}


# --- environment and inputs ------------------------------------------------------------


def test_env() -> dict[str, str]:
    """A value for every required environment name (secrets, variables, provider keys)."""
    env: dict[str, str] = {}
    # and the connection packs' credentials (team.CONNECTION_SECRETS, --connections)
    for name in [*team.SECRETS, *getattr(team, "CONNECTION_SECRETS", ())]:
        env[name] = f"secret-{name.lower().replace('_', '-')}-7f3a"
    for name in team.VARIABLES:
        env[name] = f"test-{name.lower().replace('_', '-')}"
    for requirement in llms.required_env(TEAM):
        name = requirement if isinstance(requirement, str) else requirement[0]
        env[name] = f"unused-{name.lower()}"
    return env


def env_labels() -> list[str]:
    """How the runner names every required environment variable when it is missing."""
    labels: list[str] = []
    packs = getattr(team, "CONNECTION_SECRETS", ())
    for requirement in [*team.SECRETS, *team.VARIABLES, *packs, *llms.required_env(TEAM)]:
        label = requirement if isinstance(requirement, str) else " or ".join(requirement)
        if label not in labels:
            labels.append(label)
    return labels


def resolved(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs a run works with: defaults applied."""
    return checked(team.TeamInputs, inputs, (), team.INPUT_CHANNELS)


def as_flags(inputs: Mapping[str, Any]) -> list[str]:
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


def interactive_flag(interactive: bool) -> list[str]:
    """Gates reviewed at the terminal or not: a runner flag of teams with gates only."""
    if not team.GATES:
        return []
    return ["--interactive" if interactive else "--no-interactive"]


def run_argv(inputs: Mapping[str, Any] | None = None, interactive: bool = False) -> list[str]:
    """Runner arguments: every input as --inputs JSON, gates reviewed at the terminal or not."""
    argv = ["--inputs", json.dumps(valid_inputs() if inputs is None else dict(inputs))]
    return [*argv, *interactive_flag(interactive)]


def approve_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Terminal review answers: approve every record of every gate."""
    answers = iter(["approve"] * 500)

    def read(*args: object) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", read)


# --- driving the graph in-process -----------------------------------------------------------


def build(board: FakeBoard, checkpointer: BaseCheckpointSaver[Any] | None = None) -> Graph:
    """The generated graph with the board's fakes and an in-memory checkpointer."""
    saver = checkpointer if checkpointer is not None else InMemorySaver()
    return graph.build_graph(checkpointer=saver, model_for=board.model_for)


@contextmanager
def clock_ahead_on_arrival(board: FakeBoard, seconds: float) -> Iterator[None]:
    """The running event loop's clock reads `seconds` ahead from when a call of `board` waits
    for its hold (FakeBoard.arrived): every asyncio deadline due within them (asyncio.timeout,
    a node's timeout) passes while that call is under way, however long the machine took
    to get there. The loop's own clock again on leaving."""
    loop = asyncio.get_running_loop()
    real = loop.time

    def ahead() -> float:
        return real() + (seconds if board.arrived.is_set() else 0.0)

    loop.time = ahead  # type: ignore[method-assign]
    try:
        yield
    finally:
        del loop.time


def config(thread_id: str = "test") -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": team.RECURSION_LIMIT}


def start(inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return nodes.graph_input(TEAM, valid_inputs() if inputs is None else inputs)


def decide(
    interrupts: Sequence[Interrupt], decide_gate: Mapping[str, Sequence[Mapping[str, str]]]
) -> Command[Any]:
    """A resume for every pending interrupt: the given decisions per gate, else none."""
    return Command(
        resume={i.id: {"decisions": list(decide_gate.get(i.value["gate"], []))} for i in interrupts}
    )


def approvals(request: Mapping[str, Any], verb: str = "approve") -> list[dict[str, str]]:
    """One decision per record of a gate's review request."""
    return [{"record": record["id"], "action": verb} for record in request["records"]]


def approve_all(interrupts: Sequence[Interrupt]) -> Command[Any]:
    return decide(interrupts, {i.value["gate"]: approvals(i.value) for i in interrupts})


def decide_one(
    interrupts: Sequence[Interrupt], name: str, decisions: Sequence[Mapping[str, str]]
) -> Command[Any]:
    """A resume giving gate `name` these decisions and approving every record of each other
    gate that waits beside it (parallel branches): what happens next is gate `name`'s doing."""
    chosen: dict[str, Sequence[Mapping[str, str]]] = {
        i.value["gate"]: approvals(i.value) for i in interrupts if i.value["gate"] != name
    }
    chosen[name] = decisions
    return decide(interrupts, chosen)


async def run_to_end(
    g: Graph,
    inputs: Mapping[str, Any] | None = None,
    chosen: Mapping[str, Any] | None = None,
    thread_id: str = "test",
) -> StateSnapshot:
    """A whole run: every record of every gate approved as soon as it waits. `chosen`: the
    context of the run and of every resume (each is a run of its own)."""
    payload: Any = start(inputs)
    for _ in range(len(team.GATES) * 4 + 1):
        await g.ainvoke(payload, config(thread_id), context=chosen)
        snapshot = await g.aget_state(config(thread_id))
        if not snapshot.interrupts:
            return snapshot
        payload = approve_all(snapshot.interrupts)
    raise AssertionError("the run kept waiting for review")


async def run_until_gate(g: Graph, name: str) -> StateSnapshot:
    """Start a run; approve earlier gates until gate `name` waits. The snapshot then."""
    await g.ainvoke(start(), config())
    for _ in range(len(team.GATES) + 1):
        snapshot = await g.aget_state(config())
        pending = {i.value["gate"] for i in snapshot.interrupts}
        if name in pending:
            return snapshot
        assert pending, f"the run ended before gate {name} waited"
        others = [i for i in snapshot.interrupts if i.value["gate"] != name]
        await g.ainvoke(approve_all(others), config())
    raise AssertionError(f"gate {name} never waited for review")


def request_of(snapshot: StateSnapshot, name: str) -> dict[str, Any]:
    """The review request (interrupt payload) of gate `name`."""
    return next(i.value for i in snapshot.interrupts if i.value["gate"] == name)


def approved_records(call: Call, gate: str) -> list[dict[str, Any]]:
    """The records a step received from a gate, parsed back from its task text."""
    text = call.human
    marker = f"approved at gate {gate} (JSON):\n"
    start_at = text.index(marker) + len(marker)
    found, _ = json.JSONDecoder().raw_decode(text[start_at:])
    return found  # type: ignore[no-any-return]


def steps_before(step_key: str) -> Iterator[str]:
    """Every step `step_key` depends on, directly or not."""
    for dep in team.PIPELINE[step_key].depends_on:
        yield dep
        yield from steps_before(dep)


# --- the contract's wiring -------------------------------------------------------------------


def escalates(name: str) -> bool:
    spec = team.GATES[name]
    return spec.on_reject == "escalate" or spec.timeout_behaviour == "escalate"


def waits_for(step_key: str) -> list[str]:
    """The nodes a step's node waits for (CONTRACT.md: pipeline graph)."""
    waits: list[str] = []
    for dep in team.PIPELINE[step_key].depends_on:
        reviewing = pipeline.gates_after(TEAM, dep)
        mine = [name for name in reviewing if team.GATES[name].triggers_step == step_key]
        if not reviewing:
            via = [pipeline.step_node(dep)]
        else:
            via = [pipeline.released_node(name) for name in mine or reviewing]
        waits += [node for node in via if node not in waits]
    for name in pipeline.gates_into(TEAM, step_key):
        if pipeline.released_node(name) not in waits:
            waits.append(pipeline.released_node(name))
    return waits or ["prepare"]


def sinks() -> list[str]:
    """Steps nothing depends on and no gate reviews: they join into finalize."""
    needed = {dep for step in team.PIPELINE.values() for dep in step.depends_on}
    return [
        pipeline.step_node(key)
        for key in team.PIPELINE
        if key not in needed and not pipeline.gates_after(TEAM, key)
    ]


def gate_destinations(name: str, with_escalation: bool) -> set[str]:
    spec = team.GATES[name]
    routes = {pipeline.gate_node(name), pipeline.released_node(name), END}
    if spec.on_reject == "rerun":
        routes.add(pipeline.step_node(spec.after_step))
    if with_escalation:
        routes.add(pipeline.escalate_node(name))
    return routes


def wire(
    model_for: llms.ModelFactory,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    escalation: bool = True,
) -> Graph:
    """The pipeline graph built straight from team.PIPELINE and team.GATES by the contract's
    rules: what graph.py must be for this team, and a graph for synthetic pipelines."""
    team_nodes = pipeline.PipelineNodes(TEAM, model_for)
    builder = StateGraph(
        state.TeamState,
        context_schema=context.Context,
        input_schema=state.TeamInputs,
        output_schema=state.TeamOutput,
    )
    builder.add_node("prepare", team_nodes.prepare, input_schema=state.TeamInputs)
    for key in team.PIPELINE:
        reviewed_by = pipeline.gates_after(TEAM, key)
        builder.add_node(
            pipeline.step_node(key),
            team_nodes.step(key),
            timeout=team_nodes.step_timeout(key),
            destinations=tuple(pipeline.gate_node(name) for name in reviewed_by),
        )
        for name in reviewed_by:
            escalation_node = escalation or escalates(name)
            builder.add_node(
                pipeline.gate_node(name),
                team_nodes.gate(name),
                destinations=tuple(gate_destinations(name, escalation_node)),
            )
            if escalation_node:
                builder.add_node(
                    pipeline.escalate_node(name),
                    team_nodes.escalate(name),
                    destinations=(pipeline.gate_node(name), END),
                )
            builder.add_node(pipeline.released_node(name), team_nodes.released(name))
    builder.add_node("finalize", team_nodes.finalize)
    builder.add_conditional_edges(START, team_nodes.new_run, ["prepare"])
    for key in team.PIPELINE:
        waits = waits_for(key)
        builder.add_edge(waits if len(waits) > 1 else waits[0], pipeline.step_node(key))
    ends = sinks()
    builder.add_edge(ends if len(ends) > 1 else ends[0], "finalize")
    builder.add_edge("finalize", END)
    return builder.compile(checkpointer=checkpointer)


def topology(compiled: Graph) -> tuple[set[str], set[tuple[str, str]], set[tuple[str, str]]]:
    """Nodes, plain edges and routed (Command) edges of a compiled graph."""
    drawn = compiled.get_graph()
    plain = {(e.source, e.target) for e in drawn.edges if not e.conditional}
    routed = {(e.source, e.target) for e in drawn.edges if e.conditional}
    return set(drawn.nodes), plain, routed


def joins(compiled: Graph) -> set[tuple[tuple[str, ...], str]]:
    """The list edges (LangGraph waits for every node of the list)."""
    return {(tuple(sorted(starts)), end) for starts, end in compiled.builder.waiting_edges}


# --- hierarchy ---------------------------------------------------------------------------------


def path_to(agent_key: str) -> list[str]:
    """The chain of managers from the entry agent down to `agent_key`."""
    chain = [agent_key]
    while team.AGENTS[chain[0]].reports_to is not None:
        chain.insert(0, team.AGENTS[chain[0]].reports_to)  # type: ignore[arg-type]
    return chain


def agent_nodes(agent_key: str) -> tuple[str, ...]:
    """The nodes from the team's graph down to the agent's own node (agents.py): "team",
    an "ask-<report>" per manager below the entry agent, the agent itself."""
    chain = path_to(agent_key)
    return (
        "team",
        *(hierarchy.report_node(TEAM, key) for key in chain[1:]),
        team.AGENTS[agent_key].name,
    )


async def checkpointed_conversations(board: FakeBoard) -> dict[tuple[str, ...], list[str]]:
    """One run to its end; the texts of the messages in each checkpoint namespace, by node
    path (`team:<task id>|ask-x:<task id>|x:<task id>` -> ("team", "ask-x", "x"))."""
    saver = InMemorySaver()
    await run_to_end(build(board, saver))
    found: dict[tuple[str, ...], list[str]] = {}
    for saved in saver.list(config()):
        namespace = saved.config["configurable"]["checkpoint_ns"]
        path = tuple(part.split(":")[0] for part in namespace.split("|")) if namespace else ()
        messages = saved.checkpoint["channel_values"].get("messages") or []
        found.setdefault(path, []).extend(str(message.content) for message in messages)
    return found


def reached_agents() -> list[str]:
    """Agents a run reaches: every agent in hierarchy mode, the step agents in a pipeline."""
    if team.MODE == "hierarchy":
        return list(team.AGENTS)
    return list(dict.fromkeys(step.agent_key for step in team.PIPELINE.values()))


# --- access policies ---------------------------------------------------------------------------


def _hosts(agent_key: str, env: Mapping[str, str]) -> list[str]:
    hosts = []
    for rule in team.POLICIES[agent_key].rules:
        # An unreadable host (say "a*b.com") would give a URL no client can send.
        host = policy_rules.example_host(policy.expand(rule.host, env)) if rule.host else None
        if host is not None:
            hosts.append(host)
    return hosts


def refused_request(agent_key: str, env: Mapping[str, str]) -> tuple[str, str] | None:
    """A request (method, url) the agent's policy refuses, preferring a rule's own reason."""
    access = team.POLICIES[agent_key]
    hosts = ["refused.envelope.invalid", *_hosts(agent_key, env)]
    candidates = [
        (method, f"https://{host}{path}")
        for host in reversed(hosts)
        for method in ("DELETE", "POST", "PATCH", "PUT", "GET")
        for path in ("/envelope/refused", "/")
    ]
    refused = [c for c in candidates if not policy_rules.evaluate(access, *c, env).allowed]
    by_rule = [c for c in refused if policy_rules.evaluate(access, *c, env).rule is not None]
    chosen = by_rule or refused
    return chosen[0] if chosen else None


def allowed_request(agent_key: str, env: Mapping[str, str]) -> tuple[str, str] | None:
    """A request (method, url) the agent's policy allows, if there is one."""
    access = team.POLICIES[agent_key]
    methods = ("GET", "POST", "PUT", "PATCH", "DELETE")
    for rule in access.rules:
        if rule.action != "allow":
            continue
        host = "allowed.envelope.invalid"
        if rule.host is not None:
            host = policy_rules.example_host(policy.expand(rule.host, env))
            if host is None:
                continue
        prefix = policy.expand(rule.path_prefix, env) if rule.path_prefix else ""
        path = prefix.rstrip("/") + "/envelope"
        for method in rule.methods or methods:
            url = f"https://{host}{path}"
            if policy_rules.evaluate(access, method, url, env).allowed:
                return method, url
    return None


def write_decisions(path: Path, decisions: Mapping[str, Sequence[Mapping[str, str]]]) -> Path:
    path.write_text(json.dumps({name: list(items) for name, items in decisions.items()}), "utf-8")
    return path


def approve_pending(summary: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Decisions approving every record the runner's pending summary lists."""
    return {
        name: [{"record": r["record"], "action": "approve"} for r in gate["records"]]
        for name, gate in summary["gates"].items()
    }
