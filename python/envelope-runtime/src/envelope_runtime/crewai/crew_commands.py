"""CrewAI's crew commands for the team's crew: `train`, `replay`, `test`.

Console scripts of a hierarchy team (a crew; CrewAI defines these for crews only), run by
`crewai train -n N -f FILE`, `crewai replay -t TASK_ID` and `crewai test -n N -m MODEL`:
the methods of `CrewCommands`, which the team's main.py makes for its `TeamPackage`.
Each checks the environment and the inputs as a run does (runner.py), then builds the
team's crew and calls CrewAI's own Crew.train, Crew.replay or Crew.test on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from crewai import Crew

from ..team_package import TeamPackage
from . import runtime, texts
from .runner import TeamCommands, _checked_inputs, _exit, run_parser

__all__ = ["CrewCommands", "replay", "test", "train"]


def _crew_command(
    package: TeamPackage,
    prog: str,
    description: str,
    positionals: Sequence[tuple[str, Callable[[str], Any], str]],
    action: Callable[[Crew, argparse.Namespace, dict[str, Any]], object],
) -> int:
    """Check env and inputs as a run does, build the team's crew, then `action` on it."""
    parser = run_parser(package, prog, description)
    for name, kind, text in positionals:
        parser.add_argument(name, type=kind, help=text)
    args = parser.parse_args(sys.argv[1:])
    inputs = _checked_inputs(package, args)
    if inputs is None:
        return runtime.EXIT_CONFIG
    rounds = max(1, getattr(args, "n_iterations", 1))

    def act() -> object:
        team_crew = package.module("crew").TeamCrew(inputs, args.verbose).crew()
        # CrewAI interpolates {word} with these inputs: texts.crewai_inputs keeps every
        # text of the crew as it is.
        return action(team_crew, args, texts.crewai_inputs(team_crew, inputs))

    try:
        deadline = runtime.Deadline(package.team.RUN_TIMEOUT_MS * rounds)
        runtime.run_with_deadline(act, deadline)
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


def train(package: TeamPackage) -> None:
    """Console script `train N FILE` (`crewai train -n N -f FILE`): Crew.train, which asks
    for feedback on each answer at the terminal and saves what it learnt in FILE."""
    _exit(
        _crew_command(
            package,
            "train",
            f"Train the {package.team.NAME} crew (CrewAI's Crew.train).",
            [_ITERATIONS, ("filename", str, "the trained agents file (.pkl)")],
            lambda c, a, i: c.train(n_iterations=a.n_iterations, filename=a.filename, inputs=i),
        )
    )


def replay(package: TeamPackage) -> None:
    """Console script `replay TASK_ID` (`crewai replay -t TASK_ID`; the ids are listed by
    `crewai log-tasks-outputs`): Crew.replay from that task of the last run, with this
    run's inputs."""
    _exit(
        _crew_command(
            package,
            "replay",
            f"Replay the last run of the {package.team.NAME} crew from a task (Crew.replay).",
            [("task_id", str, "a task id from `crewai log-tasks-outputs`")],
            lambda c, a, i: _print_output(package, c.replay(task_id=a.task_id, inputs=i)),
        )
    )


def test(package: TeamPackage) -> None:
    """Console script `test N MODEL` (`crewai test -n N -m MODEL`): Crew.test, N runs scored
    by MODEL (a CrewAI model name such as openai/gpt-4o-mini)."""
    _exit(
        _crew_command(
            package,
            "test",
            f"Test the {package.team.NAME} crew and score its tasks (Crew.test).",
            [_ITERATIONS, ("eval_llm", str, "the model that scores the answers")],
            lambda c, a, i: c.test(n_iterations=a.n_iterations, eval_llm=a.eval_llm, inputs=i),
        )
    )


def _print_output(package: TeamPackage, output: Any) -> None:
    result = getattr(output, "pydantic", None)
    if isinstance(result, package.team.TeamResult):
        print(json.dumps(result.model_dump(by_alias=True), indent=2, ensure_ascii=False))
    else:
        print(getattr(output, "raw", output))


class CrewCommands(TeamCommands):
    """A hierarchy team's console scripts: a run's (TeamCommands) and CrewAI's crew
    commands, `train`, `replay` and `test`."""

    def train(self) -> None:
        """`train N FILE` (`crewai train`): Crew.train."""
        train(self.package)

    def replay(self) -> None:
        """`replay TASK_ID` (`crewai replay`): Crew.replay."""
        replay(self.package)

    def test(self) -> None:
        """`test N MODEL` (`crewai test`): Crew.test."""
        test(self.package)
