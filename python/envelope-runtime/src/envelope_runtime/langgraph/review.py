"""The gate commands of the runner (runner.py), for a team with review gates.

A run that stops at a review gate (exit 3) can be resumed by another process. At a
terminal, gates are reviewed right away unless `--no-interactive`; otherwise the runner
prints what awaits review and writes a decisions file to fill in:

    <team> resume THREAD_ID [--decisions FILE]   continue a run waiting at a gate
    <team> sweep                                 resume every run past a gate's deadline
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
from langgraph.types import Command, Interrupt, StateSnapshot
from pydantic import ValidationError

from .. import decision_files, redaction
from ..echo import quoted
from ..gate_rules import apply_decisions
from ..gate_terminal import Reviewer, TerminalReviewer
from ..gates import DecisionItem, GateState, overdue, shortened
from ..team_package import TeamPackage
from . import runtime
from .pipeline import gate_state
from .run_client import (
    Runner,
    open_graph,
    resume_run,
    thread_config,
    unreachable,
    waiting_threads,
)
from .runner import add_location, command_name

Decisions = dict[str, list[DecisionItem]]
"""Gate name -> decisions: a decisions file, or the answers given at the terminal."""


def _interactive(args: argparse.Namespace) -> bool:
    return sys.stdin.isatty() if args.interactive is None else bool(args.interactive)


class GateRunner(Runner):
    """A Runner that, when the run waits at its gates, asks at the terminal or writes the
    decisions file and says how to resume."""

    def waiting(self, thread_id: str, snapshot: StateSnapshot) -> Command[Any] | int:
        decisions = self.review_now(snapshot) if _interactive(self.args) else None
        if decisions:
            return resume_command(self.package, snapshot.interrupts, decisions)
        self._report_pending(thread_id, snapshot.interrupts)
        return runtime.EXIT_PENDING

    def review_now(self, snapshot: StateSnapshot) -> Decisions:
        """Ask at the terminal, gate by gate; a reviewer's time does not count as work."""
        reviewer: Reviewer = TerminalReviewer()
        return collect_decisions(self.package, snapshot, reviewer)

    def _report_pending(self, thread_id: str, interrupts: Sequence[Interrupt]) -> None:
        """Print what awaits review and write a decisions file to fill in."""
        waiting = {request["gate"]: request for request in (i.value for i in interrupts)}
        template = {
            name: [
                {"record": record["id"], "fields": record["fields"], "action": "", "feedback": ""}
                for record in request["records"]
            ]
            for name, request in waiting.items()
        }
        path = decisions_path(self.args, thread_id)
        given: Path | None = getattr(self.args, "decisions", None)
        records = {name: {row["record"] for row in rows} for name, rows in template.items()}
        if decision_files.must_keep(path, given, _decision_lists, records):
            # A reviewer's answers this run has not read: never lost to a blank template.
            print(f"Kept {path}: it holds filled-in decisions.", file=sys.stderr)
        else:
            decision_files.move_aside_stale(path, given, _decision_lists)
            decision_files.write_atomically(
                path, json.dumps(template, indent=2, ensure_ascii=False) + "\n"
            )
        summary = {
            "status": "pending",
            "thread_id": thread_id,
            "gates": {
                name: {
                    "step": request["step"],
                    "round": request["round"],
                    "actions": [action["label"] for action in request["actions"]],
                    "deadline": request["deadline"],
                    "records": [
                        {"record": record["id"], "fields": record["fields"]}
                        for record in request["records"]
                    ],
                }
                for name, request in waiting.items()
            },
            "decisions_file": str(path),
            "resume": shlex.join(
                [
                    command_name(self.package),
                    "resume",
                    thread_id,
                    "--decisions",
                    str(path),
                    *self._options,
                ]
            ),
        }
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        for name, request in waiting.items():
            print(
                f"Waiting for review at gate {name}: {len(request['records'])} record(s).",
                file=sys.stderr,
            )
        print(f"Fill in {path}, then run: {summary['resume']}", file=sys.stderr)


def decisions_path(args: argparse.Namespace, thread_id: str) -> Path:
    """The decisions file the runner writes for a thread waiting at its gates."""
    state_dir: Path = args.state_dir
    return state_dir / f"{thread_id}.decisions.json"


def filled(path: Path, pending: Mapping[str, GateState]) -> bool:
    """Whether a thread's decisions file holds a reviewer's work for the records its gates
    wait for now (decision_files.filled)."""
    waiting = {name: {record.id for record in gate.undecided()} for name, gate in pending.items()}
    return decision_files.filled(path, _decision_lists, waiting)


def _decision_lists(data: Any) -> dict[str, Any] | None:
    return data if isinstance(data, dict) else None


def pending_gates(snapshot: StateSnapshot) -> dict[str, GateState]:
    """The gates the thread waits for, with their state."""
    gates = snapshot.values.get("gates") or {}
    names = [interrupt.value["gate"] for interrupt in snapshot.interrupts]
    return {name: GateState.model_validate(gates[name]) for name in names}


def collect_decisions(
    package: TeamPackage, snapshot: StateSnapshot, reviewer: Reviewer
) -> Decisions:
    """Each waiting gate's decisions from a reviewer (gates it has nothing for are left out)."""
    decisions: Decisions = {}
    for name, gate in pending_gates(snapshot).items():
        items = reviewer.review(package.team.GATES[name], gate)
        if items:
            decisions[name] = items
    return decisions


def resume_command(
    package: TeamPackage, interrupts: Sequence[Interrupt], decisions: Mapping[str, Any]
) -> Command[Any]:
    """One resume value per pending interrupt, by interrupt id: a gate without decisions
    gets none, so it checks its timeout and waits again. Reviewer feedback is redacted
    here, not only in the gate's state: LangGraph keeps the resume value itself in the
    checkpoint."""
    secrets = redaction.secret_values(package.team.SECRETS)
    values: dict[str, Any] = {}
    for interrupt in interrupts:
        items = [
            DecisionItem.model_validate(item).model_dump()
            for item in decisions.get(interrupt.value["gate"], [])
        ]
        for item in items:
            item["feedback"] = redaction.redact(item["feedback"], secrets)
        values[interrupt.id] = {"decisions": items}
    return Command(resume=values)


def read_decisions(path: Path) -> Decisions:
    """A decisions file: `{"<gate name>": [{"record": "r1", "action": "...", ...}, ...]}`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise ValueError("a decisions file maps each gate name to a list of decisions")
    return {
        str(name): [DecisionItem.model_validate(item) for item in items]
        for name, items in data.items()
    }


def check_decisions(
    package: TeamPackage, thread_id: str, pending: Mapping[str, GateState], decisions: Decisions
) -> list[str]:
    """Every problem of the decisions, found on copies before anything runs."""
    problems: list[str] = []
    for name, items in decisions.items():
        gate = pending.get(name)
        if gate is None:
            problems.append(f"gate {quoted(name)} is not waiting for review in thread {thread_id}")
            continue
        trial = gate.model_copy(deep=True)
        spec = package.team.GATES[name]
        problems += apply_decisions(spec, trial, items, runtime.utc_now(), "check")
    return problems


def decisions_file(args: argparse.Namespace, problems: list[str]) -> Decisions:
    """`resume --decisions FILE`: its decisions; what is wrong with it goes to problems."""
    if args.decisions is None:
        return {}
    other = args.decisions.name.removesuffix(".decisions.json")
    if args.decisions.name.endswith(".decisions.json") and other != args.thread_id:
        # the runner's file for another thread: its record ids (r1, r2…) would match here too
        problems.append(
            f"{args.decisions} holds the decisions of thread {other}, not of {args.thread_id}: "
            f"resume {other} with it (or give it another name to use it here)"
        )
        return {}
    try:
        return read_decisions(args.decisions)
    except FileNotFoundError as error:
        problems.append(f"not found: {error.filename}")
    except OSError:  # a directory, a file not readable by this user
        problems.append(f"--decisions: cannot read {args.decisions}")
    except (ValueError, ValidationError) as error:
        problems.append(f"{args.decisions}: unreadable: {shortened(str(error))}")
    return {}


def resume_payload(
    runner: GateRunner,
    thread_id: str,
    snapshot: StateSnapshot,
    decisions: Decisions,
    problems: list[str],
    *,
    sweeping: bool = False,
) -> Command[Any]:
    """What resumes a thread waiting at its gates: the decisions (checked; problems go to
    `problems`), else those given at the terminal now. Without any, only a gate's timeout
    can move the thread on: a sweep's resume, or a gate past its deadline."""
    package = runner.package
    pending = pending_gates(snapshot)
    problems += check_decisions(package, thread_id, pending, decisions)
    if not decisions and _interactive(runner.args):
        decisions = runner.review_now(snapshot)
    if not decisions and not sweeping:
        problems += _undecided(runner, thread_id, pending)
    return resume_command(package, snapshot.interrupts, decisions)


def _undecided(runner: GateRunner, thread_id: str, pending: Mapping[str, GateState]) -> list[str]:
    """Why a resume without decisions is refused: it would ignore a filled-in decisions file
    (and write a blank one over it), or only wait again. None when a gate's timeout applies."""
    path = decisions_path(runner.args, thread_id)
    if filled(path, pending):
        where = f" ({path} holds your filled-in decisions)"
    elif overdue(runner.package.team.GATES, pending, runtime.utc_now()):
        return []
    else:
        where = f" (fill in {path})" if path.is_file() else ""
    return [
        f"no decisions given: pass --decisions FILE{where} or review at a terminal; "
        f"thread {thread_id} keeps waiting"
    ]


def _sweep_parser(package: TeamPackage) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command_name(package)} sweep",
        description="Resume every thread that waits at a gate whose timeout has passed, so "
        "its timeout.behaviour applies now (run it from cron). They go on with the models this "
        "environment gives (MODEL_<AGENT>, MODEL_OVERRIDE, else the definition's): a run's "
        "--model is not kept with it.",
    )
    add_location(parser)
    return parser


async def sweep_runs(package: TeamPackage, argv: Sequence[str]) -> int:
    """Resume each waiting thread with a gate past its deadline; non-zero if one failed."""
    args = _sweep_parser(package).parse_args(argv)
    now = runtime.utc_now()
    gates = package.team.GATES
    due: list[tuple[str, list[str]]] = []
    try:
        async with open_graph(package, args) as graph:
            for thread_id in await waiting_threads(package, graph):
                snapshot = await graph.aget_state(thread_config(package, thread_id))
                waiting = [interrupt.value["gate"] for interrupt in snapshot.interrupts]
                late = overdue(
                    gates, {name: gate_state(snapshot.values, name) for name in waiting}, now
                )
                if late:
                    due.append((thread_id, late))
    except httpx.TransportError as error:
        if not args.url:
            raise
        return unreachable(args.url, error)
    options = ["--state-dir", str(args.state_dir)]
    options += ["--env-file", args.env_file] if args.env_file else []
    options += ["--url", args.url] if args.url else []
    code = runtime.EXIT_OK
    for thread_id, late in due:
        print(f"Thread {thread_id}: {', '.join(late)} past the deadline; resuming", file=sys.stderr)
        result = await resume_run(package, [thread_id, "--no-interactive", *options], sweep=True)
        if result in (runtime.EXIT_FAILED, runtime.EXIT_CONFIG, runtime.EXIT_TIMEOUT):
            code = code or result
    if not due:
        print("No gate is past its deadline.", file=sys.stderr)
    return code
