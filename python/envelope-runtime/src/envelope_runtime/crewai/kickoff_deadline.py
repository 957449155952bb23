"""`timeout.runMs` for a kickoff our runner does not make (CrewAI AMP's, a Python caller's),
loaded by such a kickoff only: a team crew's `kickoff`, `kickoff_async` or `akickoff` is
bounded from CrewAI's INPUT hook (texts.py) to its EXECUTION_END, a pipeline's flow for its
kickoff or resume (pipeline.py). The deadline is deadline.py's, refusing every model call
past it; there is no worker thread, so a call under way ends before the next is refused.
"""

from __future__ import annotations

import weakref
from collections.abc import Coroutine
from typing import Any

from crewai.flow.async_feedback import HumanFeedbackPending
from crewai.hooks import InterceptionPoint, register_hook
from crewai.hooks.contexts import ExecutionEndContext

from .deadline import Deadline, RunTimeout, _active_deadline


def kickoff_started(crew: Any, run_ms: int, sub_team: bool = False) -> None:
    """A team crew's kickoff begins (CrewAI's INPUT hook, texts.py): runMs bounds it from now,
    in the kickoff's context, until its EXECUTION_END (`_kickoff_ended`), unless the run it is
    part of has a deadline: our runner's or a flow's, or the kickoff's a sub-team's crew
    (sub_teams.py) runs in. A kickoff CrewAI ends without EXECUTION_END (a KeyboardInterrupt,
    a hook refusing its start) leaves its deadline behind: the next kickoff replaces it."""
    active = _active_deadline.get()
    if active is None or (active.kickoff is not None and not sub_team):
        deadline = Deadline(run_ms)
        deadline.kickoff = weakref.ref(crew)  # weak: nothing here keeps a crew alive
        _active_deadline.set(deadline)


def _kickoff_ended(context: ExecutionEndContext) -> None:
    # CrewAI's EXECUTION_END, on success and failure alike, in the kickoff's context: the
    # next kickoff there starts a deadline of its own.
    deadline = _active_deadline.get()
    owner = deadline.kickoff if deadline is not None else None
    if deadline is None or owner is None or context.crew is None or owner() is not context.crew:
        return
    _active_deadline.set(None)  # kickoff_started set it over None
    if context.status == "completed" and deadline.expired():
        # Its last model call ended past runMs: our runner would have timed it out too.
        # CrewAI fails the kickoff with a HookAborted raised here.
        raise RunTimeout(deadline.message())


register_hook(InterceptionPoint.EXECUTION_END, _kickoff_ended)


async def flow_run(flow: Any, work: Coroutine[Any, Any, Any]) -> Any:
    """A flow's kickoff or resume, `work`, bounded by runMs from the run's `spent_ms`:
    RunTimeout when the budget was spent before (nothing of `work` runs) or when `work` ends
    past it, as our runner times such a run out. The saved run says what became of it as the
    runner's does (flow_runner): pending at a gate, done, timed_out or failed with the
    message, and the working time spent (the next resume's budget), so `resume RUN_ID` and
    `sweep` take it."""
    deadline = Deadline(flow.team().RUN_TIMEOUT_MS, spent_ms=flow.state.spent_ms)
    token = _active_deadline.set(deadline)
    try:
        if deadline.expired():
            work.close()
            raise RunTimeout(deadline.message())
        outcome = await work
        if deadline.expired():
            raise RunTimeout(deadline.message())
    except RunTimeout as error:
        flow.state.status, flow.state.message = "timed_out", str(error)
        raise
    except Exception as error:
        flow.state.status, flow.state.message = "failed", f"{type(error).__name__}: {error}"
        raise
    else:
        if flow.state.status == "running":
            paused = isinstance(outcome, HumanFeedbackPending)
            flow.state.status = "pending" if paused else "done"
        return outcome
    finally:
        _active_deadline.reset(token)
        flow.state.spent_ms += deadline.used_ms()
        if flow.persistence is not None:
            flow.persistence.save_state(flow.state.id, "kickoff", flow.state)
