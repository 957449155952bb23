"""The runner's pipeline mode: runs of the Flow (flow.py), their state, resume and sweep.

Only a team with a pipeline imports this module: runner.py when a command needs it, and
the team's main.py for `FlowCommands`, its console scripts. A run's state is a file in the
state directory (state.py); a run that stops at a gate (exit 3) writes a decisions file
beside it and goes on with `resume RUN_ID`. The gate rules (gates.py) are loaded only by a
team with gates, or to read a decisions file.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .. import checks
from ..team_package import TeamPackage
from . import llms, runtime, state
from .runner import (
    STATE_DIR,
    TeamCommands,
    _common,
    _exit,
    _missing_env,
    _warn_short_secrets,
    command_of,
    traced,
)
from .state import RunState, RunStore

if TYPE_CHECKING:
    from datetime import datetime

    from ..gates import DecisionItem, GateSpec, Reviewer

__all__ = ["FlowCommands", "plot", "resume", "resume_run", "start_run", "sweep_runs"]


def _resume_parser(package: TeamPackage) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command_of(package)} resume", description="Continue a run that waits at a gate."
    )
    parser.add_argument("run_id")
    parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
    _common(package, parser)
    return parser


def _reviewer(
    package: TeamPackage, args: argparse.Namespace, decisions: dict[str, list[DecisionItem]]
) -> Reviewer | None:
    """Who decides at the gates: none for a team without gates."""
    if not package.team.GATES:
        return None
    from ..gates import DeferredReviewer, TerminalReviewer

    interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
    if interactive and not decisions:
        return TerminalReviewer()
    return DeferredReviewer(decisions)


def _secret_values(package: TeamPackage) -> list[str]:
    return [os.environ[name] for name in package.team.SECRETS if os.environ.get(name)]


def _run_flow(
    package: TeamPackage,
    run: RunState,
    store: RunStore,
    args: argparse.Namespace,
    reviewer: Reviewer | None,
) -> int:
    verbose: bool = args.verbose
    command = command_of(package)
    pipeline_flow = package.module("flow").TeamFlow(suppress_flow_events=not verbose)
    pipeline_flow.state.run = run
    team_crew = package.module("crew").TeamCrew(run.inputs, verbose)
    pipeline_flow.configure(team_crew, store, reviewer)
    run.status, run.message = "running", None
    store.save(run)
    options = checks.resume_options(args.state_dir, STATE_DIR, args.env_file)
    # timeout.runMs counts the working time of every process that worked on the run.
    deadline = runtime.Deadline(package.team.RUN_TIMEOUT_MS, spent_ms=run.spent_ms)
    try:
        if deadline.expired():
            raise runtime.RunTimeout(deadline.message())
        with traced(args.trace, run.run_id, team_crew):
            runtime.run_with_deadline(pipeline_flow.kickoff, deadline)
    except runtime.RunTimeout as error:
        run.status, run.message = "timed_out", str(error)
        return _stopped(run, store, deadline, runtime.EXIT_TIMEOUT, str(error))
    except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
        run.status, run.message = "failed", f"{type(error).__name__}: {error}"
        resume = shlex.join([command, "resume", run.run_id, *options])
        message = (
            f"Run failed: {run.message}\nFinished steps and decisions are kept; "
            f"continue from the last finished step with: {resume}"
        )
        return _stopped(run, store, deadline, runtime.EXIT_FAILED, message)
    run.spent_ms += deadline.used_ms()
    return _finish(package, run, store, options)


def _stopped(
    run: RunState, store: RunStore, deadline: runtime.Deadline, code: int, message: str
) -> int:
    run.spent_ms += deadline.used_ms()
    store.save(run)
    print(message, file=sys.stderr)
    return code


def _finish(package: TeamPackage, run: RunState, store: RunStore, options: Sequence[str]) -> int:
    if run.status == "halted":
        store.save(run)
        print(f"Run {run.run_id} halted: {run.message}", file=sys.stderr)
        return runtime.EXIT_HALTED
    if run.status == "pending":
        # Saved again: the flow saved the run at its gate before this process's working time
        # was added, and a resume's deadline starts from what is saved (timeout.runMs).
        store.save(run)
        summary = _pending_summary(package, run, store, options)
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return runtime.EXIT_PENDING
    run.status = "done"
    store.save(run)
    print(json.dumps(run.result, indent=2, ensure_ascii=False))
    return runtime.EXIT_OK


def _pending_summary(
    package: TeamPackage, run: RunState, store: RunStore, options: Sequence[str]
) -> dict[str, Any]:
    """Write a decisions template beside the run and describe what awaits review."""
    team = package.team
    waiting: dict[str, Any] = {}
    for name, gate in run.gates.items():
        if gate.status != "waiting":
            continue
        spec = team.GATES[name]
        waiting[name] = {
            "actions": [action.label for action in spec.actions],
            "decisions": [
                {
                    "record": record.id,
                    **{field: record.data.get(field) for field in spec.fields},
                    "action": "",
                    "feedback": "",
                }
                for record in gate.undecided()
            ],
        }
    template = store.directory / f"{run.run_id}.decisions.json"
    template.write_text(
        json.dumps({"run": run.run_id, "gates": waiting}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    return {
        "status": "pending",
        "run_id": run.run_id,
        "gates": waiting,
        "decisions_file": str(template),
        # Relative to where the runner ran (the store keeps an absolute path): the command
        # still works where the state is copied with the project, e.g. from a CI artifact.
        "resume": shlex.join(
            [
                command_of(package),
                "resume",
                run.run_id,
                "--decisions",
                os.path.relpath(template),
                *options,
            ]
        ),
    }


def _read_decisions(path: Path) -> dict[str, list[DecisionItem]]:
    from ..gates import DecisionItem

    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: [DecisionItem.model_validate(item) for item in entry.get("decisions", [])]
        for name, entry in data.get("gates", {}).items()
    }


def _check_decisions(
    package: TeamPackage, run: RunState, decisions: dict[str, list[DecisionItem]]
) -> list[str]:
    team = package.team
    problems: list[str] = []
    for name, items in decisions.items():
        gate = run.gates.get(name)
        if name not in team.GATES or gate is None or gate.status != "waiting":
            problems.append(
                f"gate {checks.quoted(name)} is not waiting for review in run {run.run_id}"
            )
            continue
        from ..gates import apply_decisions

        trial = copy.deepcopy(gate)
        problems += apply_decisions(team.GATES[name], trial, items, state.utc_now(), "check")
    return problems


def start_run(package: TeamPackage, args: argparse.Namespace, inputs: dict[str, Any]) -> int:
    """A new run of the flow, its inputs checked (runner.start_run)."""
    team = package.team
    store = RunStore(Path(args.state_dir), _secret_values(package))
    run = RunState(
        run_id=state.new_run_id(),
        team=team.SLUG,
        version=team.VERSION,
        created_at=state.utc_now(),
        inputs=inputs,
    )
    print(f"Run {run.run_id} (state: {store.path(run.run_id)})", file=sys.stderr)
    return _run_flow(package, run, store, args, _reviewer(package, args, {}))


def resume_run(package: TeamPackage, argv: Sequence[str]) -> int:
    args = _resume_parser(package).parse_args(argv)
    missing = _missing_env(package, args.env_file)
    store = RunStore(Path(args.state_dir), _secret_values(package))
    problems = checks.env_file_problems(args.env_file) + llms.factory_problems(
        package.models.MODELS
    )
    decisions: dict[str, list[DecisionItem]] = {}
    run = RunState()
    try:
        run = store.load(args.run_id)
        if args.decisions is not None:
            decisions = _read_decisions(args.decisions)
    except FileNotFoundError as error:
        problems.append(f"not found: {error.filename}")
    except (ValueError, ValidationError) as error:
        from ..gates import shortened

        problems.append(f"unreadable: {shortened(str(error))}")
    if not problems and run.status == "failed" and decisions:
        problems.append(
            f"run {args.run_id} is not waiting for review: it stopped on an error; "
            "resume it without --decisions"
        )
    elif not problems and run.status not in ("pending", "failed"):
        problems.append(f"run {args.run_id} is not waiting for review (status: {run.status})")
    if not problems:
        problems = _check_decisions(package, run, decisions)
    if checks.report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    _warn_short_secrets(package)
    return _run_flow(package, run, store, args, _reviewer(package, args, decisions))


def _sweep_parser(package: TeamPackage) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command_of(package)} sweep",
        description="Resume every run that waits at a gate whose timeout has passed, so its "
        "timeout.behaviour applies now (run it from cron).",
    )
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    parser.add_argument("--state-dir", default=STATE_DIR, help="where runs are kept")
    return parser


def _late_gates(run: RunState, gates: Mapping[str, GateSpec], now: datetime) -> list[str]:
    """The gates of a waiting run whose timeout has passed (none without gates)."""
    if run.status != "pending" or not run.gates:
        return []
    from ..gates import timed_out

    return [name for name, gate in run.gates.items() if timed_out(gates[name], gate, now)]


def sweep_runs(package: TeamPackage, argv: Sequence[str]) -> int:
    """Resume each waiting run with a gate past its deadline; exit non-zero if one failed."""
    gates = package.team.GATES
    args = _sweep_parser(package).parse_args(argv)
    store = RunStore(Path(args.state_dir))
    now = state.utc_now()
    due: list[tuple[str, list[str]]] = []
    for path in sorted(store.directory.glob("*.json")):
        if path.name.endswith(".decisions.json"):
            continue
        try:
            run = store.load(path.stem)
        except (OSError, ValueError) as error:  # one unreadable file stops no other run
            print(f"{path}: skipped, unreadable: {error}", file=sys.stderr)
            continue
        late = _late_gates(run, gates, now)
        if late:
            due.append((run.run_id, late))
    options = [
        "--state-dir",
        args.state_dir,
        *(["--env-file", args.env_file] if args.env_file else []),
    ]
    code = runtime.EXIT_OK
    for run_id, late in due:
        print(f"Run {run_id}: {', '.join(late)} past the deadline; resuming", file=sys.stderr)
        result = resume_run(package, [run_id, "--no-interactive", *options])
        if result in (runtime.EXIT_FAILED, runtime.EXIT_CONFIG, runtime.EXIT_TIMEOUT):
            code = code or result
    if not due:
        print("No gate is past its deadline.", file=sys.stderr)
    return code


# --- console scripts ---------------------------------------------------------


def resume(package: TeamPackage) -> None:
    """Console script `resume RUN_ID --decisions FILE`."""
    _exit(resume_run(package, sys.argv[1:]))


def plot(package: TeamPackage) -> None:
    """Console script `plot` (`crewai flow plot`): Flow.plot, the pipeline as an HTML page
    (crewai_flow.html), opened in a browser when run at a terminal."""
    team_flow = package.module("flow").TeamFlow(suppress_flow_events=True)
    print(team_flow.plot(show=sys.stdout.isatty()))
    _exit(runtime.EXIT_OK)


class FlowCommands(TeamCommands):
    """A pipeline team's console scripts: a run's (TeamCommands), `resume` (a run waiting at
    a gate) and `plot` (`crewai flow plot`)."""

    def resume(self) -> None:
        """`resume RUN_ID [--decisions FILE]`: a run that waits at a gate goes on."""
        resume(self.package)

    def plot(self) -> None:
        """`plot` (`crewai flow plot`): the pipeline as an HTML page."""
        plot(self.package)
