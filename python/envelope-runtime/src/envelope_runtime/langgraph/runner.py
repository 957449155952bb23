"""Command-line runner of the team's graph (graph.py), with durable runs (main.py calls it).

    <team> [run] [--inputs JSON|@FILE] [--<input> VALUE ...]   start a run
    <team> resume THREAD_ID                                    continue one that stopped
    <team> workspace list|show|edit|import|export|archive|delete  the workspace documents
    <team> watch [--once] [--interval S] [-- RUN OPTIONS]        run on workspace triggers

Every required environment variable and every input is checked before any model call
(all problems at once, exit 2). Runs are checkpointed by LangGraph's AsyncSqliteSaver in
`<state-dir>/checkpoints.sqlite` (default `.langgraph_runs/`), one thread per run, so a run
that stopped on an error can be resumed by another process from its last finished step. A team
with review gates has the gate commands too (review.py: `resume --decisions`, `sweep`).
The result (outputs) is printed as JSON.

The whole run is bounded by timeout.runMs of work (exit 124), summed over the run and its
resumes; time waiting for a reviewer does not count. Exit codes: 0 done, 1 failed,
2 configuration/inputs/decisions, 3 waiting for review, 4 halted by a gate, 124 timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shlex
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dotenv import load_dotenv
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.errors import GraphRecursionError, NodeTimeoutError
from langgraph.types import Command, StateSnapshot

from .. import checks, redaction
from ..team_package import TeamPackage
from . import llms, nodes, runtime

if TYPE_CHECKING:
    from .tracing import TraceHandler

__all__ = [
    "CHECKPOINTS",
    "EARLIER_STATE_DIR",
    "STATE_DIR",
    "TRACE_ENV",
    "RunLog",
    "Runner",
    "command_name",
    "move_earlier_runs",
    "new_thread_id",
    "resume_parser",
    "resume_run",
    "run_context",
    "run_parser",
    "start_run",
    "team_amain",
    "team_main",
    "thread_config",
]

CHECKPOINTS = "checkpoints.sqlite"
STATE_DIR = Path(".langgraph_runs")
"""Where runs are kept by default: run data, gitignored, beside `langgraph dev`'s own
.langgraph_api/. Never .envelope/, the export's record, which belongs in version control."""
EARLIER_STATE_DIR = Path(".envelope")
"""Where the runner of an earlier export kept its runs: moved to STATE_DIR on first use."""

TRACE_ENV = "ENVELOPE_TRACE_FILE"
"""`--trace`'s default (trace.ENV): named here so that a run that asks for no trace never
imports trace.py."""


def command_name(package: TeamPackage) -> str:
    """The console script (pyproject.toml): the team package's name, always a safe shell word."""
    return package.name


# --- command line --------------------------------------------------------------


def _common(package: TeamPackage, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    parser.add_argument(
        "--state-dir", type=Path, default=STATE_DIR, help=f"checkpoints (default: {STATE_DIR})"
    )
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
        help=f"append the run's conversations to FILE as OpenWOP events (default: ${TRACE_ENV})",
    )


def run_parser(package: TeamPackage) -> argparse.ArgumentParser:
    """`<team> [run]`'s options: --inputs, one flag per input, and the common ones."""
    team = package.team
    command = command_name(package)
    parser = argparse.ArgumentParser(
        prog=command,
        description=f"Run the {team.NAME} team.",
        epilog=f"A run that stopped{' or waits at a review gate (exit 3)' if team.GATES else ''} "
        f"goes on with: {command} resume THREAD_ID (see --help there).",
    )
    # inputs: --inputs JSON and one flag per input (team.INPUTS); flags override --inputs
    checks.add_input_flags(parser, team.INPUTS)
    _common(package, parser)
    return parser


def resume_parser(package: TeamPackage) -> argparse.ArgumentParser:
    """`<team> resume`'s options."""
    gated = bool(package.team.GATES)
    waits = " or waits at a review gate" if gated else ""
    parser = argparse.ArgumentParser(
        prog=f"{command_name(package)} resume",
        description=f"Continue a run that stopped{waits}.",
    )
    parser.add_argument("thread_id")
    if gated:
        parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
    _common(package, parser)
    return parser


def _missing_env(package: TeamPackage, env_file: str | None, chosen: Any) -> list[str]:
    load_dotenv(env_file or ".env", override=False)
    # requiredSecrets, requiredVariables, provider keys (of the models this run uses): all
    # missing ones at once, and the connection packs' credentials (team.CONNECTION_SECRETS)
    team = package.team
    packs = getattr(team, "CONNECTION_SECRETS", ())
    return checks.missing_env(
        [*team.SECRETS, *team.VARIABLES, *packs, *llms.required_env(package, chosen)],
        os.environ,
    )


def run_context(package: TeamPackage, choices: Sequence[str], problems: list[str]) -> Any:
    """The run's context (the team's context.Context) from its `--model` options (None: no
    choice); what is wrong with them goes to problems, as the graph would refuse the same
    context."""
    context = package.module("context")
    AGENT_FIELDS: dict[str, str] = context.AGENT_FIELDS  # noqa: N806
    ALL_AGENTS_FIELD: str = context.ALL_AGENTS_FIELD  # noqa: N806
    values: dict[str, str] = {}
    for choice in choices:
        agent_key, named, model = choice.partition("=")
        if not named:
            values[ALL_AGENTS_FIELD] = choice
        elif agent_key in AGENT_FIELDS:
            values[AGENT_FIELDS[agent_key]] = model
        else:
            problems.append(f"--model {choice}: no agent {agent_key!r} ({', '.join(AGENT_FIELDS)})")
    found = llms.context_problems(package, values)
    problems += found
    return context.Context(**values) if values and not found else None


def _runner(
    package: TeamPackage,
    saver: AsyncSqliteSaver,
    log: RunLog,
    args: argparse.Namespace,
    chosen: Any,
) -> Runner:
    review = _review(package)
    runner = review.GateRunner if review else Runner
    return runner(package, saver, log, args, chosen)


def _store_options(package: TeamPackage) -> dict[str, Any]:
    """Workspace teams: the documents' store for the graph (workspace_store.py, imported by
    them only), which their agents' tools use."""
    if not hasattr(package.team, "WORKSPACE"):
        return {}
    from .workspace_store import open_store

    return {"store": open_store()}


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


# --- durable runs ----------------------------------------------------------------


class RunLog:
    """Per-thread bookkeeping beside LangGraph's checkpoints: each run's working time.

    Kept in the checkpoint database (one more table), so that timeout.runMs bounds the
    work of a run across every process that resumes it.
    """

    def __init__(self, saver: AsyncSqliteSaver, slug: str) -> None:
        self._saver = saver
        self._slug = slug
        """The team's slug (team.SLUG), written with each run."""

    async def setup(self) -> None:
        async with self._saver.lock:
            await self._saver.conn.execute(
                "CREATE TABLE IF NOT EXISTS envelope_runs "
                "(thread_id TEXT PRIMARY KEY, team TEXT, started_at TEXT, spent_ms INTEGER)"
            )
            await self._saver.conn.commit()

    async def start(self, thread_id: str) -> None:
        async with self._saver.lock:
            await self._saver.conn.execute(
                "INSERT INTO envelope_runs VALUES (?, ?, ?, 0)",
                (thread_id, self._slug, runtime.utc_now().isoformat()),
            )
            await self._saver.conn.commit()

    async def spent_ms(self, thread_id: str) -> int | None:
        """Working time so far; None for a thread this database does not know."""
        async with (
            self._saver.lock,
            self._saver.conn.execute(
                "SELECT spent_ms FROM envelope_runs WHERE thread_id = ?", (thread_id,)
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return None if row is None else int(row[0])

    async def threads(self) -> list[str]:
        """Every thread this database knows, oldest first."""
        async with (
            self._saver.lock,
            self._saver.conn.execute(
                "SELECT thread_id FROM envelope_runs ORDER BY started_at, thread_id"
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [str(row[0]) for row in rows]

    async def add(self, thread_id: str, ms: int) -> None:
        async with self._saver.lock:
            await self._saver.conn.execute(
                "UPDATE envelope_runs SET spent_ms = spent_ms + ? WHERE thread_id = ?",
                (ms, thread_id),
            )
            await self._saver.conn.commit()


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


@asynccontextmanager
async def _checkpoints(
    package: TeamPackage, state_dir: Path
) -> AsyncIterator[tuple[AsyncSqliteSaver, RunLog]]:
    if state_dir == STATE_DIR:
        move_earlier_runs()
    state_dir.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(state_dir / CHECKPOINTS)) as saver:
        await saver.setup()
        log = RunLog(saver, package.team.SLUG)
        await log.setup()
        yield saver, log


def new_thread_id() -> str:
    return runtime.utc_now().strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(3)


def thread_config(package: TeamPackage, thread_id: str) -> RunnableConfig:
    limit = package.team.RECURSION_LIMIT
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": limit}


class Runner:
    """Drives one thread of the team `package`'s graph (its graph.py): runs it, reports the
    outcome (review.GateRunner: and reviews at its gates)."""

    def __init__(
        self,
        package: TeamPackage,
        saver: AsyncSqliteSaver,
        log: RunLog,
        args: argparse.Namespace,
        chosen: Any = None,
    ) -> None:
        self.package = package
        build_graph = package.module("graph").build_graph
        self.graph = build_graph(checkpointer=saver, **_store_options(package))
        self.chosen = chosen
        """The run's context (`--model`): LangGraph gives it to every node of this run."""
        self.log = log
        self.args = args
        # What a later `resume` needs to find this run: its state and its .env.
        self._options = checks.resume_options(str(args.state_dir), str(STATE_DIR), args.env_file)

    async def drive(self, thread_id: str, payload: Any) -> int:
        """Advance the thread until it ends, halts or waits for a review nobody gives now."""
        config = thread_config(self.package, thread_id)
        while True:
            failed = await self._advance(thread_id, payload)
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

    async def _advance(self, thread_id: str, payload: Any) -> int | None:
        """Run the graph until it stops; an exit code when it failed, else None."""
        team = self.package.team
        spent = await self.log.spent_ms(thread_id) or 0
        if spent >= team.RUN_TIMEOUT_MS:
            print(nodes.deadline_message(self.package), file=sys.stderr)
            return runtime.EXIT_TIMEOUT
        deadline = asyncio.timeout((team.RUN_TIMEOUT_MS - spent) / 1000)
        started = time.monotonic()
        config = thread_config(self.package, thread_id)
        tracer = _tracer(self.package, self.args.trace, thread_id)
        if tracer is not None:
            config["callbacks"] = [tracer]
        try:
            async with deadline:
                async for update in self.graph.astream(
                    payload, config, context=self.chosen, stream_mode="updates"
                ):
                    if self.args.verbose:
                        for node in update:
                            label = "waiting for review" if node == "__interrupt__" else node
                            print(f"[{thread_id}] {label}", file=sys.stderr)
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
            return self._failed(thread_id, f"{type(error).__name__}: {error}")
        finally:
            await self.log.add(thread_id, round((time.monotonic() - started) * 1000))
            if tracer is not None:
                tracer.writer.flush()  # however the run stopped (tracing.py flushes as it goes)
        return None

    def waiting(self, thread_id: str, snapshot: StateSnapshot) -> Command[Any] | int:
        """The run paused (interrupt()): how it goes on now, or its exit code. Only a
        gate pauses a run (review.GateRunner)."""
        return self._failed(thread_id, f"paused at {snapshot.next}, which is not a gate")

    def _failed(self, thread_id: str, why: str) -> int:
        """Say why the run stopped and how to continue it: every finished step (and every
        decision made) is in the checkpoint, and `resume` goes on from there."""
        command = shlex.join([command_name(self.package), "resume", thread_id, *self._options])
        print(
            f"Run failed: {why}\nFinished steps and decisions are kept; "
            f"continue from the last finished step with: {command}",
            file=sys.stderr,
        )
        return runtime.EXIT_FAILED


def _warn_short_secrets(package: TeamPackage) -> None:
    warning = redaction.short_secrets(package.team.SECRETS, os.environ)
    if warning is not None:
        print(warning, file=sys.stderr)


# --- commands --------------------------------------------------------------------


async def start_run(package: TeamPackage, argv: Sequence[str]) -> int:
    """`<team> [run]`: a new run of the team's graph, to its end, a halt or a gate."""
    args = run_parser(package).parse_args(argv)
    problems: list[str] = []
    chosen = run_context(package, args.model, problems)
    missing = _missing_env(package, args.env_file, chosen)
    models = package.models.MODELS
    problems += checks.env_file_problems(args.env_file) + llms.factory_problems(models)
    inputs: dict[str, Any] = {}
    try:
        inputs = checks.collect_inputs(args, package.team.INPUTS)
    except checks.InputError as error:
        problems += error.problems
    if checks.report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    _warn_short_secrets(package)
    async with _checkpoints(package, args.state_dir) as (saver, log):
        thread_id = new_thread_id()
        await log.start(thread_id)
        print(f"Thread {thread_id} ({args.state_dir / CHECKPOINTS})", file=sys.stderr)
        runner = _runner(package, saver, log, args, chosen)
        return await runner.drive(thread_id, nodes.graph_input(package, inputs))


async def resume_run(package: TeamPackage, argv: Sequence[str]) -> int:
    """`<team> resume THREAD_ID`: a run that stopped or waits at a gate, continued."""
    args = resume_parser(package).parse_args(argv)
    review = _review(package)
    problems: list[str] = []
    chosen = run_context(package, args.model, problems)
    missing = _missing_env(package, args.env_file, chosen)
    models = package.models.MODELS
    problems += checks.env_file_problems(args.env_file) + llms.factory_problems(models)
    decisions = review.decisions_file(args, problems) if review else {}
    if missing or problems:
        checks.report_problems(missing, problems, args.env_file or ".env")
        return runtime.EXIT_CONFIG
    _warn_short_secrets(package)
    async with _checkpoints(package, args.state_dir) as (saver, log):
        runner = _runner(package, saver, log, args, chosen)
        thread_id = args.thread_id
        snapshot = await runner.graph.aget_state(thread_config(package, thread_id))
        if await log.spent_ms(thread_id) is None or not snapshot.values:
            problems.append(f"thread {thread_id} not found in {args.state_dir / CHECKPOINTS}")
        elif not snapshot.interrupts and not snapshot.next:
            problems.append(f"thread {thread_id} has finished: it is not waiting for review")
        elif not snapshot.interrupts:
            # It stopped on an error: continue from the last finished step.
            if decisions:
                problems.append(
                    f"thread {thread_id} is not waiting for review: it stopped on an error; "
                    "resume it without --decisions"
                )
            if checks.report_problems([], problems):
                return runtime.EXIT_CONFIG
            return await runner.drive(thread_id, None)
        elif review:
            payload = review.resume_payload(runner, thread_id, snapshot, decisions, problems)
            if not checks.report_problems([], problems):
                return await runner.drive(thread_id, payload)
            return runtime.EXIT_CONFIG
        checks.report_problems([], problems)
        return runtime.EXIT_CONFIG


async def team_amain(package: TeamPackage, argv: Sequence[str] | None = None) -> int:
    """The runner of the team `package`, for callers that already run an event loop (tests)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["resume"]:
        return await resume_run(package, arguments[1:])
    review = _review(package)
    if arguments[:1] == ["sweep"] and review:
        return await review.sweep_runs(package, arguments[1:])
    if arguments[:1] == ["run"]:
        arguments = arguments[1:]
    return await start_run(package, arguments)


def team_main(package: TeamPackage, argv: Sequence[str] | None = None) -> int:
    """The runner of the team `package` (its main.py's console script): its exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    for command in (_schedule_command, _workspace_command):
        code = command(package, arguments)
        if code is not None:
            return code
    return asyncio.run(team_amain(package, arguments))


def _schedule_command(package: TeamPackage, arguments: list[str]) -> int | None:
    """`serve-webhook` / `poll` (schedule_commands.py): event and condition teams only."""
    data = vars(package.team)
    if "WEBHOOK_SECRET_ENV" not in data and "CONDITION_INTERVAL_S" not in data:
        return None
    from . import schedule_commands

    return schedule_commands.main(package, arguments)


def _workspace_command(package: TeamPackage, arguments: list[str]) -> int | None:
    """`workspace ...` (people's commands on the documents) and `watch` (the triggers):
    workspace teams only (workspace.py, workspace_store.py)."""
    team = package.team
    if arguments[:1] not in (["workspace"], ["watch"]) or not hasattr(team, "WORKSPACE"):
        return None
    from .. import workspace
    from .workspace_store import CheckpointRecords, open_workspace

    command = command_name(package)
    load_dotenv(".env", override=False)  # ENVELOPE_WORKSPACE_DB may be set there
    if arguments[0] == "workspace":
        move_earlier_runs()  # so `delete` finds the threads an earlier runner kept
        runs = CheckpointRecords(STATE_DIR / CHECKPOINTS)
        return workspace.workspace_command(arguments[1:], open_workspace(package), command, runs)
    if not any(spec.triggers for spec in team.WORKSPACE.values()):
        print("No workspace document declares triggers: watch has nothing to do.", file=sys.stderr)
        return runtime.EXIT_CONFIG
    return workspace.watch_command(
        arguments[1:],
        open_workspace(package),
        lambda run_args: asyncio.run(start_run(package, run_args)),
        command,
    )
