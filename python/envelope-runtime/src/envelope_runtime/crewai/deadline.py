"""The whole-run deadline (`timeout.runMs`): imported by a run, never by building a team's
crews.

The deadline is a context variable; CrewAI's public before-LLM-call hook refuses every model
call of a run whose deadline has passed, raising RunTimeout, a HookAborted: CrewAI neither
retries it nor hands it to the agent, so the kickoff fails with it. Our runner gives a run's
work to a worker thread with its deadline (`run_with_deadline`); a kickoff without our runner
(CrewAI AMP's, a Python caller's) is bounded by kickoff_deadline.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from typing import Any, TypeVar

from crewai.hooks import HookAborted, LLMCallHookContext, register_before_llm_call_hook

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
    # CrewAI copies the context into the threads it starts (flow steps, agent timeouts).
    deadline = _active_deadline.get()
    if deadline is not None and deadline.expired():
        raise RunTimeout(deadline.message())


register_before_llm_call_hook(_deadline_guard)


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
