"""How the runner (runner.py) drives the team's graph: in this process on a LangGraph
checkpointer, or served by an Agent Server through langgraph-sdk's RemoteGraph (`--url`).

Either way the runner is a client of the same graph and keeps no data of its own: a run is
a thread, its working time the state's `work` spans (nodes.py bounds it by timeout.runMs),
its team the checkpoints' metadata (ENVELOPE_TEAM_KEY), the threads a sweep looks at those
of the checkpointer (BaseCheckpointSaver.alist) or of the server (threads.search). A person's
workspace commands with `--url` use the server's store (ServerStore), and `delete` its
threads (ServerThreads).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shlex
import sys
import uuid
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from dotenv import load_dotenv
from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphRecursionError, NodeTimeoutError
from langgraph.pregel.remote import RemoteGraph
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.types import Command, StateSnapshot

from .. import redaction
from ..checks import resume_options
from ..inputs import (
    InputError,
    add_input_flags,
    collect_inputs,
    env_file_problems,
    missing_env,
    report_problems,
)
from ..team_package import TeamPackage
from . import llms, nodes, runtime
from .runner import (
    CHECKPOINTS,
    DATABASE_ENV,
    STATE_DIR,
    TRACE_ENV,
    add_location,
    command_name,
)

if TYPE_CHECKING:
    from .tracing import TraceHandler

__all__ = [
    "EARLIER_STATE_DIR",
    "ENVELOPE_TEAM_KEY",
    "Runner",
    "ServerStore",
    "ServerThreads",
    "location",
    "move_earlier_runs",
    "new_thread_id",
    "open_graph",
    "resume_parser",
    "resume_run",
    "run_context",
    "run_parser",
    "start_run",
    "thread_config",
    "unreachable",
    "waiting_threads",
    "workspace_command",
]

EARLIER_STATE_DIR = Path(".envelope")
"""Where the runner of an earlier export kept its runs: moved to STATE_DIR on first use."""
ENVELOPE_TEAM_KEY = "envelope_team"
"""Each run's metadata: the team's slug, so that a database several teams share is swept
team by team."""


def _common(package: TeamPackage, parser: argparse.ArgumentParser) -> None:
    add_location(parser)
    if package.team.GATES:
        parser.add_argument(
            "--interactive",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="review gates at the terminal (default: when stdin is a terminal)",
        )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="[AGENT=]PROVIDER:MODEL",
        help="a model for this run only (its context.Context): of the agent with key AGENT, "
        "or, without AGENT=, of every agent not given one; repeatable (default: MODEL_<AGENT>, "
        "MODEL_OVERRIDE, the definition's model)",
    )
    parser.add_argument("--verbose", action="store_true", help="print each node as it finishes")
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help=f"append the run's conversations to FILE as OpenWOP events (default: ${TRACE_ENV}; "
        "in process only)",
    )


def run_parser(package: TeamPackage) -> argparse.ArgumentParser:
    """`<team> [run]`'s options: --inputs, one flag per input, and the common ones."""
    team = package.team
    command = command_name(package)
    parser = argparse.ArgumentParser(
        prog=command,
        description=f"Run the {team.NAME} team.",
        epilog=f"A run that stopped{' or waits at a review gate (exit 3)' if team.GATES else ''} "
        f"goes on with: {command} resume THREAD_ID (see --help there)."
        + (
            f" {command} sweep applies the gates' timeouts (run it from cron)."
            if team.GATES
            else ""
        )
        + _workspace_help(package),
    )
    add_input_flags(parser, team.INPUTS)  # flags override --inputs
    _common(package, parser)
    return parser


def _workspace_help(package: TeamPackage) -> str:
    """The workspace commands, for a workspace team's --help ("" for another team)."""
    documents = getattr(package.team, "WORKSPACE", {})
    if not documents:
        return ""
    from ..workspace import help_lines

    return "".join(f" {line}" for line in help_lines(documents, command_name(package)))


def resume_parser(package: TeamPackage) -> argparse.ArgumentParser:
    """`<team> resume`'s options."""
    gated = bool(package.team.GATES)
    parser = argparse.ArgumentParser(
        prog=f"{command_name(package)} resume",
        description=f"Continue a run that stopped{' or waits at a review gate' if gated else ''}.",
    )
    parser.add_argument("thread_id")
    if gated:
        parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
    _common(package, parser)
    return parser


def _missing_env(package: TeamPackage, env_file: str | None, chosen: Any) -> list[str]:
    load_dotenv(env_file or ".env", override=False)
    # requiredSecrets, requiredVariables, provider keys (of the models this run uses), the
    # connection packs' credentials: all missing ones at once
    team = package.team
    packs = getattr(team, "CONNECTION_SECRETS", ())
    return missing_env(
        [*team.SECRETS, *team.VARIABLES, *packs, *llms.required_env(package, chosen)],
        os.environ,
    )


def run_context(package: TeamPackage, choices: Sequence[str], problems: list[str]) -> Any:
    """The run's context (the team's context.Context) from its `--model` options (None: no
    choice); what is wrong with them goes to problems, as the graph would refuse them."""
    context = package.module("context")
    fields: dict[str, str] = context.AGENT_FIELDS
    values: dict[str, str] = {}
    found: list[str] = []
    for choice in choices:
        agent_key, named, model = choice.partition("=")
        if named and agent_key not in fields:
            problems.append(f"--model {choice}: no agent {agent_key!r} ({', '.join(fields)})")
            continue
        source, model = (f"--model {agent_key}", model) if named else ("--model", choice)
        problem = llms.model_problem(source, model) if model.strip() else None
        found += [problem] if problem else []
        values[fields[agent_key] if named else context.ALL_AGENTS_FIELD] = model
    problems += found
    return context.Context(**values) if values and not found else None


def _review(package: TeamPackage) -> Any:
    """review.py, the gate commands: imported by teams with review gates only."""
    if not package.team.GATES:
        return None
    from . import review

    return review


def _tracer(package: TeamPackage, path: str | None, thread_id: str) -> TraceHandler | None:
    """The run's trace handler (tracing.py), when the run asks for a trace (`--trace`, or
    TRACE_ENV); tracing.py and trace.py are imported only then (or again once imported, so
    that an earlier traced run's gate decisions stop going to its file)."""
    traced = path or os.environ.get(TRACE_ENV)
    if not traced and f"{__package__}.tracing" not in sys.modules:
        return None
    from . import tracing

    return tracing.handler(package, path, thread_id)


def move_earlier_runs() -> None:
    """Moves the checkpoints an earlier export's runner left in .envelope/ to STATE_DIR, so
    its threads can still be resumed, swept and deleted, and none is committed with the
    record. The database moves last: an interrupted move is finished by the next one.
    Decisions files stay where they are, since a `resume --decisions` names them."""
    old = EARLIER_STATE_DIR / CHECKPOINTS
    if not old.is_file() or (STATE_DIR / CHECKPOINTS).exists():
        return
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    for name in (f"{CHECKPOINTS}-shm", f"{CHECKPOINTS}-wal", CHECKPOINTS):
        if (EARLIER_STATE_DIR / name).is_file():
            (EARLIER_STATE_DIR / name).replace(STATE_DIR / name)
    print(
        f"Moved the runs kept in {old} to {STATE_DIR / CHECKPOINTS} "
        f"({EARLIER_STATE_DIR}/ holds the export's record, for version control)",
        file=sys.stderr,
    )


def location(args: argparse.Namespace) -> str:
    """Where this command's runs are kept, as a message names it."""
    if args.url:
        return args.url
    if os.environ.get(DATABASE_ENV):
        return f"PostgreSQL, ${DATABASE_ENV}"
    return str(args.state_dir / CHECKPOINTS)


@asynccontextmanager
async def open_graph(package: TeamPackage, args: argparse.Namespace) -> AsyncIterator[Any]:
    """The team's graph where args say the runs are (`location`): served (RemoteGraph of the
    graph langgraph.json names after the package), or built here on PostgreSQL's checkpointer
    ($DATABASE_URL) or SQLite's. A workspace team's graph gets the documents' store."""
    load_dotenv(args.env_file or ".env", override=False)
    args.state_dir.mkdir(parents=True, exist_ok=True)  # decisions files, SQLite
    if args.url:
        yield RemoteGraph(command_name(package), url=args.url)
        return
    build = package.module("graph").build_graph
    store: dict[str, Any] = {}
    if "WORKSPACE" in vars(package.team):
        from .workspace_store import open_store

        store["store"] = open_store()
    database = os.environ.get(DATABASE_ENV)
    if database:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

        async with AsyncPostgresSaver.from_conn_string(database) as saver:
            await saver.setup()
            yield build(checkpointer=saver, **store)
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    if args.state_dir == STATE_DIR:
        move_earlier_runs()
    async with AsyncSqliteSaver.from_conn_string(str(args.state_dir / CHECKPOINTS)) as saver:
        yield build(checkpointer=saver, **store)


async def waiting_threads(package: TeamPackage, graph: Any) -> list[str]:
    """The team's threads that may wait for review: the server's interrupted threads of the
    graph, or those of the checkpointer whose runs are the team's. Listed whole before any is
    read (a saver's list holds its connection until it ends)."""
    found: list[str] = []
    if isinstance(graph, RemoteGraph):
        assert graph.client is not None
        page = 100
        # "error": a resume value a gate refused by failing the run (pipeline._decisions);
        # its gates still wait.
        for status in ("interrupted", "error"):
            offset = len(found)
            while True:
                threads = await graph.client.threads.search(
                    metadata={"graph_id": graph.assistant_id},
                    status=status,
                    limit=page,
                    offset=len(found) - offset,
                )
                found += [thread["thread_id"] for thread in threads]
                if len(threads) < page:
                    break
        return found
    team = {ENVELOPE_TEAM_KEY: package.team.SLUG}
    async for item in graph.checkpointer.alist(None, filter=team):
        thread_id = item.config["configurable"]["thread_id"]
        if thread_id not in found:
            found.append(thread_id)
    return found


def new_thread_id(graph: Any) -> str:
    if isinstance(graph, RemoteGraph):
        return str(uuid.uuid4())  # the Agent Server's thread ids are UUIDs
    return runtime.utc_now().strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(3)


def thread_config(package: TeamPackage, thread_id: str) -> RunnableConfig:
    return {
        "configurable": {"thread_id": thread_id},
        "metadata": {ENVELOPE_TEAM_KEY: package.team.SLUG},
        "recursion_limit": package.team.RECURSION_LIMIT,
    }


class Unreachable(Exception):
    """The Agent Server of `--url` did not answer: no thread there was read or written."""


def unreachable(url: str, error: Exception) -> int:
    """Say that the server is down (or the URL wrong), not that a thread is missing."""
    cause = error.__cause__ if isinstance(error, Unreachable) and error.__cause__ else error
    print(
        f"cannot reach the Agent Server at {url} ({type(cause).__name__}: {cause})",
        file=sys.stderr,
    )
    return runtime.EXIT_CONFIG


async def _state(graph: Any, config: RunnableConfig) -> StateSnapshot | None:
    """The thread's state; None for one the server does not know. Unreachable when the
    server does not answer at all."""
    try:
        return await graph.aget_state(config)
    except httpx.TransportError as error:  # no answer: connection refused, DNS, timeouts
        if isinstance(graph, RemoteGraph):
            raise Unreachable(str(error)) from error
        raise
    except Exception:  # noqa: BLE001 - the SDK's 404 (httpx.HTTPStatusError)
        if isinstance(graph, RemoteGraph):
            return None
        raise


class Runner:
    """Drives one thread of the team `package`'s graph (its graph.py): runs it, reports the
    outcome (review.GateRunner: and reviews at its gates)."""

    def __init__(
        self, package: TeamPackage, graph: Any, args: argparse.Namespace, chosen: Any = None
    ) -> None:
        self.package = package
        self.graph = graph
        self.chosen = chosen
        """The run's context (`--model`): LangGraph gives it to every node of this run."""
        self.args = args
        # What a later `resume` needs to find this run (its state, its .env, its server) and
        # to go on with its models: the context is not checkpointed, each call gives it.
        self._options = resume_options(str(args.state_dir), str(STATE_DIR), args.env_file)
        self._options += ["--url", args.url] if args.url else []
        for choice in args.model:
            self._options += ["--model", choice]

    async def drive(self, thread_id: str, payload: Any, before: StateSnapshot | None = None) -> int:
        """Advance the thread until it ends, halts or waits for a review nobody gives now.
        `before`: its state as the caller read it (None: a thread with no work yet)."""
        try:
            return await self._drive(thread_id, payload, before)
        except httpx.TransportError as error:  # no answer (refused, reset) while it ran
            if not isinstance(self.graph, RemoteGraph):
                raise
            return self._lost(thread_id, error)

    async def _drive(self, thread_id: str, payload: Any, snapshot: StateSnapshot | None) -> int:
        config = thread_config(self.package, thread_id)
        while True:
            if isinstance(payload, Command) and snapshot is not None and snapshot.interrupts:
                self._late(snapshot, payload)
            failed = await self._advance(thread_id, payload, snapshot)
            if failed is not None:
                return failed
            snapshot = await self.graph.aget_state(config)
            halted = snapshot.values.get("halted")
            if halted and halted.startswith(nodes.DEADLINE_PREFIX):
                print(halted, file=sys.stderr)  # the graph's own deadline (timeout.runMs)
                return runtime.EXIT_TIMEOUT
            if halted:
                print(f"Run {thread_id} halted: {halted}", file=sys.stderr)
                return runtime.EXIT_HALTED
            if snapshot.interrupts:
                waited = self.waiting(thread_id, snapshot)
                if isinstance(waited, int):
                    return waited
                payload = waited
                continue
            result = snapshot.values.get("result")
            if result is None:
                print(f"Run {thread_id} failed: it ended without a result", file=sys.stderr)
                return runtime.EXIT_FAILED
            print(json.dumps(result, indent=2, ensure_ascii=False))
            return runtime.EXIT_OK

    async def _advance(
        self, thread_id: str, payload: Any, before: StateSnapshot | None
    ) -> int | None:
        """Run the graph until it stops; an exit code when it failed, else None. The work
        the state records so far (`before`) bounds this part (the nodes check it too)."""
        team = self.package.team
        config = thread_config(self.package, thread_id)
        spent = runtime.worked_ms(before.values.get("work") if before else None)
        if spent >= team.RUN_TIMEOUT_MS:
            print(nodes.deadline_message(self.package), file=sys.stderr)
            return runtime.EXIT_TIMEOUT
        deadline = asyncio.timeout((team.RUN_TIMEOUT_MS - spent) / 1000)
        tracer = None if self.args.url else _tracer(self.package, self.args.trace, thread_id)
        if self.args.url:
            from .. import run_context

            if run_context.TRIGGERED:  # `watch --url`: the server's nodes read them there
                config["configurable"][run_context.CONFIG_KEY] = list(run_context.TRIGGERED)
        if tracer is not None:
            config["callbacks"] = [tracer]
        try:
            async with deadline:
                async for update in self.graph.astream(
                    payload, config, context=self.chosen, stream_mode="updates"
                ):
                    if self.args.verbose:
                        _print_update(thread_id, update)
        except TimeoutError:
            if not deadline.expired():
                raise
            print(nodes.deadline_message(self.package), file=sys.stderr)
            return runtime.EXIT_TIMEOUT
        except NodeTimeoutError as error:
            why = (
                f"{error} A step is bounded by {llms.MODEL_ATTEMPTS} times its agent's "
                "timeout (modelConfig.timeoutMs, else timeout.agentMs; each model request's "
                "own limit) and the retries' waits."
            )
            return self._failed(thread_id, why)
        except GraphRecursionError as error:
            why = f"more than {team.RECURSION_LIMIT} steps (team.RECURSION_LIMIT): {error}"
            return self._failed(thread_id, why)
        except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
            if isinstance(error, httpx.TransportError) and isinstance(self.graph, RemoteGraph):
                raise  # the server stopped answering, the run did not fail: drive says so
            return self._failed(thread_id, f"{type(error).__name__}: {error}")
        finally:
            if tracer is not None:
                tracer.writer.flush()  # however the run stopped (tracing.py flushes as it goes)
        return None

    def waiting(self, thread_id: str, snapshot: StateSnapshot) -> Command[Any] | int:
        """The run paused (interrupt()): how it goes on now, or its exit code. Only a
        gate pauses a run (review.GateRunner)."""
        return self._failed(thread_id, f"paused at {snapshot.next}, which is not a gate")

    def _late(self, snapshot: StateSnapshot, payload: Command[Any]) -> None:
        """Name the decisions this resume gives gates past their deadline: the gate applies
        its timeout instead (pipeline.py), and says so in its message too. A decisions file
        holding them is kept: a template replaces only a file whose decisions were read."""
        from ..gate_rules import timed_out
        from .pipeline import gate_state

        values = payload.resume if isinstance(payload.resume, dict) else {}
        now = runtime.utc_now()
        late: dict[str, str] = {}  # gate -> what is said of it
        for interrupt in snapshot.interrupts:
            name = interrupt.value["gate"]
            spec, gate = self.package.team.GATES[name], gate_state(snapshot.values, name)
            given = values.get(interrupt.id)
            if isinstance(given, dict) and given.get("decisions") and timed_out(spec, gate, now):
                from ..gate_timeouts import late_notice  # a gate past its deadline only

                late[name] = late_notice(spec, gate)
        path = getattr(self.args, "decisions", None)
        if late and path:  # not read after all: a pause keeps it from a template (review.py)
            # Named once, after the last gate, with every gate whose decisions it keeps.
            last = list(late)[-1]
            whose = f" (gates {', '.join(late)})" if len(late) > 1 else ""
            late[last] += f"; {path} keeps them{whose}"
            self.args.decisions = None
        for notice in late.values():
            print(notice, file=sys.stderr)

    def _lost(self, thread_id: str, error: Exception) -> int:
        """The Agent Server stopped answering mid-run: the run is the server's, and may go on
        there (a dropped stream does not cancel it), so it is not reported as failed."""
        unreachable(self.args.url, error)
        command = shlex.join([command_name(self.package), "resume", thread_id, *self._options])
        print(
            f"Thread {thread_id} is kept on the server, and its run may still be going on "
            f"there. Once the server answers, look at it again with: {command}",
            file=sys.stderr,
        )
        return runtime.EXIT_CONFIG

    def _failed(self, thread_id: str, why: str) -> int:
        """Say why the run stopped and how to continue it: every finished step (and every
        decision made) is in the checkpoint, and `resume` goes on from there."""
        command = shlex.join([command_name(self.package), "resume", thread_id, *self._options])
        # An error's text can echo what a node was given: a prompt with a secret filled in.
        why = redaction.redact(why, redaction.secret_values(self.package.team.SECRETS))
        print(
            f"Run failed: {why}\nFinished steps and decisions are kept; "
            f"continue from the last finished step with: {command}",
            file=sys.stderr,
        )
        return runtime.EXIT_FAILED


def _print_update(thread_id: str, update: dict[str, Any]) -> None:
    """`--verbose`: the nodes that just finished. LangGraph marks with __metadata__.cached the
    tasks a resume replays from the checkpoint (they ran before); its other __ keys are none."""
    if (update.get("__metadata__") or {}).get("cached"):
        return
    for node in update:
        if node == "__interrupt__":
            print(f"[{thread_id}] waiting for review", file=sys.stderr)
        elif not node.startswith("__"):
            print(f"[{thread_id}] {node}", file=sys.stderr)


def _runner(package: TeamPackage, graph: Any, args: argparse.Namespace, chosen: Any) -> Runner:
    review = _review(package)
    return (review.GateRunner if review else Runner)(package, graph, args, chosen)


def _checked(
    package: TeamPackage, args: argparse.Namespace, problems: list[str]
) -> tuple[list[str], Any]:
    """The missing variables and the run's context, every problem of the options found."""
    chosen = run_context(package, args.model, problems)
    missing = [] if args.url else _missing_env(package, args.env_file, chosen)
    if args.url and (args.trace or os.environ.get(TRACE_ENV)):
        problems.append("--trace: a served graph's runs are traced by its server, not here")
    problems += env_file_problems(args.env_file)
    problems += llms.factory_problems(package.models.MODELS)
    return missing, chosen


def _warn_short_secrets(package: TeamPackage) -> None:
    warning = redaction.short_secrets(package.team.SECRETS, os.environ)
    if warning is not None:
        print(warning, file=sys.stderr)


async def start_run(package: TeamPackage, argv: Sequence[str]) -> int:
    """`<team> [run]`: a new run of the team's graph, to its end, a halt or a gate."""
    args = run_parser(package).parse_args(argv)
    problems: list[str] = []
    missing, chosen = _checked(package, args, problems)
    inputs: dict[str, Any] = {}
    try:
        team = package.team
        inputs = collect_inputs(args, team.TeamInputs, team.INPUT_CHANNELS)
    except InputError as error:
        problems += error.problems
    if report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    _warn_short_secrets(package)
    try:
        async with open_graph(package, args) as graph:
            thread_id = new_thread_id(graph)
            # The run's first read (its work so far, none) also tells an Agent Server that
            # does not answer from one that does not know the thread, before it is announced.
            before = await _state(graph, thread_config(package, thread_id))
            print(f"Thread {thread_id} ({location(args)})", file=sys.stderr)
            runner = _runner(package, graph, args, chosen)
            return await runner.drive(thread_id, nodes.graph_input(package, inputs), before)
    except Unreachable as error:
        return unreachable(args.url, error)


async def resume_run(package: TeamPackage, argv: Sequence[str], *, sweep: bool = False) -> int:
    """`<team> resume THREAD_ID`: a run that stopped or waits at a gate, continued (`sweep`:
    by review.sweep_runs, for a gate's timeout, so without decisions)."""
    args = resume_parser(package).parse_args(argv)
    try:
        return await _resume(package, args, sweep)
    except Unreachable as error:
        return unreachable(args.url, error)


async def _resume(package: TeamPackage, args: argparse.Namespace, sweep: bool) -> int:
    review = _review(package)
    problems: list[str] = []
    missing, chosen = _checked(package, args, problems)
    decisions = review.decisions_file(args, problems) if review else {}
    if missing or problems:
        report_problems(missing, problems, args.env_file or ".env")
        return runtime.EXIT_CONFIG
    _warn_short_secrets(package)
    async with open_graph(package, args) as graph:
        runner = _runner(package, graph, args, chosen)
        thread_id = args.thread_id
        snapshot = await _state(graph, thread_config(package, thread_id))
        if isinstance(graph, RemoteGraph) and snapshot is not None and snapshot.values:
            await _on_thread_assistant(graph, thread_id)
        if snapshot is None or not snapshot.values:
            problems.append(f"thread {thread_id} not found in {location(args)}")
        elif not snapshot.interrupts and not snapshot.next:
            problems.append(f"thread {thread_id} has finished: it is not waiting for review")
        elif not snapshot.interrupts:
            # It stopped on an error: continue from the last finished step.
            if decisions:
                problems.append(
                    f"thread {thread_id} is not waiting for review: it stopped on an error; "
                    "resume it without --decisions"
                )
            if report_problems([], problems):
                return runtime.EXIT_CONFIG
            return await runner.drive(thread_id, None, snapshot)
        elif review:
            payload = review.resume_payload(
                runner, thread_id, snapshot, decisions, problems, sweeping=sweep
            )
            if not report_problems([], problems):
                return await runner.drive(thread_id, payload, snapshot)
            return runtime.EXIT_CONFIG
        report_problems([], problems)
        return runtime.EXIT_CONFIG


async def _on_thread_assistant(graph: RemoteGraph, thread_id: str) -> None:
    """A served thread goes on with the assistant its runs used (the server's thread
    metadata names it), so with its context (its models), not the graph's default
    assistant; the graph's id stays when the thread names none."""
    assert graph.client is not None
    try:
        thread = await graph.client.threads.get(thread_id)
    except httpx.TransportError as error:
        raise Unreachable(str(error)) from error
    assistant = (thread.get("metadata") or {}).get("assistant_id")
    if assistant:
        graph.assistant_id = str(assistant)


class ServerStore(BaseStore):
    """The store of an Agent Server (`langgraph dev`, a deployment), through langgraph-sdk's
    store API: the rows a served team's agents write, for a person's `workspace --url`."""

    def __init__(self, url: str) -> None:
        from langgraph_sdk import get_sync_client

        self.client = get_sync_client(url=url)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _one(self, op: Op) -> Result:
        from langgraph_sdk.errors import NotFoundError

        store = self.client.store
        if isinstance(op, GetOp):
            try:
                found = store.get_item(op.namespace, op.key)
            except NotFoundError:
                return None
            return None if found is None else Item(**_item_fields(dict(found)))
        if isinstance(op, PutOp):
            if op.value is None:
                store.delete_item(op.namespace, op.key)
            else:
                index = False if op.index is False else None
                store.put_item(op.namespace, op.key, op.value, index=index)
            return None
        if isinstance(op, SearchOp):
            items = store.search_items(
                op.namespace_prefix,
                filter=op.filter,
                limit=op.limit,
                offset=op.offset,
                query=op.query,
            )["items"]
            return [SearchItem(**_item_fields(dict(i)), score=dict(i).get("score")) for i in items]
        if isinstance(op, ListNamespacesOp):
            raise NotImplementedError("the workspace lists no namespaces")
        raise TypeError(f"unknown store operation {op!r}")


class ServerThreads:
    """workspace.RunRecords on an Agent Server, for `workspace --url delete`: its threads
    (every run on it is one), searched as the runner's checkpoints are (workspace_store.
    CheckpointRecords, every namespace): a thread's values, metadata and interrupts, and every
    checkpoint of its history and its subgraphs' (each step's state, its tasks' results,
    interrupts and errors), through langgraph-sdk; deleted with threads.delete, which deletes
    the thread's runs and checkpoints."""

    PAGE = 100

    def __init__(self, url: str, client: Any) -> None:
        self.client = client
        self.where = f"threads of the Agent Server at {url}"

    def _threads(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        while True:  # listed whole first: a purge must not shift the pages
            page = self.client.threads.search(limit=self.PAGE, offset=len(found))
            found += [dict(thread) for thread in page]
            if len(page) < self.PAGE:
                return found

    def _history(self, thread_id: str) -> Iterable[Any]:
        """Every checkpoint of the thread: the graph's, and its subgraphs' (the agents' own,
        where their messages and tool answers are), each namespace named by the tasks of the
        checkpoints that ran it, down to the agents an agent asks."""
        namespaces, seen = [""], {""}
        while namespaces:
            where = {"checkpoint_ns": namespaces.pop()}
            before: Any = None
            while True:
                page = self.client.threads.get_history(
                    thread_id, limit=self.PAGE, before=before, checkpoint=where
                )
                for state in page:
                    yield state
                    for task in state.get("tasks") or ():
                        namespace = (task.get("checkpoint") or {}).get("checkpoint_ns")
                        if namespace and namespace not in seen:
                            seen.add(namespace)
                            namespaces.append(namespace)
                if len(page) < self.PAGE:
                    break
                before = page[-1]["checkpoint"]

    def holding(self, needles: Sequence[str]) -> list[str]:
        from .workspace_store import holds

        found: set[str] = set()  # a thread made while the pages were read may be listed twice
        for thread in self._threads():
            thread_id = str(thread["thread_id"])
            if thread_id in found:
                continue
            if holds(thread, needles) or any(holds(s, needles) for s in self._history(thread_id)):
                found.add(thread_id)
        return sorted(found)

    def purge(self, run_ids: Sequence[str]) -> None:
        for thread_id in run_ids:
            self.client.threads.delete(thread_id)


def _item_fields(found: dict[str, Any]) -> dict[str, Any]:
    """An Item's fields from the server's JSON (its times as ISO 8601 text)."""
    return {
        "namespace": tuple(found["namespace"]),
        "key": found["key"],
        "value": found["value"],
        "created_at": found["created_at"],
        "updated_at": found["updated_at"],
    }


WORKSPACE_URL_HELP = (
    "the Agent Server serving the team (`langgraph dev`, a deployment): the documents are in "
    "its store, and `delete` looks through its threads (the runs there) instead of the "
    "checkpoints here"
)
WATCH_URL_HELP = (
    "the Agent Server serving the team: the triggers are read from its store, and each run "
    "goes to it (run --url)"
)


def _url_option(arguments: list[str]) -> tuple[str | None, list[str]]:
    """`--url URL` (or `--url=URL`) among a workspace command's own options (those before a
    `--`), and the arguments without it."""
    end = arguments.index("--") if "--" in arguments else len(arguments)
    own, rest = list(arguments[:end]), arguments[end:]
    for i, arg in enumerate(own):
        if arg == "--url" and i + 1 < len(own):
            return own[i + 1], own[:i] + own[i + 2 :] + rest
        if arg.startswith("--url="):
            return arg.removeprefix("--url="), own[:i] + own[i + 1 :] + rest
    return None, arguments


def workspace_command(package: TeamPackage, arguments: list[str]) -> int:
    """`workspace ...` (people's commands on the documents) and `watch` (the triggers):
    workspace teams only (workspace.py, workspace_store.py). With `--url` the documents are
    those in the store of that Agent Server (the served team's), and `watch` runs go there."""
    from .. import workspace
    from .workspace_store import CheckpointRecords, open_workspace

    command = command_name(package)
    load_dotenv(".env", override=False)  # ENVELOPE_WORKSPACE_DB may be set there
    url, arguments = _url_option(arguments)
    server = ServerStore(url) if url else None
    documents = open_workspace(package, server)
    if arguments[0] == "workspace":
        runs: workspace.RunRecords
        if url and server:  # the runs are the server's threads
            runs = ServerThreads(url, server.client)
        else:
            move_earlier_runs()  # so `delete` finds the threads an earlier runner kept
            runs = CheckpointRecords(STATE_DIR / CHECKPOINTS)
        return workspace.workspace_command(
            arguments[1:], documents, command, runs, url_help=WORKSPACE_URL_HELP
        )
    if not any(spec.triggers for spec in package.team.WORKSPACE.values()):
        print("No workspace document declares triggers: watch has nothing to do.", file=sys.stderr)
        return runtime.EXIT_CONFIG
    served = ["--url", url] if url else []
    return workspace.watch_command(
        arguments[1:],
        documents,
        lambda run_args: asyncio.run(start_run(package, [*run_args, *served])),
        command,
        url_help=WATCH_URL_HELP,
    )
