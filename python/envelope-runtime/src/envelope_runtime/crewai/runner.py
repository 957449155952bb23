"""The team's command line: a run (`crewai run`) of its crew (hierarchy) or its Flow
(pipeline, flow_runner.py), every variable and input checked before any model call, bounded
by timeout.runMs, its result printed as JSON on stdout; and the pipeline's `resume`/`sweep`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from dotenv import load_dotenv

from .. import redaction
from ..team_package import TeamPackage
from . import runtime

if TYPE_CHECKING:
    from ..input_spec import InputSpec
    from ..workspace import Workspace
    from .crew_base import TeamCrewBase

STATE_DIR = ".envelope-runs"
INPUTS_FILE = "inputs.json"  # read for inputs when --inputs is not given
TRACE_ENV = "ENVELOPE_TRACE_FILE"  # trace.ENV: a run without a trace does not import trace.py


def command_of(package: TeamPackage) -> str:
    return package.name.split(".")[0]


def _pipeline(package: TeamPackage) -> bool:
    return bool(package.team.MODE == "pipeline")


def _has_workspace(package: TeamPackage) -> bool:
    return bool(getattr(package.team, "WORKSPACE", None))


def traced(
    path: str | None, run_id: str | None, team_crew: TeamCrewBase
) -> AbstractContextManager[None]:
    """tracing.traced when the run has a trace (--trace, else $ENVELOPE_TRACE_FILE)."""
    path = path or os.environ.get(TRACE_ENV) or None
    if path is None:
        return nullcontext()
    from . import tracing

    return tracing.traced(path, run_id, team_crew)


def _common(package: TeamPackage, parser: argparse.ArgumentParser) -> None:
    pipeline = _pipeline(package)
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    if pipeline:
        parser.add_argument("--state-dir", default=STATE_DIR, help="where runs are kept")
    parser.add_argument(
        "--interactive",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=(
            "ask for missing required inputs"
            + (" and review gates" if pipeline else "")
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
        help=f"append the run's conversations to FILE as OpenWOP events (default: ${TRACE_ENV})",
    )


def run_parser(
    package: TeamPackage, prog: str | None = None, description: str = ""
) -> argparse.ArgumentParser:
    """The parser of a run's command line: its options and one flag per input; its epilog
    names the runner's other commands."""
    epilog = []
    if _pipeline(package):
        epilog.append(
            f"A run waiting at a review gate (exit 3) goes on with: {command_of(package)} "
            "resume RUN_ID [--decisions FILE] (see --help there); "
            f"{command_of(package)} sweep applies the gates' timeouts (run it from cron)."
        )
    if _has_workspace(package):
        from . import other_commands

        epilog += other_commands.workspace_epilog(package)
    parser = argparse.ArgumentParser(
        prog=prog or command_of(package),
        description=description or f"Run the {package.team.NAME} team.",
        epilog=" ".join(epilog) or None,
    )
    from .. import inputs as run_inputs  # a command's flags and checks: a build loads none

    run_inputs.add_input_flags(parser, package.team.INPUTS)
    _common(package, parser)
    return parser


def _ask_input(name: str, spec: InputSpec) -> str | None:
    """Ask for one required input at the terminal (on stderr: stdout carries the result)."""
    details = [spec.type, *(["one of " + ", ".join(spec.enum)] if spec.enum else [])]
    about = f" - {spec.description}" if spec.description else ""
    print(f"{name}{about} ({'; '.join(details)}): ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    return answer.rstrip("\r\n") or None


def _missing_env(package: TeamPackage, env_file: str | None) -> list[str]:
    from .. import inputs as run_inputs
    from . import crew_base, llms  # CrewAI's import: a run's, not `--help`'s or `workspace`'s

    load_dotenv(env_file or ".env", override=False)
    team = package.team
    # the provider keys of models an `llm:` in agents.yaml does not replace and of each
    # `provider/model` it names (an @llm method's name, no '/': the developer's model), the
    # default embedder's key when knowledge/ has files, the packs' credentials: all at once
    replaced = crew_base.configured_llms(package)
    own = {key: spec for key, spec in package.models.MODELS.items() if key not in replaced}
    ids = [model for model in replaced.values() if isinstance(model, str) and "/" in model]
    packs = getattr(team, "CONNECTION_SECRETS", ())
    needed = [*team.SECRETS, *team.VARIABLES, *packs, *llms.required_env(own, ids)]
    if crew_base.knowledge_files() and package.module("crew").TeamCrew.embedder is None:
        needed.append("OPENAI_API_KEY")  # CrewAI's default embedder
    return run_inputs.missing_env(needed, os.environ)


# --- hierarchy mode ----------------------------------------------------------


def _run_crew(
    package: TeamPackage, inputs: dict[str, Any], verbose: bool, trace_file: str | None = None
) -> int:
    from .crew_base import kickoff
    from .deadline import Deadline, RunTimeout, run_with_deadline

    team = package.team
    team_crew = package.module("crew").TeamCrew(inputs, verbose)
    try:
        with traced(trace_file, None, team_crew):
            output = run_with_deadline(
                lambda: kickoff(team_crew.crew()), Deadline(team.RUN_TIMEOUT_MS)
            )
    except RunTimeout as error:
        print(str(error), file=sys.stderr)
        return runtime.EXIT_TIMEOUT
    except Exception as error:  # noqa: BLE001 - any failure ends the run with a message
        print(f"Run failed: {failure(package, error)}", file=sys.stderr)
        return runtime.EXIT_FAILED
    result = output.pydantic
    if not isinstance(result, team.TeamResult):
        print("The final answer does not match the team's outputs:", file=sys.stderr)
        print(output.raw, file=sys.stderr)
        return runtime.EXIT_FAILED
    print(json.dumps(result.model_dump(by_alias=True), indent=2, ensure_ascii=False))
    return runtime.EXIT_OK


def failure(package: TeamPackage, error: BaseException) -> str:
    """`Type: message` of an error, without the team's secret values: its text may echo a
    prompt they were filled into."""
    secrets = redaction.secret_values(package.team.SECRETS)
    return redaction.redact(f"{type(error).__name__}: {error}", secrets)


def _warn_short_secrets(package: TeamPackage) -> None:
    warning = redaction.short_secrets(package.team.SECRETS, os.environ)
    if warning is not None:
        print(warning, file=sys.stderr)


# --- commands ----------------------------------------------------------------


def _checked_inputs(
    package: TeamPackage, args: argparse.Namespace, base: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The run's inputs once every check passes, else None (every problem printed). `base`:
    inputs under the command line's (a trigger's). Asks at the terminal for missing inputs
    only when nothing else is wrong."""
    from .. import inputs as run_inputs
    from . import llms

    missing = _missing_env(package, args.env_file)
    problems = run_inputs.env_file_problems(args.env_file) + llms.factory_problems(
        package.models.MODELS
    )
    interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
    ask = interactive and not (missing or problems)
    try:
        inputs = run_inputs.collect_inputs(
            args,
            package.team.TeamInputs,
            inputs_file=INPUTS_FILE,
            environ=os.environ,
            base=base,
            ask=_ask_input if ask else None,
        )
    except run_inputs.InputError as error:
        problems += error.problems
        if any(problem.endswith("is required") for problem in error.problems):
            problems.append(
                f"give inputs in {INPUTS_FILE}, as INPUT_<NAME> variables (.env too), "
                "with --inputs or with flags (see --help)"
            )
    if run_inputs.report_problems(missing, problems, args.env_file or ".env"):
        return None
    _warn_short_secrets(package)
    return inputs


def start_run(package: TeamPackage, argv: Sequence[str], base: dict[str, Any] | None = None) -> int:
    """Start a run; `base`: inputs under every source but the command line (a trigger's)."""
    args = run_parser(package).parse_args(argv)
    inputs = _checked_inputs(package, args, base)
    if inputs is None:
        return runtime.EXIT_CONFIG
    if not _pipeline(package):
        return _run_crew(package, inputs, args.verbose, args.trace)
    from . import flow_runner

    return flow_runner.start_run(package, args, inputs)


def _exit(code: int) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    if code in (runtime.EXIT_TIMEOUT, runtime.EXIT_INTERRUPTED, runtime.EXIT_TERMINATED):
        # Do not wait for the abandoned worker thread: its in-flight model call, or a gate's
        # prompt, which Python's shutdown may not wait for either (a daemon thread holding
        # stdin's lock aborts it).
        os._exit(code)
    sys.exit(code)


class TeamCommands:
    """One team's console scripts (main.py, [project.scripts]): `run` (`crewai run`),
    `run_with_trigger` (`crewai triggers run`), and `main(argv)`, the command line."""

    def __init__(self, package: TeamPackage) -> None:
        self.package = package
        self.command = command_of(package)  # the team's console script, its package's name

    def main(self, argv: Sequence[str] | None = None) -> int:
        """The command line (default: sys.argv) to its exit code: a run, or `resume`,
        `sweep`, `workspace`, `watch`, `serve-webhook`, `poll` where the team has them."""
        package = self.package
        arguments = list(sys.argv[1:] if argv is None else argv)
        command = arguments[0] if arguments else None
        if command in ("resume", "sweep"):
            if not _pipeline(package):
                name = package.team.NAME
                print(f"{name} has no pipeline: there is no run to {command}.", file=sys.stderr)
                return runtime.EXIT_CONFIG
            from .flow_resume import resume_run, sweep_runs

            return (resume_run if command == "resume" else sweep_runs)(package, arguments[1:])
        if command in ("workspace", "watch", "serve-webhook", "poll"):
            from . import other_commands

            found = other_commands.main(package, arguments)
            if found is not None:
                return found
        return start_run(package, arguments)

    def run(self) -> None:
        """A run of the team from sys.argv, or another command (`<package> --help`)."""
        _exit(self.main())

    def run_with_trigger(self) -> None:
        """`run_with_trigger PAYLOAD [options]`: a run from a trigger's JSON payload."""
        from . import other_commands

        _exit(other_commands.run_with_trigger(self.package))

    def workspace(self) -> Workspace:
        """The team's workspace store, the one its agents' tools and commands use."""
        from .workspace_store import open_workspace

        return open_workspace(self.package)


class CrewCommands(TeamCommands):
    """A hierarchy team's: also CrewAI's `train`, `replay`, `test` (crew_commands.py)."""

    def train(self) -> None:
        from . import crew_commands

        crew_commands.train(self.package)

    def replay(self) -> None:
        from . import crew_commands

        crew_commands.replay(self.package)

    def test(self) -> None:
        from . import crew_commands

        crew_commands.test(self.package)
