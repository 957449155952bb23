"""The definition's texts in CrewAI's objects, reaching the model exactly as written.

Agents and tasks carry the real text of config/agents.yaml and config/tasks.yaml, so
`--verbose`, CrewAI's events, traces and task-output log all show it. Only `{{NAME}}`
(an input, variable or secret of the run) is filled in (placeholders.py), when a crew
object builds its agents and tasks: the values belong to that object, so concurrent runs
never mix them.

CrewAI itself rewrites some `{word}` sequences; each is neutralised where it happens:
- `Crew.kickoff(inputs=...)` (also train, test, replay) replaces `{word}` in roles,
  goals, backstories and task text for every key of the inputs, and fails on a word it
  has no value for: `crewai_inputs` gives it the word itself as the value of every word
  our texts hold (an input that shares such a name is kept out of CrewAI's inputs). A
  team's crew gets them from CrewAI's INPUT hook (`kept_as_written`), which refuses run
  inputs other than the crew object's: those would be silently ignored.
- The agent's prompt is built by filling `{goal}`, `{role}`, `{backstory}` one after
  another (crewai.utilities.prompts), and its executor then fills `{input}`,
  `{tool_names}`, `{tools}` the same way, so each rewrites the text inserted before it (a
  goal saying `{role}`, a backstory saying `{tools}`, a step's input quoting `{input}`).
  `VerbatimExecutor` (Agent's `executor_class`) fills all six in one pass over CrewAI's
  own template (CrewAI has no public way: _crewai_private.py). Tool results and model
  answers never go through either. `Agent.kickoff()` outside a crew builds CrewAI's own
  executor: it does not get this.
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
    """Inputs for `Crew.kickoff/train/test/replay` that leave the crew's texts as they are.

    Each `{word}` in the texts is its own value; the run's inputs are added under their
    keys unless a text holds that word (then CrewAI would rewrite it).
    """
    words = {word for text in _texts_of(crew) for word in _CREWAI_WORD.findall(text)}
    kept = {key: value for key, value in inputs.items() if key not in words}
    return {**kept, **{word: "{" + word + "}" for word in sorted(words)}}


class InputsRefused(HookAborted, ValueError):
    """`kickoff(inputs=...)` with run inputs other than the crew object's."""


_BUILT_BY: weakref.WeakKeyDictionary[Crew, tuple[weakref.ref[Any], dict[str, Any], Any]] = (
    weakref.WeakKeyDictionary()
)
"""A team's crew -> the crew object (crew_base.TeamCrewBase) that built it, the inputs it
filled in and its team's INPUTS. The inputs are kept here, not only on that object: the
object may be collected while its crew lives on (a step's crew handed on), and its crew
must still refuse other inputs."""


def kept_as_written(crew: Crew, built_by: Any) -> Crew:
    """The crew, whose texts `built_by` filled in for its inputs: `kickoff(inputs=...)`
    leaves them as they are."""
    _BUILT_BY[crew] = (weakref.ref(built_by), dict(built_by.inputs), built_by.package.team.INPUTS)
    return crew


def _kickoff_inputs(context: InputContext) -> dict[str, Any] | None:
    """CrewAI's INPUT hook (every crew's kickoff, train, test, replay)."""
    entry = _BUILT_BY.get(context.crew) if context.crew is not None else None
    if entry is None:
        return None
    ref, own, team_inputs = entry
    built_by = ref()
    if built_by is not None:
        # The crew runs now: CrewAI's memo, which holds it and its builder, need not any more.
        drop_memoized(built_by)
    if context.payload is None:
        return None
    given = dict(context.payload)
    other = sorted(
        key
        for key, value in given.items()
        if key in team_inputs and value != "{" + key + "}" and own.get(key) != value
    )
    if other:
        raise InputsRefused(
            f"inputs {other} differ from the crew's: give a run's inputs to the crew class, "
            "TeamCrew(inputs).crew().kickoff(), which fills in its texts"
        )
    return crewai_inputs(context.crew, given)


register_hook(InterceptionPoint.INPUT, _kickoff_inputs)
