"""What gates add to CrewAI's human feedback (pipeline.py's review, GateReview, decide).

CrewAI carries the pause (HumanFeedbackPending), the saved state and context (RunStore) and
the resume in a new process (Flow.from_pending). Here: the records of each round, per-record
verdicts (a decisions file's, or typed at the terminal), the trigger and its threshold. What
a rejection (onReject rerun or escalate) or a timeout (timeout.behaviour) does is
gate_revision.py's, loaded only then. The gate rules are gates.py's. Only a team with gates
loads this module.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from contextlib import nullcontext, redirect_stdout
from typing import TYPE_CHECKING, Any

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


def feedback(flow: PipelineFlow, context: PendingFeedbackContext) -> str:
    """GateReview: the decisions given for this run (a decisions file), else what is typed at
    CrewAI's console, else (or on an empty answer) the run pauses. A gate past its timeout
    gets none: its router applies timeout.behaviour."""
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
    # CrewAI pauses at the first gate to raise: steps at work beside it finish first, and
    # so reach their own gates, which then wait in the same pause.
    quiet = time.monotonic()
    while time.monotonic() - quiet < 0.3:
        time.sleep(0.05)
        quiet = time.monotonic() if flow.running else quiet
    if flow.state.status != "halted":  # a halt elsewhere in the run wins
        flow.state.status, flow.state.message = "pending", f"gate {name} waits for review"
    raise HumanFeedbackPending(context=context)


def due(flow: PipelineFlow) -> bool:
    """Whether the flow kicked off again has a gate to decide (flow_runner): decisions given
    for it, or a waiting gate past its deadline, which the pause may have left beside."""
    gates, now = flow.team().GATES, state.utc_now()
    return bool(flow.decisions) or any(
        timed_out(gates[name], gate, now) for name, gate in flow.state.gates.items()
    )


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
