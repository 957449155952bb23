"""CrewAI's crew commands on the team's crew: `crewai train -n N -f FILE`, `crewai replay -t
TASK_ID` and `crewai test -n N -m MODEL` run the scripts `train`, `replay` and `test`
(runner.CrewCommands; this module is imported by them only): the environment and inputs
checked as a run's, then CrewAI's own Crew.train, Crew.replay or Crew.test."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from contextlib import ExitStack
from contextvars import ContextVar
from typing import Any

from crewai import Crew
from crewai.core.providers.human_input import (
    SyncHumanInputProvider,
    reset_provider,
    set_provider,
)
from crewai.events.event_bus import crewai_event_bus
from crewai.events.types.crew_events import CrewKickoffStartedEvent
from crewai.hooks import LLMCallHookContext, register_before_llm_call_hook
from crewai.utilities.constants import TRAINING_DATA_FILE
from crewai.utilities.evaluators.task_evaluator import TaskEvaluator
from crewai.utilities.training_handler import CrewTrainingHandler

from ..team_package import TeamPackage
from . import runtime
from ._crewai_private import is_training_copy
from .deadline import Deadline, RunTimeout, active_deadline, run_with_deadline
from .kickoff_inputs import crewai_inputs
from .runner import _checked_inputs, _exit, failure, run_parser

Action = Callable[[Crew, argparse.Namespace, dict[str, Any]], object]


def _crew_command(
    package: TeamPackage, prog: str, about: str, arguments: list[tuple[str, Any, str]], act: Action
) -> int:
    parser = run_parser(package, prog, f"{about} the {package.team.NAME} crew (CrewAI's).")
    for name, kind, text in arguments:
        parser.add_argument(name, type=kind, help=text)
    args = parser.parse_args(sys.argv[1:])
    inputs = _checked_inputs(package, args)
    if inputs is None:
        return runtime.EXIT_CONFIG

    def command() -> object:
        crew = package.module("crew").TeamCrew(inputs, args.verbose).crew()
        # The crew's texts are filled in already: CrewAI must leave their {words} as they are.
        return act(crew, args, crewai_inputs(crew, inputs))

    rounds = getattr(args, "n_iterations", 1)
    try:
        run_with_deadline(command, Deadline(package.team.RUN_TIMEOUT_MS * rounds))
    except RunTimeout as error:
        print(str(error), file=sys.stderr)
        return runtime.EXIT_TIMEOUT
    except Exception as error:  # noqa: BLE001 - any failure ends the command with a message
        print(f"{prog} failed: {failure(package, error)}", file=sys.stderr)
        return runtime.EXIT_FAILED
    return runtime.EXIT_OK


def _positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:  # argparse's own: "invalid _positive value"
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return int(text)


_ITERATIONS = ("n_iterations", _positive, "how many runs")


_asking: ContextVar[ExitStack | None] = ContextVar("envelope_training_feedback", default=None)
"""The deadline's pause while a human gives training feedback, ended by the next model call."""


class _TrainingFeedback(SyncHumanInputProvider):
    """CrewAI's terminal feedback (its provider seam), with timeout.runMs stopped from the
    prompt until the agent's next model call (its improved answer, counted again): a human's
    time does not count against the run, as at a gate's terminal review. Sync only: train
    kicks off synchronously."""

    def handle_feedback(self, formatted_answer: Any, context: Any) -> Any:
        deadline = active_deadline()
        with ExitStack() as waiting:
            if deadline is not None:
                waiting.enter_context(deadline.paused())
            token = _asking.set(waiting)
            try:
                return super().handle_feedback(formatted_answer, context)
            finally:
                _asking.reset(token)


def _answered(_: LLMCallHookContext) -> None:
    waiting = _asking.get()
    if waiting is not None:
        waiting.close()  # the human has answered: the model's time counts again


register_before_llm_call_hook(_answered)


def _train(crew: Crew, n_iterations: int, filename: str, inputs: dict[str, Any]) -> None:
    """Crew.train, and what the manager was taught too: Crew.train keeps the lessons of the
    crew's `agents` only, and a hierarchical crew's manager, who runs its task and gets the
    feedback, is not one of them (CrewAI refuses it there)."""
    trained: list[Crew] = []

    def started(source: Any, _: CrewKickoffStartedEvent) -> None:
        if isinstance(source, Crew) and is_training_copy(source):
            trained.append(source)

    crewai_event_bus.on(CrewKickoffStartedEvent)(started)
    feedback = set_provider(_TrainingFeedback())
    try:
        crew.train(n_iterations=n_iterations, filename=filename, inputs=inputs)
    finally:
        reset_provider(feedback)
        crewai_event_bus.off(CrewKickoffStartedEvent, started)
    manager = trained[0].manager_agent if trained else None
    data = CrewTrainingHandler(TRAINING_DATA_FILE).load() or {}
    if manager is not None and data.get(str(manager.id)):
        lessons = TaskEvaluator(manager).evaluate_training_data(data, str(manager.id))
        CrewTrainingHandler(filename).save_trained_data(manager.role, lessons.model_dump())


def train(package: TeamPackage) -> None:
    """`train N FILE`: CrewAI asks for feedback on each answer and saves what it taught."""
    _exit(
        _crew_command(
            package,
            "train",
            "Train",
            [_ITERATIONS, ("filename", str, "the trained agents file (.pkl)")],
            lambda c, a, i: _train(c, a.n_iterations, a.filename, i),
        )
    )


def replay(package: TeamPackage) -> None:
    """`replay TASK_ID` (ids: `crewai log-tasks-outputs`): the last run again from that task."""
    _exit(
        _crew_command(
            package,
            "replay",
            "Replay the last run, from a task, of",
            [("task_id", str, "a task id from `crewai log-tasks-outputs`")],
            lambda c, a, i: _print_output(package, _replay(package, c, a.task_id, i)),
        )
    )


def _replay(package: TeamPackage, crew: Crew, task_id: str, inputs: dict[str, Any]) -> Any:
    if getattr(package.team, "MCP_SERVERS", None):
        from .connection_tools import list_mcp_tools

        list_mcp_tools(crew)  # what a kickoff's INPUT hook does; Crew.replay runs none
    return crew.replay(task_id=task_id, inputs=inputs)


def test(package: TeamPackage) -> None:
    """`test N MODEL`: N runs, each task scored by MODEL (e.g. openai/gpt-4o-mini)."""
    _exit(
        _crew_command(
            package,
            "test",
            "Test and score",
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
