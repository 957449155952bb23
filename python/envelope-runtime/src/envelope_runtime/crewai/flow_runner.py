"""The runner's pipeline mode: runs of the Flow (flow.py), `resume` and `sweep`.

A run's state is a file of state.RunStore, CrewAI's persistence of the flow. A run that
waits at a gate (exit 3) is paused by CrewAI (HumanFeedbackPending) and gets a decisions
file beside its state; `resume RUN_ID --decisions FILE` continues it in a new process with
`Flow.from_pending` and `resume(feedback)`. What that cannot carry (CrewAI keeps the events
an `and_` join has seen in memory, so a join of work done in an earlier process never fires;
a gate waiting beside the paused one; a run stopped by an error) is carried by the flow
kicked off again over the saved state: finished steps and decided gates pass at once.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crewai.events.event_listener import event_listener
from crewai.flow.async_feedback import HumanFeedbackPending
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

__all__ = ["FlowCommands", "plot", "resume", "resume_run", "start_run", "sweep_runs"]


def _store(package: TeamPackage, directory: str) -> RunStore:
    team = package.team
    return RunStore(directory, [os.environ[n] for n in team.SECRETS if os.environ.get(n)])


def _run_flow(
    package: TeamPackage, store: RunStore, run: RunState, args: Any, decisions: dict[str, Any]
) -> int:
    """Run the flow until it ends, halts or waits at a gate; the exit code."""
    event_listener.formatter.console.file = sys.stderr  # stdout carries the run's JSON
    team_flow = package.module("flow").TeamFlow
    crews = package.module("crew").TeamCrew(run.inputs, args.verbose)
    interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
    quiet = not args.verbose
    run.status, run.message = "running", None
    store.save_state(run.id, "runner", run)
    options = checks.resume_options(args.state_dir, STATE_DIR, args.env_file)
    deadline = runtime.Deadline(package.team.RUN_TIMEOUT_MS, spent_ms=run.spent_ms)
    flows: list[Any] = []

    def work() -> Any:
        outcome, pending = None, store.load_pending_feedback(run.id)
        if pending is not None:
            flows.append(team_flow.from_pending(run.id, store, suppress_flow_events=quiet))
            flows[-1].configure(crews, decisions, interactive)
            given = flows[-1].decisions.pop(pending[1].metadata.get("gate"), None)
            outcome = flows[-1].resume(json.dumps(given) if given is not None else "")
        left = flows[-1].decisions if flows else decisions  # for gates the resume never reached
        paused = isinstance(outcome, HumanFeedbackPending)
        if not _ended(package, flows[-1].state if flows else run) and (left or not paused):
            flows.append(team_flow(persistence=store, suppress_flow_events=quiet))
            flows[-1].configure(crews, left, interactive)
            saved = store.load(run.id)
            for name in RunState.model_fields:  # the saved state, as CrewAI restores it
                setattr(flows[-1].state, name, getattr(saved, name))
            outcome = flows[-1].kickoff()
        return outcome

    try:
        if deadline.expired():
            raise runtime.RunTimeout(deadline.message())
        with traced(args.trace, run.id, crews):
            outcome = runtime.run_with_deadline(work, deadline)
    except runtime.RunTimeout as error:
        return _stopped(store, flows[-1].state if flows else run, deadline, "timed_out", str(error))
    except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
        message = f"{type(error).__name__}: {error}"
        resume = shlex.join([command_of(package), "resume", run.id, *options])
        print(
            f"Run failed: {message}\nFinished steps and decisions are kept; continue from "
            f"the last finished step with: {resume}",
            file=sys.stderr,
        )
        return _stopped(store, flows[-1].state if flows else run, deadline, "failed", message)
    run = flows[-1].state
    run.spent_ms += deadline.used_ms()
    if run.status == "halted":
        store.save_state(run.id, "runner", run)
        print(f"Run {run.id} halted: {run.message}", file=sys.stderr)
        return runtime.EXIT_HALTED
    if isinstance(outcome, HumanFeedbackPending):
        run.status = "pending"
        store.save_state(run.id, "runner", run)
        print(
            json.dumps(_pending_summary(package, run, store, options), indent=2, ensure_ascii=False)
        )
        return runtime.EXIT_PENDING
    run.status = "done"
    store.save_state(run.id, "runner", run)
    print(json.dumps(run.result, indent=2, ensure_ascii=False))
    return runtime.EXIT_OK


def _ended(package: TeamPackage, run: RunState) -> bool:
    return run.status == "halted" or all(key in run.outputs for key in package.team.PIPELINE)


def _stopped(store: RunStore, run: RunState, deadline: Any, status: Any, message: str) -> int:
    run.status, run.message = status, message
    run.spent_ms += deadline.used_ms()
    store.save_state(run.id, "runner", run)
    if status == "timed_out":
        print(message, file=sys.stderr)
    return runtime.EXIT_TIMEOUT if status == "timed_out" else runtime.EXIT_FAILED


def _pending_summary(
    package: TeamPackage, run: RunState, store: RunStore, options: Sequence[str]
) -> dict[str, Any]:
    """Write a decisions template beside the run and describe what awaits review."""
    waiting: dict[str, Any] = {}
    for name, gate in run.gates.items():
        spec = package.team.GATES[name]
        if gate.status == "waiting":
            waiting[name] = {
                "actions": [action.label for action in spec.actions],
                "decisions": [
                    {
                        "record": r.id,
                        **{f: r.data.get(f) for f in spec.fields},
                        "action": "",
                        "feedback": "",
                    }
                    for r in gate.undecided()
                ],
            }
    template = store.directory / f"{run.id}.decisions.json"
    document = {"run": run.id, "gates": waiting}
    template.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
    # Relative to where the runner ran: the command still works where the state is copied
    # with the project (a CI artifact).
    resume = [command_of(package), "resume", run.id, "--decisions", os.path.relpath(template)]
    return {
        "status": "pending",
        "run_id": run.id,
        "gates": waiting,
        "decisions_file": str(template),
        "resume": shlex.join([*resume, *options]),
    }


def start_run(package: TeamPackage, args: argparse.Namespace, inputs: dict[str, Any]) -> int:
    """A new run of the flow, its inputs checked (runner.start_run)."""
    team = package.team
    store = _store(package, args.state_dir)
    run = RunState(id=state.new_run_id(), team=team.SLUG, version=team.VERSION)
    run.created_at, run.inputs = state.utc_now(), inputs
    print(f"Run {run.id} (state: {store.path(run.id)})", file=sys.stderr)
    return _run_flow(package, store, run, args, {})


def _resume_parser(package: TeamPackage) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command_of(package)} resume", description="Continue a run that waits at a gate."
    )
    parser.add_argument("run_id")
    parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
    _common(package, parser)
    return parser


def _check_decisions(package: TeamPackage, run: RunState, decisions: dict[str, Any]) -> list[str]:
    from ..gates import DecisionItem, apply_decisions

    problems: list[str] = []
    for name, items in decisions.items():
        gate = run.gates.get(name)
        if name not in package.team.GATES or gate is None or gate.status != "waiting":
            problems.append(f"gate {checks.quoted(name)} is not waiting for review in run {run.id}")
            continue
        given = [DecisionItem.model_validate(item) for item in items]
        trial = copy.deepcopy(gate)
        problems += apply_decisions(
            package.team.GATES[name], trial, given, state.utc_now(), "check"
        )
    return problems


def resume_run(package: TeamPackage, argv: Sequence[str]) -> int:
    args = _resume_parser(package).parse_args(argv)
    missing = _missing_env(package, args.env_file)
    store = _store(package, args.state_dir)
    problems = checks.env_file_problems(args.env_file) + llms.factory_problems(
        package.models.MODELS
    )
    decisions: dict[str, Any] = {}
    run = RunState()
    try:
        run = store.load(args.run_id)
        if args.decisions is not None:
            document = json.loads(args.decisions.read_text(encoding="utf-8"))
            decisions = {k: v.get("decisions", []) for k, v in document.get("gates", {}).items()}
        if run.status == "failed" and decisions:
            problems.append(
                f"run {args.run_id} is not waiting for review: it stopped on an error; "
                "resume it without --decisions"
            )
        elif run.status not in ("pending", "failed"):
            problems.append(f"run {args.run_id} is not waiting for review (status: {run.status})")
        problems += [] if problems else _check_decisions(package, run, decisions)
    except FileNotFoundError as error:
        problems.append(f"not found: {error.filename}")
    except (ValueError, ValidationError, AttributeError) as error:
        from ..gates import shortened

        problems.append(f"unreadable: {shortened(str(error))}")
    if checks.report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    _warn_short_secrets(package)
    return _run_flow(package, store, run, args, decisions)


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
    store, now = RunStore(args.state_dir), state.utc_now()
    due: list[tuple[str, list[str]]] = []
    for path in sorted(store.directory.glob("*.json")):
        if path.name.endswith(".decisions.json"):
            continue
        try:
            run = store.load(path.stem)
        except (OSError, ValueError) as error:  # one unreadable file stops no other run
            print(f"{path}: skipped, unreadable: {error}", file=sys.stderr)
            continue
        if run.status == "pending" and run.gates:
            from ..gates import timed_out

            gates = package.team.GATES
            late = [n for n, gate in run.gates.items() if timed_out(gates[n], gate, now)]
            due += [(run.id, late)] if late else []
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
