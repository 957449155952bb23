"""What gates add to CrewAI's human feedback (pipeline.py's review, GateReview, decide).

CrewAI carries the pause (HumanFeedbackPending), the saved state and context (RunStore) and
the resume in a new process (Flow.from_pending). Here: the records of each round, per-record
verdicts (a decisions file's, or typed at the terminal), the trigger and its threshold. What
a rejection (onReject rerun or escalate) or a timeout (timeout.behaviour) does is
gate_revision.py's, loaded only then. The gate rules are gates.py's. Only a team with gates
loads this module.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
from collections.abc import Callable, Coroutine
from contextlib import nullcontext, redirect_stdout
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from crewai.flow.async_feedback import HumanFeedbackPending
from pydantic import ValidationError

from ..gate_rules import apply_decisions, evaluate, released_text, timed_out
from ..gates import DecisionItem, GateState, receives, shortened
from ..redaction import redact, secret_values
from . import state

if TYPE_CHECKING:
    from crewai.flow.async_feedback.types import PendingFeedbackContext
    from crewai.flow.human_feedback import HumanFeedbackResult

    from .pipeline import PipelineFlow


T = TypeVar("T")

_TERMINAL = threading.Lock()
"""Gates waiting in parallel branches are reviewed at the terminal one after the other."""


def review(flow: PipelineFlow, name: str) -> list[dict[str, Any]]:
    """Open the gate's next round (the step's records; after rejections, revised ones) and
    list its undecided records, as a decisions file lists them."""
    spec, run = flow.team().GATES[name], flow.state
    gate = run.gates.setdefault(name, GateState())
    if gate.status in ("released", "halted"):
        return []  # decided in an earlier process: the router passes it on
    if gate.round == 0:
        gate.add_round(run.outputs[spec.after_step].records or [])
    elif evaluate(spec, gate)[0] == "revise":
        from .gate_revision import revise

        gate.add_round(revise(flow, spec, gate))
    if gate.status != "waiting":
        gate.status, gate.waiting_since = "waiting", state.utc_now()
    # What CrewAI's console shows a reviewer: without the team's secret values, as the
    # saved run, the pause summary and the decisions file show the records.
    return redact(gate.listing(spec.fields), secret_values(flow.team().SECRETS))


def feedback(flow: PipelineFlow, context: PendingFeedbackContext) -> str | Coroutine[Any, Any, str]:
    """GateReview: the decisions given for this run (a decisions file), else what is typed at
    CrewAI's console, else (or on an empty answer) the run pauses (`_paused`). A gate past its
    timeout gets none: its router applies timeout.behaviour."""
    name = context.metadata["gate"]
    spec, gate = flow.team().GATES[name], flow.state.gates[name]
    if not context.method_output or timed_out(spec, gate, state.utc_now()):
        return ""
    if name in flow.decisions:
        return json.dumps(flow.decisions.pop(name))
    if flow.interactive:
        from crewai.flow.async_feedback import ConsoleProvider

        from .deadline import active_deadline

        deadline = active_deadline()
        # One gate at a time; a human's time does not count against timeout.runMs. CrewAI
        # asks with input("Your feedback: "), whose prompt would land in stdout's JSON.
        with _TERMINAL, deadline.paused() if deadline is not None else nullcontext():
            try:
                with redirect_stdout(sys.stderr):
                    text = ConsoleProvider().request_feedback(context, flow)
            except EOFError:  # nobody at the terminal any more
                text = ""
        if text.strip():
            return text
    return _paused(flow, name, context)


async def _paused(flow: PipelineFlow, name: str, context: PendingFeedbackContext) -> str:
    """The pause, awaited by CrewAI on the flow's loop (a provider may answer with a
    coroutine): CrewAI pauses at the first gate to raise, so the gate waits until the run's
    other branches have ended or wait at their own gates, then in the same pause."""
    if hasattr(flow, "branches"):  # kicked off or resumed through PipelineFlow: counted
        await flow.branches.pause()
    if flow.state.status != "halted":  # a halt elsewhere in the run wins
        flow.state.status, flow.state.message = "pending", f"gate {name} waits for review"
    raise HumanFeedbackPending(context=context)


class Branches:
    """A run's asyncio tasks: CrewAI runs the listeners a method triggers as tasks of their
    own (asyncio.gather), each of which awaits its own work (a step, a gate's review, saving
    the state: in a thread) or its listeners' tasks. A task with none open may still reach a
    gate, unless it is a gate waiting to pause; when every such task is one, nothing else
    can reach a gate in this pause. Counted as tasks begin and end (on the loop's thread)."""

    def __init__(self, root: asyncio.Task[Any] | None) -> None:
        self.open: dict[asyncio.Future[Any], int] = {root: 0} if root else {}  # open children
        self.at_gate = 0
        self.quiet = asyncio.Event()

    def begun(self, task: asyncio.Future[Any], parent: asyncio.Task[Any]) -> None:
        # setdefault: an eager task (asyncio.eager_task_factory) runs its first step, and
        # may begin tasks of its own, before its factory returns it to be counted.
        self.open[parent] = self.open.get(parent, 0) + 1
        self.open.setdefault(task, 0)
        task.add_done_callback(lambda _: self.ended(task, parent))

    def ended(self, task: asyncio.Future[Any], parent: asyncio.Task[Any] | None = None) -> None:
        if self.open.pop(task, None) is not None and parent in self.open:
            self.open[parent] -= 1
        self.changed()

    def changed(self) -> None:
        # Counted once no task runs: an eager task's first step runs within its creator's,
        # which may begin more branches after it.
        asyncio.get_running_loop().call_soon(self._check)

    def _check(self) -> None:
        if sum(not children for children in self.open.values()) <= self.at_gate:
            self.quiet.set()

    async def pause(self) -> None:
        self.at_gate += 1
        self.changed()
        try:
            await self.quiet.wait()
        finally:
            self.at_gate -= 1


_BRANCHES: ContextVar[Branches | None] = ContextVar("envelope_branches", default=None)
"""The Branches of the run a task belongs to: a task copies its creator's context, so runs
at once on one loop (an async host's kickoffs) each count their own."""

TaskFactory = Callable[..., "asyncio.Future[Any]"]


def _counting(found: TaskFactory | None) -> TaskFactory:
    """The loop's task factory from the first run watched on it on (never taken back: runs
    need not end in the order they began): `found`'s tasks, counted in their run's Branches."""

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Future[Any]:
        branches, parent = _BRANCHES.get(), asyncio.current_task(loop)  # the creator's
        task = found(loop, coro, **kw) if found else asyncio.Task(coro, loop=loop, **kw)
        if branches is not None and parent is not None:  # not a host's task
            branches.begun(task, parent)
        return task

    factory.envelope_counts = True  # type: ignore[attr-defined]
    return factory


async def watched(flow: PipelineFlow, run: Coroutine[Any, Any, T]) -> T:
    """`run`, a kickoff or resume of `flow`, its tasks counted in `flow.branches` (the tasks
    the loop makes meanwhile, through its task factory, that descend from this one)."""
    loop, root = asyncio.get_running_loop(), asyncio.current_task()
    found = loop.get_task_factory()
    if not getattr(found, "envelope_counts", False):
        loop.set_task_factory(_counting(found))
    flow.branches = branches = Branches(root)
    token = _BRANCHES.set(branches)
    try:
        return await run
    finally:
        _BRANCHES.reset(token)
        if root is not None:
            branches.ended(root)


def parse(text: str, undecided: list[str]) -> list[DecisionItem]:
    """Verdicts as a decisions file gives them (a JSON list), or typed on one line:
    `r1 approve; r2 reject: why`; an action without a record is every undecided record's."""
    if text.lstrip().startswith("["):
        return [DecisionItem.model_validate(item) for item in json.loads(text)]
    items = []
    for part in filter(str.strip, text.split(";")):
        head, _, why = part.partition(":")
        record, _, action = head.strip().partition(" ")
        if not re.fullmatch(r"r\d+", record):
            items += [DecisionItem(record=r, action=head, feedback=why.strip()) for r in undecided]
        else:
            items.append(DecisionItem(record=record, action=action.strip(), feedback=why.strip()))
    return items


def decide(flow: PipelineFlow, name: str, result: HumanFeedbackResult) -> str:
    """The gate's router: apply the verdicts (or the timeout), then the trigger and onReject."""
    spec, run = flow.team().GATES[name], flow.state
    gate = run.gates[name]
    if gate.status == "waiting" and timed_out(spec, gate, state.utc_now()):
        from .gate_revision import on_timeout

        on_timeout(flow, spec, gate)
    elif gate.status == "waiting" and result.feedback.strip():
        try:
            answers = parse(result.feedback, [r.id for r in gate.undecided()])
            problems = apply_decisions(spec, gate, answers, state.utc_now(), "human")
        except (ValueError, ValidationError) as error:
            answers, problems = [], [f"gate {name}: unreadable decisions: {shortened(str(error))}"]
        for problem in problems:  # typed at the terminal: asked again
            print(problem, file=sys.stderr)
        if answers and not problems:
            _traced(flow.team().PIPELINE[spec.after_step].agent_key, name, answers)
    if gate.status == "waiting":
        outcome, message = evaluate(spec, gate)
        if outcome == "revise" and spec.on_reject == "escalate":
            from .gate_revision import self_escalation  # the step's agent would decide

            why = self_escalation(flow, spec)
            outcome, message = ("halted", f"{message}; {why}") if why else (outcome, message)
        if outcome in ("released", "halted"):
            gate.status, gate.message = outcome, message
    if gate.status == "halted":
        run.status, run.message = "halted", gate.message
    elif run.status == "pending":
        run.status, run.message = "running", None
    return f"{name}:{'again' if gate.status == 'waiting' else gate.status}"


def _traced(agent_key: str, gate: str, answers: list[DecisionItem]) -> None:
    """A reviewer's decisions into the run's trace, when the run has one (tracing.py loads
    trace.py only for a traced run)."""
    trace = sys.modules.get(f"{__name__.rsplit('.', 2)[0]}.trace")
    if trace is not None:
        trace.decided(agent_key, gate, answers)


def records_for(flow: PipelineFlow, key: str) -> list[str]:
    """The records each gate step `key` waits for released (with the gate's note)."""
    team = flow.team()
    awaited = receives(key, team.PIPELINE[key].depends_on, team.GATES)[1]
    return [
        released_text(
            team.GATES[name],
            flow.state.gates[name],
            json.dumps(flow.released(name), indent=2, ensure_ascii=False),
        )
        for name in awaited
    ]
