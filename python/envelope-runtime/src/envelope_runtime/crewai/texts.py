"""The definition's texts reach the model exactly as written: only `{{NAME}}` is filled in
(placeholders.py), per crew object, so concurrent runs never mix values. CrewAI rewrites
some `{word}` itself, and each place is neutralised:
- `Crew.kickoff(inputs=...)` (train, test, replay too) interpolates `{word}` in every text:
  CrewAI's INPUT hook answers for a team's crew (kickoff_inputs.py, loaded by a kickoff given
  inputs or of a crew built without them).
- The agent's prompt fills `{goal}`, `{role}`, `{backstory}`, then `{input}`, `{tool_names}`,
  `{tools}` one after another, each rewriting the text inserted before it: the executor
  `VerbatimExecutor` fills all six in one pass (_crewai_private.py). `Agent.kickoff()`
  outside a crew builds CrewAI's own executor: it does not get this.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from crewai import Agent, Crew
from crewai.hooks import InterceptionPoint, register_hook
from crewai.hooks.contexts import InputContext

from ..placeholders import render
from ._crewai_private import VerbatimExecutor, drop_memoized


def render_agent(agent: Agent, values: Mapping[str, str]) -> Agent:
    """The agent with its texts filled in for this run and the one-pass executor."""
    agent.role = render(agent.role, values)
    agent.goal = render(agent.goal, values)
    agent.backstory = render(agent.backstory, values)
    agent.executor_class = VerbatimExecutor
    return agent


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
    built_by = ref()
    from .deadline import active_deadline  # a run's module, not a build's

    if active_deadline() is None:  # no runner's or flow's deadline: the kickoff's own
        from .kickoff_deadline import kickoff_started

        kickoff_started(context.crew, team.RUN_TIMEOUT_MS)
    if built_by is not None:
        # The crew runs now: CrewAI's memo, which holds it and its builder, need not any more.
        drop_memoized(built_by)
    if context.payload is None and not getattr(built_by, "deferred", False):
        return None  # a kickoff without inputs (our runner's, a sub-team's): nothing to do
    from .kickoff_inputs import kickoff_inputs

    return kickoff_inputs(context.crew, built_by, own, team, dict(context.payload or {}))


register_hook(InterceptionPoint.INPUT, _kickoff_inputs)
