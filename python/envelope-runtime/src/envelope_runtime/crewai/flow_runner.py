"""The runner's pipeline mode: runs of the Flow (flow.py).

A run's state is a file of state.RunStore, CrewAI's persistence of the flow. A run that
waits at a gate (exit 3) is paused by CrewAI (HumanFeedbackPending) and gets a decisions
file beside its state, and the command that resumes it; `resume` (flow_resume.py) continues
it in a new process with `Flow.from_pending` and `resume(feedback)`. What that cannot carry
(an `and_` join of work done in an earlier process: CrewAI keeps the events a join has seen
in memory; a gate waiting beside the paused one; a run stopped by an error) is carried by the
flow kicked off again over the saved state: finished steps and decided gates pass at once.

A process holds its run's lock (run_files.RunLock) while it runs it, so `resume` tells a run left
`running` by a process that is gone (a crash, SIGKILL) from one still at work. Ctrl-C and SIGTERM
(docker stop, systemd, a CI runner cancelling) save it as failed, resumable, first. SIGTERM's
handler is ours only while our runner runs a flow: a kickoff without our runner
(kickoff_deadline.flow_run: AMP's, a Python caller's) runs in its host's process, whose handler
decides (a cancelled task is saved as failed there).
"""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from ..team_package import TeamPackage
from . import runtime
from .runner import STATE_DIR, command_of, traced
from .runtime import EXIT_INTERRUPTED, EXIT_TERMINATED

if TYPE_CHECKING:  # CrewAI's import is a run's, not `--help`'s or `workspace`'s
    from .state import RunState, RunStore

__all__ = ["start_run"]


class Terminated(BaseException):
    """SIGTERM, raised in the main thread while our runner runs a flow, as Ctrl-C raises
    KeyboardInterrupt there (a BaseException: no `except Exception` of a step takes it)."""


class _StopTheRun:
    """SIGTERM's handler while our runner runs: Terminated once; a later SIGTERM is ignored,
    as the run is being saved as stopped (a second one must not end the process unsaved)."""

    raised = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.raised:
            self.raised = True
            raise Terminated


@contextmanager
def _handled(handler: Any, *signals: int) -> Iterator[None]:
    """`handler` for `signals` meanwhile, each previous handler back after. Not off the main
    thread (Python sets handlers there only), nor over a handler Python did not set (not ours
    to restore)."""
    main = threading.current_thread() is threading.main_thread()
    previous = {s: signal.getsignal(s) for s in signals if main}
    previous = {number: old for number, old in previous.items() if old is not None}
    for number in previous:
        signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


def _sigterm_stops_the_run() -> AbstractContextManager[None]:
    """SIGTERM raises Terminated for the run, the previous handler (the default, CrewAI
    telemetry's, which raises SystemExit(0)) back after; not over ours (`sweep` holds it
    across its resumes)."""
    import crewai.events.event_listener  # noqa: F401 - sets telemetry's handler: ours goes over it

    if isinstance(signal.getsignal(signal.SIGTERM), _StopTheRun):
        return nullcontext()
    return _handled(_StopTheRun(), signal.SIGTERM)


def _run_flow(
    package: TeamPackage,
    store: RunStore,
    run: RunState,
    args: Any,
    decisions: dict[str, Any],
    take: Callable[[], int | None] = lambda: None,
) -> int:
    """Run the flow until it ends, halts or waits at a gate; the exit code. SIGTERM is ours
    from before the run is saved `running` until what became of it is saved. `take`, a
    resume's claim on the run, comes first: the exit code when the run is not this
    process's (nothing saved), else None; once the run is claimed a stop saves it stopped."""
    flows: list[Any] = []
    with _sigterm_stops_the_run():
        refused: int | None = -1
        try:
            refused = take()
            if refused is not None:
                return refused
            run = _settled(package, store, run, args, decisions, flows)
        except (KeyboardInterrupt, Terminated) as stop:  # before the flow was built, or after
            if refused is not None and not store.claimed(run.id):
                raise  # the run is not this process's: as it was (resume_run says so)
            run = settle(flows[-1].state if flows else run, False, stop, 0)
        try:
            store.save_state(run.id, "runner", run)
        except (KeyboardInterrupt, Terminated) as stop:  # the outcome maybe unsaved: stopped
            # Ctrl-C and SIGTERM ignored while it is saved (as a second SIGTERM is).
            with _handled(signal.SIG_IGN, signal.SIGINT, signal.SIGTERM):
                store.save_state(run.id, "runner", settle(run, False, stop, 0))
        return _stopped(package, store, run, args)


def _settled(
    package: TeamPackage,
    store: RunStore,
    run: RunState,
    args: Any,
    decisions: dict[str, Any],
    flows: list[Any],
) -> RunState:
    """The run saved `running`, its flow (in `flows`) run until it ends, halts or waits."""
    from crewai.events.event_listener import event_listener
    from crewai.flow.async_feedback import HumanFeedbackPending

    from .deadline import Deadline, RunTimeout, run_with_deadline

    event_listener.formatter.console.file = sys.stderr  # stdout carries the run's JSON
    team_flow = package.module("flow").TeamFlow
    crews = package.module("crew").TeamCrew(run.inputs, args.verbose)
    interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
    quiet = not args.verbose
    run.status, run.message = "running", None
    store.save_state(run.id, "runner", run)

    def configured(flow: Any, left: dict[str, Any]) -> Any:
        flow.configure(crews, left, interactive)
        flow.runner_args = args  # a late decisions file is named, not read (gate_revision)
        return flow

    def again(left: dict[str, Any]) -> Any:
        saved = store.load(run.id)  # CrewAI's Flow starts from its initial_state
        flows.append(team_flow(persistence=store, initial_state=saved, suppress_flow_events=quiet))
        return configured(flows[-1], left)

    try:
        pending = store.load_pending_feedback(run.id)
        # Built before the deadline starts, as a run builds its crews (CrewAI's first Flow
        # loads its memory): from_pending for a paused gate, else the flow over the saved state.
        if pending:
            flows.append(team_flow.from_pending(run.id, store, suppress_flow_events=quiet))
        else:
            again(decisions)
    except (KeyboardInterrupt, Terminated) as stop:
        return settle(run, False, stop, 0)
    deadline = Deadline(package.team.RUN_TIMEOUT_MS, spent_ms=run.spent_ms)

    def work() -> Any:
        if pending is None:
            return flows[0].kickoff()
        from .flow_resume import resumed  # a run paused at a gate: `resume`'s

        return resumed(package, configured(flows[0], decisions), pending[1], again)

    try:
        if deadline.expired():
            raise RunTimeout(deadline.message())
        with traced(args.trace, run.id, crews):
            paused = isinstance(run_with_deadline(work, deadline), HumanFeedbackPending)
        return settle(flows[-1].state, paused, None, deadline.used_ms())
    except (KeyboardInterrupt, Terminated) as stop:  # at a gate's prompt, or in a step
        return settle(flows[-1].state, False, stop, deadline.used_ms())
    except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
        return settle(flows[-1].state, False, error, deadline.used_ms())


def _stopped(package: TeamPackage, store: RunStore, run: RunState, args: Any) -> int:
    """Say what became of the run, saved; the exit code. A message is the saved run's,
    redacted: an error's text may quote a secret the run read."""
    message = store.load(run.id).message if run.message else None
    if run.status == "timed_out":
        print(message, file=sys.stderr)
        return runtime.EXIT_TIMEOUT
    if run.status == "failed":
        command = resume_command(package, run.id, args)
        failed = (f"failed: {message}", runtime.EXIT_FAILED)
        stopped, code = _SIGNALLED.get(run.message or "", failed)
        print(
            f"Run {stopped}\nFinished steps and decisions are kept; continue from the last "
            f"finished step with: {command}",
            file=sys.stderr,
        )
        return code
    if run.status == "halted":
        print(f"Run {run.id} halted: {message}", file=sys.stderr)
        return runtime.EXIT_HALTED
    if run.status == "pending":
        from .run_files import pending_summary  # a run that waits at a gate only

        print(json.dumps(pending_summary(package, run, store, args), indent=2, ensure_ascii=False))
        return runtime.EXIT_PENDING
    print(json.dumps(run.result, indent=2, ensure_ascii=False))  # done (settle's statuses)
    return runtime.EXIT_OK


INTERRUPTED = "interrupted (Ctrl-C)"
"""A failed run's message when Ctrl-C stopped it."""

TERMINATED = "terminated (SIGTERM)"
"""A failed run's message when SIGTERM stopped it."""

_SIGNALLED = {
    INTERRUPTED: ("interrupted", EXIT_INTERRUPTED),
    TERMINATED: (TERMINATED, EXIT_TERMINATED),
}


def settle(run: RunState, paused: bool, error: BaseException | None, used_ms: int) -> RunState:
    """What became of a run of the flow (ours or kickoff_deadline.py's), `used_ms` added."""
    from .deadline import RunTimeout

    if isinstance(error, RunTimeout):
        run.status, run.message = "timed_out", str(error)
    elif isinstance(error, Exception):
        run.status, run.message = "failed", f"{type(error).__name__}: {error}"
    elif error is not None:  # Ctrl-C, SIGTERM, a cancelled kickoff: not left `running` for good
        stop = INTERRUPTED if isinstance(error, KeyboardInterrupt) else type(error).__name__
        run.status, run.message = "failed", TERMINATED if isinstance(error, Terminated) else stop
    elif error is None and run.status not in ("halted", "failed", "timed_out"):
        run.status = "pending" if paused else "done"
    run.spent_ms += used_ms  # what a resume counts against runMs
    return run


def resume_command(package: TeamPackage, run_id: str, args: Any, *given: str) -> str:
    """The command that resumes run `run_id` with run `args`' state, env file and the like."""
    from .. import checks  # only a run that pauses or fails gets here

    options = checks.resume_options(args.state_dir, STATE_DIR, args.env_file)
    return shlex.join([command_of(package), "resume", run_id, *given, *options])


def start_run(package: TeamPackage, args: argparse.Namespace, inputs: dict[str, Any]) -> int:
    """A new run of the flow, its inputs checked (runner.start_run)."""
    from .state import RunState, RunStore

    store = RunStore.of(package.team, args.state_dir)
    run = RunState(team=package.team.SLUG, version=package.team.VERSION, inputs=inputs)
    print(f"Run {run.id} (state: {store.where(run.id)})", file=sys.stderr)
    from .run_files import RunLock

    lock = RunLock(store, run.id)
    lock.acquire()  # a new run's: nobody else has it
    try:
        return _run_flow(package, store, run, args, {})
    finally:
        lock.release()
