"""`timeout.runMs` for a kickoff our runner does not make (CrewAI AMP's, a Python caller's),
loaded by such a kickoff only: a team crew's `kickoff`, `kickoff_async` or `akickoff` is
bounded from CrewAI's INPUT hook (texts.py) to the end of the CrewAI execution it began, a
pipeline's flow for its kickoff or resume (pipeline.py), configured here first as `crewai run`
configures it. Past the deadline every model call
of the run is refused; there is no worker thread, so a call under way ends before the next
is refused.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Coroutine
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from crewai.execution import get_execution_uuid
from crewai.flow.async_feedback import HumanFeedbackPending
from crewai.hooks import (
    InterceptionPoint,
    LLMCallHookContext,
    register_before_llm_call_hook,
    register_hook,
)
from crewai.hooks.contexts import ExecutionEndContext

from ..team_package import TeamPackage
from .deadline import Deadline, RunTimeout, _active_deadline

if TYPE_CHECKING:
    from .state import RunStore


class KickoffDeadline(Deadline):
    """A team crew kickoff's runMs, in force for the CrewAI execution the kickoff began (its
    id, which CrewAI gives the outermost kickoff and shares with the kickoffs and threads
    within it) and only while it lasts: CrewAI ends an execution in a `finally`, so a
    kickoff ended without EXECUTION_END (a KeyboardInterrupt, another hook refusing its
    start) leaves no deadline refusing the calls that come after it in the thread."""

    def __init__(self, crew: Any, run_ms: int) -> None:
        super().__init__(run_ms)
        self.crew = weakref.ref(crew)  # weak: nothing here keeps a crew alive
        self.execution = get_execution_uuid()

    def in_force(self) -> bool:
        return self.execution is not None and self.execution == get_execution_uuid()


_kickoff_deadline: ContextVar[KickoffDeadline | None] = ContextVar(
    "envelope_kickoff_deadline", default=None
)


def kickoff_deadline() -> KickoffDeadline | None:
    """The deadline of the team kickoff this thread works for, if one is in force."""
    deadline = _kickoff_deadline.get()
    return deadline if deadline is not None and deadline.in_force() else None


def kickoff_started(crew: Any, run_ms: int) -> None:
    """A team crew's kickoff begins with no runner's or flow's deadline (CrewAI's INPUT hook,
    texts.py, which CrewAI dispatches after it marks the start: a failure gets EXECUTION_END):
    runMs bounds it from now, unless it is part of a kickoff that has a deadline (a
    sub-team's crew runs in its manager's kickoff, sub_teams.py)."""
    if kickoff_deadline() is None:
        _kickoff_deadline.set(KickoffDeadline(crew, run_ms))


def _kickoff_ended(context: ExecutionEndContext) -> None:
    # CrewAI's EXECUTION_END, on success and failure alike, in the kickoff's context.
    deadline = kickoff_deadline()
    if deadline is None or context.crew is None or deadline.crew() is not context.crew:
        return
    # Ended here too: a host may keep the execution's id (set_execution_uuid) past the kickoff.
    _kickoff_deadline.set(None)
    if context.status == "completed" and deadline.expired():
        # Its last model call ended past runMs: our runner would have timed it out too.
        # CrewAI fails the kickoff with a HookAborted raised here.
        raise RunTimeout(deadline.message())


def _kickoff_guard(context: LLMCallHookContext) -> None:
    # deadline.py's guard refuses the calls past the runner's or a flow's deadline.
    deadline = kickoff_deadline()
    if deadline is not None and deadline.expired():
        raise RunTimeout(deadline.message())


register_hook(InterceptionPoint.EXECUTION_END, _kickoff_ended)
register_before_llm_call_hook(_kickoff_guard)


def configured(flow: Any, given: dict[str, Any], kickoff: bool = False) -> dict[str, Any]:
    """Configure a pipeline's flow our runner did not (pipeline.py) for inputs `given` as
    `crewai run` configures it (no decisions: a gate asks at a terminal, else pauses); the
    state's fields of a new run. A `kickoff`'s store (`crewai run`'s) gets the team's
    secrets to redact."""
    from .kickoff_inputs import checked_inputs
    from .state import RunStore  # a pipeline's: a crew's kickoff needs none of this

    package = flow._package()
    team = package.team
    inputs = checked_inputs(team, given)
    flow.configure(package.module("crew").TeamCrew(inputs), None, sys.stdin.isatty())
    if kickoff and isinstance(flow.persistence, RunStore) and not flow.persistence._secrets:
        flow.persistence = team_store(package, flow.persistence)
    return {"inputs": inputs, "team": team.SLUG, "version": team.VERSION}


def team_store(package: TeamPackage, store: RunStore | None) -> RunStore:
    """`store` (None: `crewai run`'s) redacting the team's secrets."""
    from .state import RunStore

    return RunStore.of(package.team, (store or RunStore()).directory)


async def flow_run(flow: Any, work: Coroutine[Any, Any, Any]) -> Any:
    """A flow's kickoff or resume, `work`, bounded by runMs from the run's `spent_ms`:
    RunTimeout when the budget was spent before (nothing of `work` runs) or when `work` ends
    past it, as our runner times such a run out. The saved run says what became of it as the
    runner's does (flow_runner.settle), so `resume RUN_ID` and `sweep` take it."""
    from .flow_runner import settle  # a pipeline's module: a crew's kickoff needs none of it
    from .run_files import RunLock
    from .state import RunStore

    # The run's lock, as our runner holds it: `resume RUN_ID` leaves a run at work here alone.
    store = flow.persistence
    lock = RunLock(store, flow.state.id) if isinstance(store, RunStore) else None
    if lock is not None and lock.acquire() is False:
        work.close()
        raise RuntimeError(f"{store.where(flow.state.id)}: {lock.holder()} has it")
    deadline = Deadline(flow.team().RUN_TIMEOUT_MS, spent_ms=flow.state.spent_ms)
    outer = _active_deadline.get()
    _active_deadline.set(deadline)  # bounds the run of this context from now
    paused, error = False, None
    try:
        if deadline.expired():
            work.close()
            raise RunTimeout(deadline.message())
        outcome = await work
        if _unfinished(flow, isinstance(outcome, HumanFeedbackPending)):
            outcome = await flow.kickoff_async()
        if deadline.expired():
            raise RunTimeout(deadline.message())
        paused = isinstance(outcome, HumanFeedbackPending)
        if paused and flow.state.status == "halted":
            # A gate beside the pause halted the run (review._paused): it is over, not paused.
            # What CrewAI saved for from_pending goes; it ends as a halt does, `<gate>:halted`.
            flow.persistence.clear_pending_feedback(flow.state.id)
            gates = flow.state.gates.items()
            paused, outcome = False, next(f"{n}:halted" for n, g in gates if g.status == "halted")
        return outcome
    except BaseException as failure:  # settled below, then raised
        error = failure
        raise
    finally:
        _active_deadline.set(outer)
        settle(flow.state, paused, error, deadline.used_ms())
        if flow.persistence is not None:
            flow.persistence.save_state(flow.state.id, "kickoff", flow.state)
        if lock is not None:
            lock.release()


def _unfinished(flow: Any, paused: bool) -> bool:
    """Whether the flow's kickoff or resume left work that the flow kicked off again over
    its state does (finished steps and decided gates pass at once), as our runner's resume
    does (flow_resume.resumed). A resume runs only what follows its gate: a gate waiting
    beside it and the steps after that, or, when it paused again, the passed timeout of a
    waiting gate, its own or one beside (gates.overdue)."""
    if flow.state.over(flow.team().PIPELINE):
        return False
    if not paused:
        return True
    from ..gates import overdue  # a pause: the team has gates
    from .state import utc_now

    return bool(overdue(flow.team().GATES, flow.state.gates, utc_now()))
