"""`resume` and `sweep` of the runner's pipeline mode (flow_runner.py runs the flow): the
decisions file read and checked before anything runs, waiting runs past a gate's timeout
resumed. Loaded by these commands only.

One process resumes a run at a time: with files, the first to take the run's lock
(run_files.RunLock; the lock also tells a run left `running` by a process that is gone);
with DATABASE_URL, the first whose claim (compare-and-set) on the run's row succeeds.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dotenv import load_dotenv
from pydantic import PrivateAttr, ValidationError

from .. import decision_files
from ..checks import resume_options
from ..echo import quoted
from ..inputs import env_file_problems, report_problems
from ..team_package import TeamPackage
from . import llms, runtime, state
from .flow_runner import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    INTERRUPTED,
    TERMINATED,
    Terminated,
    _run_flow,
    _sigterm_stops_the_run,
    resume_command,
)
from .run_files import RunLock, _decision_lists, decisions_path
from .runner import STATE_DIR, _common, _missing_env, _warn_short_secrets, command_of
from .state import RunState, RunStore, _text

if TYPE_CHECKING:
    from crewai.flow.async_feedback.types import PendingFeedbackContext

__all__ = ["ClaimingStore", "resume_run", "sweep_runs"]


class ClaimingStore(RunStore):
    """A resume's RunStore, which claims the run it read (`claim`, `claimed`)."""

    _loaded: dict[str, str] = PrivateAttr(default_factory=dict)
    _claims: dict[str, str] = PrivateAttr(default_factory=dict)

    def text(self, run_id: str) -> str | None:
        text = super().text(run_id)
        if self._url and text is not None:  # what claim compares with
            self._loaded[run_id] = text
        return text

    def claim(self, run_id: str, note: str | None = None) -> bool:
        """Take the run as `load` read it, to resume it here: with DATABASE_URL, its row goes
        to status running, `note` its message, only if it is still what was read, so of two
        processes resuming it at once (`sweep` from cron on two machines, two reviewers) one
        goes on. A run left `running` needs a note (who takes it): without one its row would
        be written back as read, and both would go on; `resume` names its process in every
        note, so the row also tells whose claim took it (`claimed`). Files are one machine's:
        always True there, as before."""
        read = self._loaded.get(run_id)
        if not self._url or read is None:
            return not self._url
        data = json.loads(read)
        data["status"], data["message"] = "running", note
        self._claims[run_id] = _text(data)
        return self._table.swap(run_id, read, self._claims[run_id])

    def claimed(self, run_id: str) -> bool:
        """Whether the run's row is what this store's claim wrote (a stop came during the
        claim: had it taken the run?). Files are never claimed."""
        claim = self._claims.get(run_id)
        return claim is not None and RunStore.text(self, run_id) == claim


def _resume_parser(package: TeamPackage) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command_of(package)} resume", description="Continue a run that waits at a gate."
    )
    parser.add_argument("run_id")
    parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
    parser.add_argument(
        "--force",
        action="store_true",
        help="continue a run marked running whose process cannot be told alive or gone "
        "(runs in DATABASE_URL's database, or a system without file locks): make sure it "
        "is gone first",
    )
    _common(package, parser)
    return parser


def _check_decisions(package: TeamPackage, run: RunState, decisions: dict[str, Any]) -> list[str]:
    from ..gate_rules import apply_decisions
    from ..gates import DecisionItem

    problems: list[str] = []
    for name, items in decisions.items():
        gate = run.gates.get(name)
        if name not in package.team.GATES or gate is None or gate.status != "waiting":
            problems.append(f"gate {quoted(name)} is not waiting for review in run {run.id}")
            continue
        given = [DecisionItem.model_validate(item) for item in items]
        trial = copy.deepcopy(gate)
        problems += apply_decisions(
            package.team.GATES[name], trial, given, state.utc_now(), "check"
        )
    return problems


def read_decisions(path: Path, run_id: str) -> tuple[dict[str, list[Any]], list[str]]:
    """A decisions file's decisions per gate, and what is wrong with it: each problem names
    the file and the place in it. A file that names another run (its "run") is refused; a
    hand-written one without "run" is taken."""
    from ..gates import DecisionItem, shortened

    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, [f"not found: {path}"]
    except UnicodeDecodeError:
        return {}, [f"{path}: not UTF-8 text"]
    except OSError:  # a directory, a file this user may not read
        return {}, [f"--decisions: cannot read {path}"]
    except json.JSONDecodeError as error:
        return {}, [f"{path}: not valid JSON (line {error.lineno} col {error.colno}): {error.msg}"]
    if not isinstance(document, dict) or not isinstance(document.get("gates"), dict):
        return {}, [f'{path}: expected a JSON object with "gates"']
    named = document.get("run")
    if named is not None and named != run_id:
        shown = shortened(str(named), 100)
        return {}, [f"{path}: its decisions are for run {shown}, not for run {run_id}"]
    decisions: dict[str, list[Any]] = {}
    problems: list[str] = []
    for name, gate in document["gates"].items():
        place = f"gates.{shortened(name, 100)}"
        if not isinstance(gate, dict):
            problems.append(f'{path}: {place}: expected an object with "decisions"')
            continue
        items = gate.get("decisions", [])
        if not isinstance(items, list):
            problems.append(f"{path}: {place}.decisions: expected a list")
            continue
        for index, item in enumerate(items):
            try:
                DecisionItem.model_validate(item)
            except ValidationError as error:
                for found in error.errors():
                    at = "".join(f".{part}" for part in found["loc"])
                    problems.append(f"{path}: {place}.decisions[{index}]{at}: {found['msg']}")
        decisions[name] = items
    return decisions, problems


def resume_run(package: TeamPackage, argv: Sequence[str], *, swept: bool = False) -> int:
    """Resume the run; when another process took it meanwhile, nothing is done here: an
    error for a person, not for `sweep` (`swept`), whose other copy has it."""
    args = _resume_parser(package).parse_args(argv)
    args.claimed = False  # set by the claim: from then on a stop is _run_flow's to save
    with _sigterm_stops_the_run():  # from here: telemetry's would exit 0, the run maybe taken
        try:
            missing = _missing_env(package, args.env_file)
            store = ClaimingStore.of(package.team, args.state_dir)
            lock = RunLock(store, args.run_id)
            try:
                return _resume(package, args, store, lock, missing, swept)
            finally:
                lock.release()
        except (KeyboardInterrupt, Terminated) as stop:  # before the claim, or once said
            if args.claimed:  # _run_flow saved what became of the run
                return _stopped_before(stop, f"Run {args.run_id}", "what became of it is saved")
            return _stopped_before(stop, f"Run {args.run_id} not resumed", "it is as it was")


def _stopped_before(stop: BaseException, what: str, then: str) -> int:
    """Ctrl-C or SIGTERM before a run was taken (after, _run_flow saves it stopped): said,
    and exit 130 or 143, as when a run is stopped."""
    terminated = isinstance(stop, Terminated)
    print(f"{what}: {TERMINATED if terminated else INTERRUPTED}; {then}", file=sys.stderr)
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def _resume(
    package: TeamPackage,
    args: argparse.Namespace,
    store: RunStore,
    lock: RunLock,
    missing: list[str],
    swept: bool,
) -> int:
    problems = env_file_problems(args.env_file) + llms.factory_problems(package.models.MODELS)
    # Taken before the run is read: of two resumes at once, the second finds it taken.
    held = lock.acquire() if store.path(args.run_id).is_file() else None
    if held is False:
        print(
            f"{store.where(args.run_id)}: {lock.holder()} has it; nothing done here",
            file=sys.stderr,
        )
        return runtime.EXIT_OK if swept else runtime.EXIT_CONFIG
    decisions: dict[str, Any] = {}
    run = RunState()
    try:
        run = store.load(args.run_id)
    except FileNotFoundError as error:
        problems.append(f"not found: {error.filename}")
    except (ValueError, ValidationError) as error:
        from ..gates import shortened

        problems.append(f"{store.where(args.run_id)}: unreadable: {shortened(str(error))}")
    else:
        if args.decisions is not None:
            decisions, wrong = read_decisions(args.decisions, run.id)
            problems += wrong
        problems += _status_problems(package, store, args, run, decisions, held, swept)
        problems += [] if problems else _check_decisions(package, run, decisions)
    if report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    left = run.status == "running"  # by a process that is gone, or taken with --force
    by = f"process {os.getpid()} on {socket.gethostname()} at {state.utc_now().isoformat()}"

    def take() -> int | None:
        """The claim, in _run_flow's care: a stop once the run is claimed saves it stopped
        (with DATABASE_URL its row says `running` from the claim, and who took it)."""
        if store.claim(run.id, f"{'taken over' if left else 'resumed'} by {by}"):
            if left:  # said once it goes on here: another process may have taken it first
                how = "its process is gone" if held else "--force"
                print(f"Run {run.id} was left running ({how}): it goes on here.", file=sys.stderr)
            _warn_short_secrets(package)
            args.claimed = True
            return None
        print(f"{store.where(run.id)}: resumed by another process meanwhile", file=sys.stderr)
        return runtime.EXIT_OK if swept else runtime.EXIT_CONFIG

    return _run_flow(package, store, run, args, decisions, take)


def resumed(
    package: TeamPackage, start: Any, context: PendingFeedbackContext, again: Callable[..., Any]
) -> Any:
    """A paused run's flow (`start`, from_pending) resumed with its gate's decisions; then
    the rest of the flow, and the gates the resume never reached, kicked off again over the
    saved state (`again`): with their decisions, or past their deadline (a gate waiting beside
    the one paused again)."""
    from crewai.flow.async_feedback import HumanFeedbackPending

    from ..gates import overdue

    given = start.decisions.pop(context.metadata.get("gate"), None)
    outcome = start.resume(json.dumps(given) if given is not None else "")
    paused = isinstance(outcome, HumanFeedbackPending)
    # Paused again, it goes on only for a gate to decide: with decisions given for it, or
    # waiting past its deadline (the pause may have left it beside).
    to_decide = start.decisions or overdue(package.team.GATES, start.state.gates, state.utc_now())
    if start.state.over(package.team.PIPELINE) or (paused and not to_decide):
        return outcome
    return again(start.decisions).kickoff()


def _status_problems(
    package: TeamPackage,
    store: RunStore,
    args: argparse.Namespace,
    run: RunState,
    decisions: dict[str, Any],
    held: bool | None,
    swept: bool,
) -> list[str]:
    """Why the run cannot be resumed as asked, if it cannot."""
    if run.status == "running" and not held and not args.force:
        # No lock to tell by: the database's runs (any machine's process), no flock here.
        forced = resume_command(package, run.id, args, "--force")
        return [
            f"run {run.id} is not waiting for review (status: running), and whether the "
            "process running it is still alive cannot be told from here; if it is gone (it "
            f"crashed or was killed), continue the run with: {forced}"
        ]
    if run.status in ("failed", "running"):
        if not decisions:
            return []
        stopped = "it stopped on an error"
        if run.status == "running":
            stopped = "it was left running"
        elif run.message in (INTERRUPTED, TERMINATED):  # Ctrl-C, SIGTERM
            stopped = "it was interrupted"
        return [f"run {run.id} is not waiting for review: {stopped}; resume it without --decisions"]
    if run.status != "pending":
        return [f"run {run.id} is not waiting for review (status: {run.status})"]
    template = decisions_path(store, run.id)
    if args.decisions is None and not swept and _filled(template, run):
        command = resume_command(package, run.id, args, "--decisions", os.path.relpath(template))
        interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
        if interactive:  # a reviewer at the terminal: the gates are asked there
            print(
                f"{template} holds filled-in decisions that this resume does not read "
                f"(it asks at the terminal); to apply them instead: {command}",
                file=sys.stderr,
            )
            return []
        return [
            f"{template} holds filled-in decisions that a resume without --decisions does "
            f"not read; run {run.id} keeps waiting. Apply them with: {command}"
        ]
    return []


def _filled(path: Path, run: RunState) -> bool:
    """Whether the run's decisions file holds a reviewer's work for the records waiting now
    (decision_files.filled)."""
    waiting = {
        n: {r.id for r in g.undecided()} for n, g in run.gates.items() if g.status == "waiting"
    }
    return decision_files.filled(path, _decision_lists, waiting)


def sweep_runs(package: TeamPackage, argv: Sequence[str]) -> int:
    """Resume each waiting run with a gate past its deadline; exit non-zero if one failed."""
    parser = argparse.ArgumentParser(
        prog=f"{command_of(package)} sweep",
        description="Resume every run that waits at a gate whose timeout has passed, so its "
        "timeout.behaviour applies now (run it from cron).",
    )
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    parser.add_argument("--state-dir", default=STATE_DIR, help="where runs are kept")
    args = parser.parse_args(argv)
    load_dotenv(args.env_file or ".env", override=False)  # DATABASE_URL may be set there
    options = resume_options(args.state_dir, STATE_DIR, args.env_file)
    code, begun = runtime.EXIT_OK, 0
    due: list[tuple[str, list[str]]] = []
    with _sigterm_stops_the_run():  # held across the resumes: between two runs too
        try:
            due = _due(package, RunStore(args.state_dir))
            for run_id, late in due:
                print(
                    f"Run {run_id}: {', '.join(late)} past the deadline; resuming", file=sys.stderr
                )
                begun += 1  # a stop from here on is resume_run's: it says what became of it
                result = resume_run(package, [run_id, "--no-interactive", *options], swept=True)
                if result in (EXIT_INTERRUPTED, EXIT_TERMINATED):  # stops the sweep, not one run
                    raise Terminated if result == EXIT_TERMINATED else KeyboardInterrupt
                if result in (runtime.EXIT_FAILED, runtime.EXIT_CONFIG, runtime.EXIT_TIMEOUT):
                    code = code or result
        except (KeyboardInterrupt, Terminated) as stop:  # outside a resume, or in one (said)
            left = ", ".join(run_id for run_id, _ in due[begun:])
            left = left or ("none left" if begun else "none found yet")
            return _stopped_before(
                stop, "Sweep stopped", f"runs not resumed (as they were): {left}"
            )
    if not due:
        print("No gate is past its deadline.", file=sys.stderr)
    return code


def _due(package: TeamPackage, store: RunStore) -> list[tuple[str, list[str]]]:
    """The runs waiting at a gate past its deadline, each with those gates."""
    now, due = state.utc_now(), list[tuple[str, list[str]]]()
    for run_id in store.run_ids():
        try:
            run = store.load(run_id)
        except (OSError, ValueError) as error:  # one unreadable run stops no other
            print(f"{store.where(run_id)}: skipped, unreadable: {error}", file=sys.stderr)
            continue
        if run.status == "pending" and run.gates:
            from ..gates import overdue  # a run with gates has loaded them

            late = overdue(package.team.GATES, run.gates, now)
            due += [(run.id, late)] if late else []
    return due
