"""`resume` and `sweep` of the runner's pipeline mode (flow_runner.py runs the flow): the
decisions file read and checked before anything runs, waiting runs past a gate's timeout
resumed. Loaded by these commands only.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dotenv import load_dotenv
from pydantic import ValidationError

from ..checks import resume_options
from ..echo import quoted
from ..inputs import env_file_problems, report_problems
from ..team_package import TeamPackage
from . import llms, runtime, state
from .flow_runner import _run_flow
from .runner import STATE_DIR, _common, _missing_env, _warn_short_secrets, command_of
from .state import RunState, RunStore

__all__ = ["resume_run", "sweep_runs"]


def _resume_parser(package: TeamPackage) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command_of(package)} resume", description="Continue a run that waits at a gate."
    )
    parser.add_argument("run_id")
    parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
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


def resume_run(package: TeamPackage, argv: Sequence[str], *, swept: bool = False) -> int:
    """Resume the run; when another process took it meanwhile (the database's runs), nothing
    is done here: an error for a person, not for `sweep` (`swept`), whose other copy has it."""
    args = _resume_parser(package).parse_args(argv)
    missing = _missing_env(package, args.env_file)
    store = RunStore.of(package.team, args.state_dir)
    problems = env_file_problems(args.env_file) + llms.factory_problems(package.models.MODELS)
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
    if report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    if not store.claim(run.id):
        print(f"{store.where(run.id)}: resumed by another process meanwhile", file=sys.stderr)
        return runtime.EXIT_OK if swept else runtime.EXIT_CONFIG
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
    load_dotenv(args.env_file or ".env", override=False)  # DATABASE_URL may be set there
    store, now = RunStore(args.state_dir), state.utc_now()
    due: list[tuple[str, list[str]]] = []
    for run_id in store.run_ids():
        try:
            run = store.load(run_id)
        except (OSError, ValueError) as error:  # one unreadable run stops no other
            print(f"{store.where(run_id)}: skipped, unreadable: {error}", file=sys.stderr)
            continue
        if run.status == "pending" and run.gates:
            from ..gate_rules import timed_out

            gates = package.team.GATES
            late = [n for n, gate in run.gates.items() if timed_out(gates[n], gate, now)]
            due += [(run.id, late)] if late else []
    options = resume_options(args.state_dir, STATE_DIR, args.env_file)
    code = runtime.EXIT_OK
    for run_id, late in due:
        print(f"Run {run_id}: {', '.join(late)} past the deadline; resuming", file=sys.stderr)
        result = resume_run(package, [run_id, "--no-interactive", *options], swept=True)
        if result in (runtime.EXIT_FAILED, runtime.EXIT_CONFIG, runtime.EXIT_TIMEOUT):
            code = code or result
    if not due:
        print("No gate is past its deadline.", file=sys.stderr)
    return code
