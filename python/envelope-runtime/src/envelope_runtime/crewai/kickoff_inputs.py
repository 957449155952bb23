"""A team crew's kickoff given inputs, `Crew.kickoff(inputs=...)` (CrewAI AMP's, a Python
caller's, train, test and replay), or of a crew built without inputs: what CrewAI's INPUT hook
(texts.py) does for it. The kickoffs of a run of our runner (its crew's, a sub-team's, a
step's) give none: such a run never loads this module.

CrewAI interpolates `{word}` in every text and fails on a word it has no value for: each word
of our texts is given itself as its value (`crewai_inputs`). Run inputs other than the crew
object's, which would be silently ignored, are refused; a crew built without inputs takes the
kickoff's instead."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from crewai import Crew
from crewai.hooks import HookAborted

from ._crewai_private import drop_memoized
from .texts import kept_as_written

_CREWAI_WORD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_\-]*)}")
"""What `Crew.kickoff(inputs=...)` interpolates (crewai.utilities.string_utils)."""


def _texts_of(crew: Crew) -> Iterable[str]:
    agents = [*crew.agents, *([crew.manager_agent] if crew.manager_agent else [])]
    for agent in agents:
        yield from (agent.role, agent.goal, agent.backstory)
    for task in crew.tasks:
        yield from (task.description, task.expected_output, task.output_file or "")


class InputsRefused(HookAborted, ValueError):
    """`kickoff(inputs=...)` with run inputs other than the crew object's."""


def checked_inputs(team: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """Kickoff inputs checked by team.TeamInputs as the runner checks them (also a pipeline
    flow's that CrewAI AMP kicks off or resumes: pipeline.py)."""
    from ..inputs import InputError, checked

    try:
        return checked(team.TeamInputs, given)
    except InputError as error:
        raise InputsRefused(f"inputs refused: {error}") from None


def crewai_inputs(crew: Crew, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs for `Crew.kickoff/train/test/replay`: each `{word}` of the texts is its own
    value, and the run's inputs are added but for those words (CrewAI would rewrite them)."""
    words = {word for text in _texts_of(crew) for word in _CREWAI_WORD.findall(text)}
    return {**inputs, **{word: "{" + word + "}" for word in sorted(words)}}


def kickoff_inputs(
    crew: Crew, built_by: Any, own: Mapping[str, Any], team: Any, given: dict[str, Any]
) -> dict[str, Any]:
    """The INPUT hook's answer for `crew`, built by `built_by` (None: collected) with the
    inputs `own` of the team `team`, given `given`."""
    if built_by is not None and built_by.deferred:
        _fill_in(crew, built_by, given)
        return crewai_inputs(crew, given)
    other = sorted(
        key
        for key, value in given.items()
        if key in team.INPUTS and value != "{" + key + "}" and own.get(key) != value
    )
    if other:
        raise InputsRefused(
            f"inputs {other} differ from the crew's: give a run's inputs to the crew class, "
            "TeamCrew(inputs).crew().kickoff(), which fills in its texts"
        )
    return crewai_inputs(crew, given)


def _fill_in(crew: Crew, built_by: Any, given: dict[str, Any]) -> None:
    """A crew built without inputs (CrewAI AMP's `TeamCrew().crew().kickoff(inputs=...)`)
    takes the kickoff's, checked by team.TeamInputs: its agents and tasks become those our
    runner builds, `TeamCrew(inputs).crew()`."""
    supplied = {key: value for key, value in given.items() if value != "{" + key + "}"}
    built = type(built_by)(checked_inputs(built_by.package.team, supplied), built_by.verbose)
    ready = built.crew()
    crew.agents, crew.tasks, crew.manager_agent = ready.agents, ready.tasks, ready.manager_agent
    kept_as_written(crew, built)
    drop_memoized(built)
