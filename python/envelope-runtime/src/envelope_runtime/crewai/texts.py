"""The definition's texts reach the model exactly as written: only `{{NAME}}` is filled in
(placeholders.py), per crew object, so concurrent runs never mix values. CrewAI rewrites
some `{word}` itself, and each place is neutralised:
- `Crew.kickoff(inputs=...)` (train, test, replay too) interpolates `{word}` in every text
  and fails on a word it has no value for: CrewAI's INPUT hook gives each word of our texts
  itself as its value (`crewai_inputs`), and refuses inputs other than the crew object's,
  which would be silently ignored.
- The agent's prompt fills `{goal}`, `{role}`, `{backstory}`, then `{input}`, `{tool_names}`,
  `{tools}` one after another, each rewriting the text inserted before it: the executor
  `VerbatimExecutor` fills all six in one pass (_crewai_private.py). `Agent.kickoff()`
  outside a crew builds CrewAI's own executor: it does not get this.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable, Mapping
from typing import Any

from crewai import Agent, Crew
from crewai.hooks import HookAborted, InterceptionPoint, register_hook
from crewai.hooks.contexts import InputContext

from ..placeholders import render
from ._crewai_private import VerbatimExecutor, drop_memoized

_CREWAI_WORD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_\-]*)}")
"""What `Crew.kickoff(inputs=...)` interpolates (crewai.utilities.string_utils)."""


def render_agent(agent: Agent, values: Mapping[str, str]) -> Agent:
    """The agent with its texts filled in for this run and the one-pass executor."""
    agent.role = render(agent.role, values)
    agent.goal = render(agent.goal, values)
    agent.backstory = render(agent.backstory, values)
    agent.executor_class = VerbatimExecutor
    return agent


def _texts_of(crew: Crew) -> Iterable[str]:
    agents = [*crew.agents, *([crew.manager_agent] if crew.manager_agent else [])]
    for agent in agents:
        yield from (agent.role, agent.goal, agent.backstory)
    for task in crew.tasks:
        yield from (task.description, task.expected_output, task.output_file or "")


def crewai_inputs(crew: Crew, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs for `Crew.kickoff/train/test/replay`: each `{word}` of the texts is its own
    value, and the run's inputs are added but for those words (CrewAI would rewrite them)."""
    words = {word for text in _texts_of(crew) for word in _CREWAI_WORD.findall(text)}
    return {**inputs, **{word: "{" + word + "}" for word in sorted(words)}}


class InputsRefused(HookAborted, ValueError):
    """`kickoff(inputs=...)` with run inputs other than the crew object's."""


# A team's crew -> (its builder, the inputs it filled in, the team's team.py): the inputs are
# kept here too, as a crew may outlive its builder (a step's crew handed on).
_BUILT_BY: weakref.WeakKeyDictionary[Crew, tuple[weakref.ref[Any], dict[str, Any], Any]] = (
    weakref.WeakKeyDictionary()
)


def kept_as_written(crew: Crew, built_by: Any) -> Crew:
    """The crew, whose texts `built_by` filled in: `kickoff(inputs=...)` keeps them."""
    _BUILT_BY[crew] = (weakref.ref(built_by), dict(built_by.inputs), built_by.package.team)
    return crew


def _kickoff_inputs(context: InputContext) -> dict[str, Any] | None:
    """CrewAI's INPUT hook (every crew's kickoff, train, test, replay)."""
    entry = _BUILT_BY.get(context.crew) if context.crew is not None else None
    if entry is None:
        return None
    ref, own, team = entry
    built_by, given = ref(), dict(context.payload or {})
    from .deadline import active_deadline  # a run's module, not a build's

    if active_deadline() is None:  # no runner's or flow's deadline: the kickoff's own
        from .kickoff_deadline import kickoff_started

        kickoff_started(context.crew, team.RUN_TIMEOUT_MS)
    if built_by is not None:
        # The crew runs now: CrewAI's memo, which holds it and its builder, need not any more.
        drop_memoized(built_by)
        if built_by.deferred:
            _fill_in(context.crew, built_by, given)
            return crewai_inputs(context.crew, given)
    if context.payload is None:
        return None
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
    return crewai_inputs(context.crew, given)


def checked_inputs(team: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """Kickoff inputs checked by team.TeamInputs as the runner checks them."""
    from ..inputs import InputError, checked

    try:
        return checked(team.TeamInputs, given)
    except InputError as error:
        raise InputsRefused(f"inputs refused: {error}") from None


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


register_hook(InterceptionPoint.INPUT, _kickoff_inputs)
