"""Command-line runner of the team, for both execution modes (team.MODE).

`run` / `kickoff` start a run; in pipeline mode `resume RUN_ID --decisions FILE`
continues one that stopped at a gate. A team with workspace documents has `workspace ...`
(people's commands on the store) and `watch` (runs the team when a trigger fires).
Every required environment variable and input is checked before any model call; the
whole run is bounded by timeout.runMs (a reviewer's time at the terminal does not count).
The final result (outputs) is printed as JSON on stdout. Inputs come from inputs.json,
INPUT_<NAME> variables, --inputs and flags, and are asked for at a terminal
(checks.collect_inputs), so a bare `crewai run` works.

CrewAI's CLI runs `run` (`crewai run`) and `run_with_trigger` (`crewai triggers run`) from
here; its crew commands (`crewai train`, `replay`, `test`) are in crew_commands.py
(hierarchy teams), its flow command (`crewai flow plot`) in flow_runner.py (pipeline teams).

- hierarchy: the crew of crew.py (`crew.TeamCrew`) with the first root as its manager.
- pipeline: the Flow of flow.py (`flow.TeamFlow`), one crew per step, gates between.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from .. import crew, models, team
from .. import checks, redaction, trace
from . import crew_base, llms, runtime, tracing

PIPELINE = team.MODE == "pipeline"
STATE_DIR = ".envelope-runs"
INPUTS_FILE = "inputs.json"
"""Read for inputs when --inputs is not given (in the directory the runner runs in)."""

COMMAND = (__package__ or "team").split(".")[0]
"""The console script (pyproject.toml): the package's name, always a safe shell word."""

WORKSPACE = bool(getattr(team, "WORKSPACE", None))
"""The team has workspace documents (team.WORKSPACE; workspace.py ships only then)."""


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
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help=f"append the run's conversations to FILE as OpenWOP events (default: ${trace.ENV})",
    )


def _run_parser(prog: str = COMMAND, description: str = "") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description or f"Run the {team.NAME} team.",
        epilog=" ".join(_epilog()) or None,
    )
    # inputs: --inputs JSON and one flag per input (team.INPUTS); flags override --inputs,
    # which overrides INPUT_<NAME> variables, which override inputs.json
    checks.add_input_flags(parser, team.INPUTS)
    _common(parser)
    return parser


def _epilog() -> list[str]:
    """The runner's other commands, for --help."""
    lines = []
    if PIPELINE:
        lines.append(
            f"A run waiting at a review gate (exit 3) goes on with: {COMMAND} resume RUN_ID "
            "[--decisions FILE] (see --help there)."
        )
    if WORKSPACE:
        lines.append(
            f"The workspace documents: {COMMAND} workspace "
            "list|show|edit|import|export|archive|delete ... (see --help there)."
        )
        if _has_triggers():
            lines.append(
                f"{COMMAND} watch [--once] [--interval S] [-- RUN OPTIONS] evaluates the "
                "workspace triggers: runs the team or notifies when one fires."
            )
    return lines


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


def _missing_env(env_file: str | None) -> list[str]:
    load_dotenv(env_file or ".env", override=False)
    # requiredSecrets, requiredVariables, the provider keys of the models an `llm:` in
    # agents.yaml does not replace, the default embedder's key when knowledge/ has files:
    # all missing ones at once
    replaced = crew_base.configured_llms()
    own = {key: spec for key, spec in models.MODELS.items() if key not in replaced}
    knowledge = crew_base.knowledge_files() and crew.TeamCrew.embedder is None
    embedder = ["OPENAI_API_KEY"] if knowledge else []
    # and the connection packs' credentials (team.CONNECTION_SECRETS, --connections)
    packs = getattr(team, "CONNECTION_SECRETS", ())
    return checks.missing_env(
        [*team.SECRETS, *team.VARIABLES, *packs, *llms.required_env(own), *embedder], os.environ
    )


# --- hierarchy mode ----------------------------------------------------------


def _run_crew(inputs: dict[str, Any], verbose: bool, trace_file: str | None = None) -> int:
    team_crew = crew.TeamCrew(inputs, verbose)
    try:
        with tracing.traced(trace_file, None, team_crew):
            output = runtime.run_with_deadline(
                lambda: crew_base.kickoff(team_crew.crew()), runtime.Deadline(team.RUN_TIMEOUT_MS)
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
        return _run_crew(inputs, args.verbose, args.trace)
    return _flows().start_run(args, inputs)


def resume_run(argv: Sequence[str]) -> int:
    if not PIPELINE:
        print(f"{team.NAME} has no pipeline: there is no run to resume.", file=sys.stderr)
        return runtime.EXIT_CONFIG
    return _flows().resume_run(argv)


def sweep_runs(argv: Sequence[str]) -> int:
    if not PIPELINE:
        print(f"{team.NAME} has no pipeline: there is no run to sweep.", file=sys.stderr)
        return runtime.EXIT_CONFIG
    return _flows().sweep_runs(argv)


def _flows() -> Any:
    """pipeline mode: flow_runner.py, which a team without a pipeline does not ship."""
    return importlib.import_module(".flow_runner", __package__)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["resume"]:
        return resume_run(arguments[1:])
    if arguments[:1] == ["sweep"]:
        return sweep_runs(arguments[1:])
    if WORKSPACE and arguments[:1] in (["workspace"], ["watch"]):
        return _workspace_command(arguments[0], arguments[1:])
    scheduled = _schedule_command(arguments)
    if scheduled is not None:
        return scheduled
    return start_run(arguments)


def _has_triggers() -> bool:
    return any(spec.triggers for spec in getattr(team, "WORKSPACE", {}).values())


def _workspace_command(name: str, arguments: list[str]) -> int:
    """`workspace ...` (workspace.workspace_command) and `watch ...` (workspace.watch_command,
    each fired `run` trigger starting a run with the options after `--`), on the store the
    agents' tools use (workspace_tools.open_workspace)."""
    from .. import workspace
    from . import workspace_tools

    load_dotenv(".env", override=False)  # ENVELOPE_WORKSPACE_DB may be set there
    store = workspace_tools.open_workspace()
    if name == "workspace":
        runs = workspace_tools.StoredRuns(Path(STATE_DIR))
        return workspace.workspace_command(arguments, store, COMMAND, runs)
    if not _has_triggers():
        print(
            f"{team.NAME} declares no workspace trigger (workspace[].triggers): "
            "watch has nothing to evaluate.",
            file=sys.stderr,
        )
        return runtime.EXIT_CONFIG
    return workspace.watch_command(arguments, store, start_run, COMMAND)


def _schedule_command(arguments: list[str]) -> int | None:
    """`serve-webhook` / `poll`: schedule_commands.py, shipped to event and condition teams."""
    if importlib.util.find_spec(f"{__package__}.schedule_commands") is None:
        return None
    commands: Any = importlib.import_module(".schedule_commands", __package__)
    code: int | None = commands.main(arguments)
    return code


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


if __name__ == "__main__":
    run()
