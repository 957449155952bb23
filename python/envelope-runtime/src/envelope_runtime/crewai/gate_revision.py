"""What a gate's rejection or timeout does (review.py loads it only then): onReject rerun
(the step again, told the reviewers' feedback) or escalate (the step's manager revises the
rejected records), and timeout.behaviour (the manager decides, the undecided records are
released, or the run halts). An escalation that would go to the step's own agent halts the
run instead (self_escalation).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from crewai import Crew, Task
from pydantic import BaseModel

from ..gate_rules import apply_decisions
from ..gate_timeouts import late_notice, proceed, timeout_message
from ..gates import MAX_ROUNDS, DecisionItem, GateSpec, GateState
from . import state
from .crew_base import kickoff, roots
from .pipeline import StepFailed, joined

if TYPE_CHECKING:
    from ..team_package import TeamPackage
    from .pipeline import PipelineFlow
    from .steps import PipelineCrew


class GateDecisions(BaseModel):
    """A manager's decisions when a gate times out with behaviour `escalate`."""

    decisions: list[DecisionItem]


def on_timeout(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> None:
    """timeout.behaviour: the manager decides (escalate; the run halts if that is the step's
    own agent), the undecided records are released (proceed), or the run halts. Decisions
    given for the gate (a decisions file's, answers typed at the terminal) came after its
    deadline: they lose to it, and are named."""
    now = state.utc_now()
    late = _late(flow, spec.name)
    if late:
        # The runner's decisions file keeps them (LangGraph's words): not read after all, so
        # the next pause moves it aside instead of writing a template over it (run_files).
        args = getattr(flow, "runner_args", None)  # our runner's, not AMP's kickoff
        path = getattr(args, "decisions", None)
        print(late_notice(spec, gate) + (f"; {path} keeps them" if path else ""), file=sys.stderr)
        if path:
            args.late_decisions = True
    why = self_escalation(flow, spec) if spec.timeout_behaviour == "escalate" else None
    if why:
        gate.status, gate.message = "halted", timeout_message(spec, gate, "escalate", late)
        gate.message += f"; {why}"
    elif spec.timeout_behaviour == "escalate":
        # The message gate_rules.evaluate goes on from once the manager has decided.
        gate.message = timeout_message(spec, gate, "escalate", late)
        manager = f"agent:{_manager(flow, spec)}"
        problems = apply_decisions(spec, gate, _escalated(flow, spec, gate), now, manager, True)
        if problems:
            raise StepFailed("; ".join(problems))
        # Records the manager left undecided (or named wrongly) are skipped.
        leftovers = [DecisionItem(record=r.id, action="skip") for r in gate.undecided()]
        apply_decisions(spec, gate, leftovers, now, "timeout", system=True)
    elif spec.timeout_behaviour == "proceed":
        proceed(spec, gate, now, late)
    else:
        gate.status, gate.message = "halted", timeout_message(spec, gate, "halt", late)
    gate.waiting_since = None if gate.status == "waiting" else gate.waiting_since


def _late(flow: PipelineFlow, name: str) -> bool:
    """Whether decisions were given for gate `name` in this run: a decisions file's its
    review never took (review.feedback gives none to a gate past its deadline), used up here
    so that the gate's next round (after an escalation's rejections) is not given them, or
    the answer its router got (a resume's, or typed at the terminal after the deadline)."""
    history = getattr(flow, "human_feedback_history", ())
    answer = next((r.feedback for r in reversed(history) if r.metadata.get("gate") == name), "")
    return bool(flow.decisions.pop(name, None)) or answer.strip() not in ("", "[]")


def agent_crew(
    crews: PipelineCrew,
    agent_key: str,
    name: str,
    description: str,
    expected_output: str,
    output_model: type[BaseModel] | None,
) -> Crew:
    """One task for one agent, fresh (a manager revising a step's records or deciding them)."""
    worker = crews._fresh()._agent(agent_key)
    work = Task(
        name=name,
        description=description,
        expected_output=expected_output,
        agent=worker,
        output_pydantic=output_model,
    )
    return crews._crew(agents=[worker], tasks=[work])


def manager_of(package: TeamPackage, agent_key: str) -> str:
    """Who an agent's work escalates to: its reportsToKey, else the first root."""
    return package.team.AGENTS[agent_key].reports_to or roots(package)[0]


def _manager(flow: PipelineFlow, spec: GateSpec) -> str:
    return manager_of(flow.crews.package, flow.team().PIPELINE[spec.after_step].agent_key)


def self_escalation(flow: PipelineFlow, spec: GateSpec) -> str | None:
    """Why the gate halts instead of escalating: the escalation would go to the reviewed
    step's own agent (the first root), and no agent decides on its own work."""
    agent = flow.team().PIPELINE[spec.after_step].agent_key
    if _manager(flow, spec) != agent:
        return None
    return (
        f"the escalation would go to {agent}, the agent of step {spec.after_step} itself (it "
        "reports to nobody and is the first root), and nobody else can decide: run halted, no "
        "agent approves its own work"
    )


def _records_text(records: list[Any]) -> str:
    rows = [{"id": r.id, **r.data, "feedback": r.feedback} for r in records]
    return json.dumps(rows, indent=2, ensure_ascii=False)


def _worked_from(flow: PipelineFlow, spec: GateSpec) -> str:
    """A manager's context: the run's inputs and what the reviewed step received."""
    key, pipeline = spec.after_step, flow.team().PIPELINE
    answers = [
        f"Output of step {d} ({pipeline[d].label}):\n{t}" for d, t in flow.answers(key).items()
    ]
    parts = [flow.crews.inputs_text(), *answers, *flow.records_for(key)]
    return f"Step {key} worked from:\n\n" + "\n\n".join(parts)


def revise(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> list[dict[str, Any]]:
    """onReject rerun (the step again) or escalate (its manager), told the feedback."""
    rejected = [r for r in gate.current() if r.decision == "reject"]
    told = (
        f"Reviewers rejected these records at gate {spec.name} (round {gate.round} of "
        f"{MAX_ROUNDS}), with their feedback (JSON):\n{_records_text(rejected)}\n\n"
        f"Already approved, do not repeat (JSON):\n{_records_text(gate.approved())}\n\n"
        "Answer with replacement records only."
    )
    key = spec.after_step
    if spec.on_reject == "rerun":
        received = joined(flow.step_context(key), told)
        crew = flow.crews.step_crew(key, received, flow.answers(key))
    else:
        crew = agent_crew(
            flow.crews,
            _manager(flow, spec),
            f"revise:{spec.name}",
            f"Revise records of step {key}.\n\n{told}\n\n{_worked_from(flow, spec)}",
            f"JSON with a list `records`; fields: {', '.join(spec.fields)}.",
            flow.team().RECORD_MODELS[key],
        )
    output = flow.kickoff_step(crew, key)
    output.attempts = flow.state.outputs[key].attempts + 1
    flow.state.outputs[key] = output
    return output.records or []


def _escalated(flow: PipelineFlow, spec: GateSpec, gate: GateState) -> list[DecisionItem]:
    verbs = ", ".join(a.verb for a in spec.actions if a.verb != "reset")
    crew = agent_crew(
        flow.crews,
        _manager(flow, spec),
        f"escalate:{spec.name}",
        f"Nobody reviewed these records of step {spec.after_step} at gate {spec.name} "
        f"within {spec.timeout_after}. Decide each one ({verbs}) (JSON):\n"
        f"{_records_text(gate.undecided())}\n\n{_worked_from(flow, spec)}",
        'A JSON object {"decisions": [{"record": "<id>", "action": "<verb>", '
        '"feedback": "<why>"}]}.',
        GateDecisions,
    )
    result = kickoff(crew).pydantic
    if not isinstance(result, GateDecisions):
        raise StepFailed(f"gate {spec.name}: the escalation answer holds no decisions")
    return result.decisions
