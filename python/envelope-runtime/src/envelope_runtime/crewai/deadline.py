"""The whole-run deadline (`timeout.runMs`): imported by a run, never by building a team's
crews.

The deadline is a context variable; CrewAI's public before-LLM-call hook refuses every model
call of a run whose deadline has passed, raising RunTimeout, a HookAborted: CrewAI neither
retries it nor hands it to the agent, so the kickoff fails with it. Our runner gives a run's
work to a worker thread with its deadline (`run_with_deadline`); a kickoff without our runner
(CrewAI AMP's, a Python caller's) gets its own: a team crew's from CrewAI's INPUT hook to its
EXECUTION_END (`kickoff_started`, texts.py), a pipeline's flow for its kickoff or resume
(`bounded_work`, pipeline.py).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from typing import Any, TypeVar

from crewai.hooks import (
    HookAborted,
    InterceptionPoint,
    LLMCallHookContext,
    register_before_llm_call_hook,
    register_hook,
)
from crewai.hooks.contexts import ExecutionEndContext

T = TypeVar("T")


class RunTimeout(HookAborted):
    """The whole run went past timeout.runMs (a HookAborted: CrewAI passes it on untouched)."""


class Deadline:
    """A wall-clock budget; time spent waiting for a human reviewer is excluded."""

    def __init__(
        self, ms: int, clock: Callable[[], float] = time.monotonic, spent_ms: int = 0
    ) -> None:
        self.limit_ms = ms
        """The whole run's budget (timeout.runMs)."""
        self.ms = ms - spent_ms
        """What is left of it for this process (a resumed run spent the rest before)."""
        self._clock = clock
        self._lock = threading.Lock()
        self._ends_at = clock() + self.ms / 1000
        self._paused_since: float | None = None
        self._pauses = 0
        self.kickoff: weakref.ref[Any] | None = None
        """The crew whose kickoff started this deadline (kickoff_started), if one did."""

    def remaining(self) -> float:
        with self._lock:
            now = self._paused_since if self._paused_since is not None else self._clock()
            return self._ends_at - now

    def expired(self) -> bool:
        return self.remaining() <= 0

    def used_ms(self) -> int:
        """Working time spent against the budget so far."""
        return max(0, round(self.ms - self.remaining() * 1000))

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Stop the clock while a human answers; pauses may overlap."""
        with self._lock:
            if self._pauses == 0:
                self._paused_since = self._clock()
            self._pauses += 1
        try:
            yield
        finally:
            with self._lock:
                self._pauses -= 1
                if self._pauses == 0 and self._paused_since is not None:
                    self._ends_at += self._clock() - self._paused_since
                    self._paused_since = None

    def message(self) -> str:
        return (
            f"Run deadline exceeded: the team did not finish within {self.limit_ms} ms "
            "(timeout.runMs). No further model calls are made."
        )


_active_deadline: ContextVar[Deadline | None] = ContextVar("envelope_run_deadline", default=None)


def active_deadline() -> Deadline | None:
    """The deadline of the run this thread belongs to, if any."""
    return _active_deadline.get()


def _deadline_guard(context: LLMCallHookContext) -> None:
    # Refuses every model call of a run whose deadline has passed. CrewAI copies
    # the context into the threads it starts (flow steps, agent timeouts).
    deadline = _active_deadline.get()
    if deadline is not None and deadline.expired():
        raise RunTimeout(deadline.message())


register_before_llm_call_hook(_deadline_guard)


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


async def bounded_work(
    work: Coroutine[Any, Any, Any],
    run_ms: int,
    spent_ms: int,
    settle: Callable[[Deadline | None, Any, Exception | None], Any],
) -> Any:
    """A flow's kickoff or resume, `work` (pipeline.py), bounded by runMs (`spent_ms` of it
    spent before) unless our runner's deadline is in force (`deadline` None then; a crew
    kickoff's left behind is replaced): RunTimeout when the budget was spent before (nothing
    of `work` runs) or when `work` ends past it, as our runner times such a run out.
    `settle(deadline, outcome, error)` says what became of the run; its value is the
    kickoff's."""
    active = _active_deadline.get()
    runner = active is not None and active.kickoff is None
    deadline = None if runner else Deadline(run_ms, spent_ms=spent_ms)
    token = _active_deadline.set(active if runner else deadline)
    try:
        if deadline is not None and deadline.expired():
            work.close()
            raise RunTimeout(deadline.message())
        outcome = await work
        if deadline is not None and deadline.expired():
            raise RunTimeout(deadline.message())
    except Exception as error:
        settle(deadline, None, error)
        raise
    else:
        return settle(deadline, outcome, None)
    finally:
        _active_deadline.reset(token)


def run_with_deadline(work: Callable[[], T], deadline: Deadline) -> T:
    """Run `work` in a worker thread; raise RunTimeout once the deadline passes.

    A thread cannot be killed: after a timeout the worker may still finish its
    in-flight model call, but the deadline guard refuses every further one.
    """
    box: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        _active_deadline.set(deadline)
        try:
            box["value"] = work()
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller
            box["error"] = error
        finally:
            done.set()

    # The worker runs in a copy of the caller's context (the run's deadline, and any
    # context variable a caller set for this run).
    context = copy_context()
    worker = threading.Thread(target=lambda: context.run(target), name="envelope-run", daemon=True)
    worker.start()
    while not done.wait(timeout=min(max(deadline.remaining(), 0.0), 0.05)):
        if deadline.expired():
            raise RunTimeout(deadline.message())
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]
