"""Command-line runner of the team, for both execution modes (team.MODE).

`run` / `kickoff` start a run; in pipeline mode `resume RUN_ID --decisions FILE`
continues one that stopped at a gate. Every required environment variable and input is
checked before any model call; the whole run is bounded by timeout.runMs (a reviewer's
time at the terminal does not count). The final result (outputs) is printed as JSON on
stdout. Inputs come from inputs.json, INPUT_<NAME> variables, --inputs and flags, and are
asked for at a terminal (checks.collect_inputs), so a bare `crewai run` works.

The scripts CrewAI's CLI runs are at the end: `train`, `replay`, `test` (crews: `crewai
train`, `crewai replay`, `crewai test`), `plot` (flows: `crewai flow plot`) and
`run_with_trigger` (`crewai triggers run`).

- hierarchy: the crew of crew.py (`crew.TeamCrew`) with the first root as its manager.
- pipeline: the Flow of flow.py (`flow.TeamFlow`), one crew per step, gates between.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from crewai import Crew
from dotenv import load_dotenv
from pydantic import ValidationError

from . import crew, models, team
from .envelope_support import checks, delegation, llms, redaction, runtime, state, texts
from .envelope_support.gates import (
    DecisionItem,
    DeferredReviewer,
    Reviewer,
    TerminalReviewer,
    apply_decisions,
    timed_out,
)
from .envelope_support.state import RunState, RunStore

PIPELINE = team.MODE == "pipeline"
STATE_DIR = ".envelope-runs"
INPUTS_FILE = "inputs.json"
"""Read for inputs when --inputs is not given (in the directory the runner runs in)."""

COMMAND = __package__ or "team"
"""The console script (pyproject.toml): the package's name, always a safe shell word."""


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    if PIPELINE:
        parser.add_argument("--state-dir", default=STATE_DIR, help="where runs are kept")
    parser.add_argument(
        "--interactive",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=(
            "ask for missing required inputs"
            + (" and review gates" if PIPELINE else "")
            + " at the terminal (default: when stdin is a terminal)"
        ),
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="show CrewAI's progress: every prompt and task as the model receives it",
    )


def _run_parser(prog: str = COMMAND, description: str = "") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description or f"Run the {team.NAME} team.",
        epilog=(
            f"A run waiting at a review gate (exit 3) goes on with: {COMMAND} resume RUN_ID "
            "[--decisions FILE] (see --help there)."
            if PIPELINE
            else None
        ),
    )
    # inputs: --inputs JSON and one flag per input (team.INPUTS); flags override --inputs,
    # which overrides INPUT_<NAME> variables, which override inputs.json
    checks.add_input_flags(parser, team.INPUTS)
    _common(parser)
    return parser


def _interactive(args: argparse.Namespace) -> bool:
    return sys.stdin.isatty() if args.interactive is None else bool(args.interactive)


def _ask_input(name: str, spec: checks.InputSpec) -> str | None:
    """Ask for one required input at the terminal (on stderr: stdout carries the result)."""
    details = [spec.type, *(["one of " + ", ".join(spec.enum)] if spec.enum else [])]
    about = f" - {spec.description}" if spec.description else ""
    print(f"{name}{about} ({'; '.join(details)}): ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    return answer.rstrip("\r\n") or None


def _collect_inputs(
    args: argparse.Namespace, ask: bool, base: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The run's inputs and every problem with them (checks.collect_inputs)."""
    try:
        inputs = checks.collect_inputs(
            args,
            team.INPUTS,
            inputs_file=INPUTS_FILE,
            environ=os.environ,
            base=base,
            ask=_ask_input if ask and _interactive(args) else None,
        )
    except checks.InputError as error:
        problems = list(error.problems)
        if any(problem.endswith("is required") for problem in problems):
            problems.append(
                f"give inputs in {INPUTS_FILE}, as INPUT_<NAME> variables (.env too), "
                "with --inputs or with flags (see --help)"
            )
        return {}, problems
    return inputs, []


def _resume_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{COMMAND} resume", description="Continue a run that waits at a gate."
    )
    parser.add_argument("run_id")
    parser.add_argument("--decisions", type=Path, help="decisions file (JSON)")
    _common(parser)
    return parser


def _missing_env(env_file: str | None) -> list[str]:
    load_dotenv(env_file or ".env", override=False)
    # requiredSecrets, requiredVariables, provider keys: all missing ones at once
    return checks.missing_env(
        [*team.SECRETS, *team.VARIABLES, *llms.required_env(models.MODELS)], os.environ
    )


# --- hierarchy mode ----------------------------------------------------------


def _run_crew(inputs: dict[str, Any], verbose: bool) -> int:
    try:
        output = runtime.run_with_deadline(
            lambda: delegation.kickoff(crew.TeamCrew(inputs, verbose).crew()),
            runtime.Deadline(team.RUN_TIMEOUT_MS),
        )
    except runtime.RunTimeout as error:
        print(str(error), file=sys.stderr)
        return runtime.EXIT_TIMEOUT
    except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
        print(f"Run failed: {type(error).__name__}: {error}", file=sys.stderr)
        return runtime.EXIT_FAILED
    result = output.pydantic
    if not isinstance(result, team.TeamResult):
        print("The final answer does not match the team's outputs:", file=sys.stderr)
        print(output.raw, file=sys.stderr)
        return runtime.EXIT_FAILED
    print(json.dumps(result.model_dump(by_alias=True), indent=2, ensure_ascii=False))
    return runtime.EXIT_OK


# --- pipeline mode -----------------------------------------------------------


def _reviewer(args: argparse.Namespace, decisions: dict[str, list[DecisionItem]]) -> Reviewer:
    interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
    if interactive and not decisions:
        return TerminalReviewer()
    return DeferredReviewer(decisions)


def _secret_values() -> list[str]:
    return [os.environ[name] for name in team.SECRETS if os.environ.get(name)]


def _run_flow(run: RunState, store: RunStore, args: argparse.Namespace, reviewer: Reviewer) -> int:
    verbose: bool = args.verbose
    flow_module = importlib.import_module(".flow", __package__)
    pipeline_flow = flow_module.TeamFlow(suppress_flow_events=not verbose)
    pipeline_flow.state.run = run
    pipeline_flow.configure(crew.TeamCrew(run.inputs, verbose), store, reviewer)
    run.status, run.message = "running", None
    store.save(run)
    options = checks.resume_options(args.state_dir, STATE_DIR, args.env_file)
    # timeout.runMs counts the working time of every process that worked on the run.
    deadline = runtime.Deadline(team.RUN_TIMEOUT_MS, spent_ms=run.spent_ms)
    try:
        if deadline.expired():
            raise runtime.RunTimeout(deadline.message())
        runtime.run_with_deadline(pipeline_flow.kickoff, deadline)
    except runtime.RunTimeout as error:
        run.status, run.message = "timed_out", str(error)
        return _stopped(run, store, deadline, runtime.EXIT_TIMEOUT, str(error))
    except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
        run.status, run.message = "failed", f"{type(error).__name__}: {error}"
        command = shlex.join([COMMAND, "resume", run.run_id, *options])
        message = (
            f"Run failed: {run.message}\nFinished steps and decisions are kept; "
            f"continue from the last finished step with: {command}"
        )
        return _stopped(run, store, deadline, runtime.EXIT_FAILED, message)
    run.spent_ms += deadline.used_ms()
    return _finish(run, store, options)


def _stopped(
    run: RunState, store: RunStore, deadline: runtime.Deadline, code: int, message: str
) -> int:
    run.spent_ms += deadline.used_ms()
    store.save(run)
    print(message, file=sys.stderr)
    return code


def _finish(run: RunState, store: RunStore, options: Sequence[str]) -> int:
    if run.status == "halted":
        store.save(run)
        print(f"Run {run.run_id} halted: {run.message}", file=sys.stderr)
        return runtime.EXIT_HALTED
    if run.status == "pending":
        print(json.dumps(_pending_summary(run, store, options), indent=2, ensure_ascii=False))
        return runtime.EXIT_PENDING
    run.status = "done"
    store.save(run)
    print(json.dumps(run.result, indent=2, ensure_ascii=False))
    return runtime.EXIT_OK


def _pending_summary(run: RunState, store: RunStore, options: Sequence[str]) -> dict[str, Any]:
    """Write a decisions template beside the run and describe what awaits review."""
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
            [COMMAND, "resume", run.run_id, "--decisions", os.path.relpath(template), *options]
        ),
    }


def _read_decisions(path: Path) -> dict[str, list[DecisionItem]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: [DecisionItem.model_validate(item) for item in entry.get("decisions", [])]
        for name, entry in data.get("gates", {}).items()
    }


def _check_decisions(run: RunState, decisions: dict[str, list[DecisionItem]]) -> list[str]:
    problems: list[str] = []
    for name, items in decisions.items():
        gate = run.gates.get(name)
        if name not in team.GATES or gate is None or gate.status != "waiting":
            problems.append(f"gate {name!r} is not waiting for review in run {run.run_id}")
            continue
        trial = copy.deepcopy(gate)
        problems += apply_decisions(team.GATES[name], trial, items, state.utc_now(), "check")
    return problems


def _warn_short_secrets() -> None:
    warning = redaction.short_secrets(team.SECRETS, os.environ)
    if warning is not None:
        print(warning, file=sys.stderr)


# --- commands ----------------------------------------------------------------


def _checked_inputs(
    args: argparse.Namespace, base: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The run's inputs once the environment and the inputs pass every check; None (every
    problem printed) when they do not. `base`: inputs under the command line's (a trigger's)."""
    missing = _missing_env(args.env_file)
    problems = checks.env_file_problems(args.env_file) + llms.factory_problems(models.MODELS)
    inputs, input_problems = _collect_inputs(args, not (missing or problems), base)
    if checks.report_problems(missing, problems + input_problems, args.env_file or ".env"):
        return None
    _warn_short_secrets()
    return inputs


def start_run(argv: Sequence[str], base: dict[str, Any] | None = None) -> int:
    """Start a run; `base`: inputs under every source but the command line (a trigger's)."""
    args = _run_parser().parse_args(argv)
    inputs = _checked_inputs(args, base)
    if inputs is None:
        return runtime.EXIT_CONFIG
    if not PIPELINE:
        return _run_crew(inputs, args.verbose)
    store = RunStore(Path(args.state_dir), _secret_values())
    run = RunState(
        run_id=state.new_run_id(),
        team=team.SLUG,
        version=team.VERSION,
        created_at=state.utc_now(),
        inputs=inputs,
    )
    print(f"Run {run.run_id} (state: {store.path(run.run_id)})", file=sys.stderr)
    return _run_flow(run, store, args, _reviewer(args, {}))


def resume_run(argv: Sequence[str]) -> int:
    if not PIPELINE:
        print(f"{team.NAME} has no pipeline: there is no run to resume.", file=sys.stderr)
        return runtime.EXIT_CONFIG
    args = _resume_parser().parse_args(argv)
    missing = _missing_env(args.env_file)
    store = RunStore(Path(args.state_dir), _secret_values())
    problems = checks.env_file_problems(args.env_file) + llms.factory_problems(models.MODELS)
    decisions: dict[str, list[DecisionItem]] = {}
    run = RunState()
    try:
        run = store.load(args.run_id)
        if args.decisions is not None:
            decisions = _read_decisions(args.decisions)
    except FileNotFoundError as error:
        problems.append(f"not found: {error.filename}")
    except (ValueError, ValidationError) as error:
        problems.append(f"unreadable: {error}")
    if not problems and run.status == "failed" and decisions:
        problems.append(
            f"run {args.run_id} is not waiting for review: it stopped on an error; "
            "resume it without --decisions"
        )
    elif not problems and run.status not in ("pending", "failed"):
        problems.append(f"run {args.run_id} is not waiting for review (status: {run.status})")
    if not problems:
        problems = _check_decisions(run, decisions)
    if checks.report_problems(missing, problems, args.env_file or ".env"):
        return runtime.EXIT_CONFIG
    _warn_short_secrets()
    return _run_flow(run, store, args, _reviewer(args, decisions))


def _sweep_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{COMMAND} sweep",
        description="Resume every run that waits at a gate whose timeout has passed, so its "
        "timeout.behaviour applies now (run it from cron).",
    )
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    parser.add_argument("--state-dir", default=STATE_DIR, help="where runs are kept")
    return parser


def sweep_runs(argv: Sequence[str]) -> int:
    """Resume each waiting run with a gate past its deadline; exit non-zero if one failed."""
    if not PIPELINE:
        print(f"{team.NAME} has no pipeline: there is no run to sweep.", file=sys.stderr)
        return runtime.EXIT_CONFIG
    args = _sweep_parser().parse_args(argv)
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
        late = [
            name
            for name, gate in run.gates.items()
            if run.status == "pending" and timed_out(team.GATES[name], gate, now)
        ]
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
        result = resume_run([run_id, "--no-interactive", *options])
        if result in (runtime.EXIT_FAILED, runtime.EXIT_CONFIG, runtime.EXIT_TIMEOUT):
            code = code or result
    if not due:
        print("No gate is past its deadline.", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["resume"]:
        return resume_run(arguments[1:])
    if arguments[:1] == ["sweep"]:
        return sweep_runs(arguments[1:])
    return start_run(arguments)


def _exit(code: int) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    if code == runtime.EXIT_TIMEOUT:
        # Do not wait for an in-flight model call of the abandoned worker thread.
        os._exit(code)
    sys.exit(code)


def run() -> None:
    """Console scripts `<package>`, `run_crew` (`crewai run`) and `kickoff`."""
    _exit(main())


kickoff = run


def resume() -> None:
    """Console script `resume RUN_ID --decisions FILE` (pipeline mode)."""
    _exit(resume_run(sys.argv[1:]))


TRIGGER_PAYLOAD = "crewai_trigger_payload"


def trigger_inputs(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The inputs a trigger's JSON gives, and the payload keys no input takes.

    `{"crewai_trigger_payload": PAYLOAD, <input>: value, ...}` (CrewAI's shape): the
    payload's keys that name inputs, under the inputs given beside it; any other object
    (what `crewai triggers run` sends, or plain inputs) is the payload itself."""
    explicit = dict(data)
    payload = explicit.pop(TRIGGER_PAYLOAD) if TRIGGER_PAYLOAD in explicit else explicit
    if payload is explicit:
        explicit = {}
    if not isinstance(payload, dict):
        return explicit, [] if payload is None else [f"all of it (a {type(payload).__name__})"]
    given = {key: value for key, value in payload.items() if key in team.INPUTS}
    unused = [key for key in payload if key not in team.INPUTS]
    return {**given, **explicit}, unused


def run_with_trigger() -> None:
    """Console script `run_with_trigger PAYLOAD [options]` (`crewai triggers run`): PAYLOAD is
    a JSON object, a trigger payload or the inputs (trigger_inputs); the other inputs come
    from the usual sources (inputs.json, INPUT_<NAME>, --inputs, flags)."""
    if len(sys.argv) < 2:
        print("usage: run_with_trigger '<JSON trigger payload or inputs>'", file=sys.stderr)
        _exit(runtime.EXIT_CONFIG)
    try:
        data = checks.strict_json(sys.argv[1])
    except ValueError as error:
        print(f"run_with_trigger: the payload is not valid JSON: {error}", file=sys.stderr)
        _exit(runtime.EXIT_CONFIG)
    if not isinstance(data, dict):
        print("run_with_trigger: the payload must be a JSON object", file=sys.stderr)
        _exit(runtime.EXIT_CONFIG)
    base, unused = trigger_inputs(data)
    if unused:
        print(
            f"Trigger payload: not inputs of this team, unused: {', '.join(unused)}",
            file=sys.stderr,
        )
    _exit(start_run(sys.argv[2:], base))


# --- CrewAI's crew commands: train, replay, test (hierarchy mode) ------------


def _crew_command(
    prog: str,
    description: str,
    positionals: Sequence[tuple[str, Callable[[str], Any], str]],
    action: Callable[[Crew, argparse.Namespace, dict[str, Any]], object],
) -> int:
    """Check env and inputs as a run does, build the team's crew, then `action` on it."""
    if PIPELINE:
        print(
            f"`{prog}` is a crew command: {team.NAME} is a flow (pipeline); CrewAI defines "
            "train, replay and test for crews only.",
            file=sys.stderr,
        )
        return runtime.EXIT_CONFIG
    parser = _run_parser(prog, description)
    for name, kind, text in positionals:
        parser.add_argument(name, type=kind, help=text)
    args = parser.parse_args(sys.argv[1:])
    inputs = _checked_inputs(args)
    if inputs is None:
        return runtime.EXIT_CONFIG
    rounds = max(1, getattr(args, "n_iterations", 1))

    def act() -> object:
        team_crew = crew.TeamCrew(inputs, args.verbose).crew()
        # CrewAI interpolates {word} with these inputs: texts.crewai_inputs keeps every
        # text of the crew as it is.
        return action(team_crew, args, texts.crewai_inputs(team_crew, inputs))

    try:
        runtime.run_with_deadline(act, runtime.Deadline(team.RUN_TIMEOUT_MS * rounds))
    except runtime.RunTimeout as error:
        print(str(error), file=sys.stderr)
        return runtime.EXIT_TIMEOUT
    except Exception as error:  # noqa: BLE001 - any failure ends the command with a message
        print(f"{prog} failed: {type(error).__name__}: {error}", file=sys.stderr)
        return runtime.EXIT_FAILED
    return runtime.EXIT_OK


def _positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return number


_ITERATIONS = ("n_iterations", _positive, "how many runs")


def train() -> None:
    """Console script `train N FILE` (`crewai train -n N -f FILE`): Crew.train, which asks
    for feedback on each answer at the terminal and saves what it learnt in FILE."""
    _exit(
        _crew_command(
            "train",
            f"Train the {team.NAME} crew (CrewAI's Crew.train).",
            [_ITERATIONS, ("filename", str, "the trained agents file (.pkl)")],
            lambda c, a, i: c.train(n_iterations=a.n_iterations, filename=a.filename, inputs=i),
        )
    )


def replay() -> None:
    """Console script `replay TASK_ID` (`crewai replay -t TASK_ID`; the ids are listed by
    `crewai log-tasks-outputs`): Crew.replay from that task of the last run, with this
    run's inputs."""
    _exit(
        _crew_command(
            "replay",
            f"Replay the last run of the {team.NAME} crew from a task (Crew.replay).",
            [("task_id", str, "a task id from `crewai log-tasks-outputs`")],
            lambda c, a, i: _print_output(c.replay(task_id=a.task_id, inputs=i)),
        )
    )


def test() -> None:
    """Console script `test N MODEL` (`crewai test -n N -m MODEL`): Crew.test, N runs scored
    by MODEL (a CrewAI model name such as openai/gpt-4o-mini)."""
    _exit(
        _crew_command(
            "test",
            f"Test the {team.NAME} crew and score its tasks (Crew.test).",
            [_ITERATIONS, ("eval_llm", str, "the model that scores the answers")],
            lambda c, a, i: c.test(n_iterations=a.n_iterations, eval_llm=a.eval_llm, inputs=i),
        )
    )


def _print_output(output: Any) -> None:
    result = getattr(output, "pydantic", None)
    if isinstance(result, team.TeamResult):
        print(json.dumps(result.model_dump(by_alias=True), indent=2, ensure_ascii=False))
    else:
        print(getattr(output, "raw", output))


# --- CrewAI's flow command: plot (pipeline mode) -----------------------------


def plot() -> None:
    """Console script `plot` (`crewai flow plot`): Flow.plot, the pipeline as an HTML page
    (crewai_flow.html), opened in a browser when run at a terminal."""
    if not PIPELINE:
        print(f"{team.NAME} has no pipeline: there is no flow to plot.", file=sys.stderr)
        _exit(runtime.EXIT_CONFIG)
    flow_module = importlib.import_module(".flow", __package__)
    path = flow_module.TeamFlow(suppress_flow_events=True).plot(show=sys.stdout.isatty())
    print(path)
    _exit(runtime.EXIT_OK)


if __name__ == "__main__":
    run()
