"""How pipeline steps and gates run inside the CrewAI Flow (the generated flow.py).

flow.py only wires the steps (`@start`, `@listen(and_(...))`) and gates (`@router`);
every method body calls `run_step` or `review` here. Each step is a one-task crew for
the step's agent. A step receives exactly its
dependencies' outputs (the first step receives the run inputs); the step a gate
triggers receives the gate's approved records instead of the gated step's output.
Finished steps are kept in the run state, so a resumed run does not repeat them.
"""

from __future__ import annotations

import json
import sys
import threading
from contextlib import nullcontext
from types import ModuleType
from typing import Any

from crewai import Crew
from crewai.flow import Flow
from crewai.utilities.converter import ConverterError
from pydantic import BaseModel, Field

from ..gates import (
    MAX_ROUNDS,
    DecisionItem,
    GateSpec,
    GateState,
    Reviewer,
    apply_decisions,
    evaluate,
    proceed,
    receives,
    released_text,
    timed_out,
)
from . import runtime, state
from .crew_base import kickoff, manager_of
from .state import RunState, RunStore, StepOutput
from .steps import PipelineCrew

__all__ = ["GateDecisions", "PipelineFlow", "PipelineState", "StepFailed"]

_TERMINAL = threading.Lock()
"""Gates waiting in parallel branches are reviewed at the terminal one after the other."""


class StepFailed(RuntimeError):
    """A step's answer could not be used."""


_AGAIN = "Do the task again and answer exactly in the expected format."


def _joined(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part)


def _traced_decisions(agent_key: str, gate: str, answers: list[DecisionItem]) -> None:
    """A reviewer's decisions into the run's trace (trace.decided), when the run has one: the
    trace module is loaded only by a traced run (tracing.py), so none is loaded here."""
    trace = sys.modules.get(f"{__name__.rsplit('.', 2)[0]}.trace")
    if trace is not None:
        trace.decided(agent_key, gate, answers)


class GateDecisions(BaseModel):
    """A manager's decisions when a gate times out with behaviour `escalate`."""

    decisions: list[DecisionItem]


class PipelineState(BaseModel):
    run: RunState = Field(default_factory=RunState)


class PipelineFlow(Flow[PipelineState]):
    """Base of the team's flow: step and gate mechanics, no wiring."""

    def configure(self, crews: PipelineCrew, store: RunStore, reviewer: Reviewer) -> None:
        self.crews = crews
        self.store = store
        self.reviewer = reviewer
        self.lock = threading.RLock()

    def _team(self) -> ModuleType:
        """The team's team.py (pipeline[], gates[], outputs), through its crews' package."""
        return self.crews.package.team

    # --- steps -----------------------------------------------------------

    def run_step(self, key: str) -> None:
        run = self.state.run
        if key in run.outputs:
            return  # finished before the run paused
        received, answers = self.step_context(key), self._answers(key)
        try:
            output = self._kickoff(self.crews.step_crew(key, received, answers), key)
        except (StepFailed, ConverterError) as error:
            # One more try, told why: the answer did not hold the step's structure (and
            # CrewAI's own conversion of it failed too).
            why = f"Your previous answer could not be used ({error}). {_AGAIN}"
            output = self._kickoff(self.crews.step_crew(key, _joined(received, why), answers), key)
        with self.lock:
            run.outputs[key] = output
            self.store.save(run)

    def step_context(self, key: str) -> str:
        """What the step's task gets appended: released records, or for a step that waits
        for nothing the run inputs. The answers it waits for are its CrewAI context."""
        if self._answers(key) or self._released(key):
            return "\n\n".join(self._released(key))
        return self._inputs_text()

    def _answers(self, key: str) -> dict[str, str]:
        """The answers of the steps `key` waits for that no gate reviews."""
        answer_deps, _ = receives(key, self._team().PIPELINE[key].depends_on, self._team().GATES)
        return {dep: self.state.run.outputs[dep].text for dep in answer_deps}

    def _released(self, key: str) -> list[str]:
        """The records each gate `key` waits for released (with the gate's note)."""
        run = self.state.run
        _, awaited = receives(key, self._team().PIPELINE[key].depends_on, self._team().GATES)
        parts = []
        for name in awaited:
            gate = run.gates[name]
            approved = [record.data for record in gate.approved()]
            text = json.dumps(approved, indent=2, ensure_ascii=False)
            parts.append(released_text(self._team().GATES[name], gate, text))
        return parts

    def _received(self, key: str) -> list[str]:
        """Everything the step works from, as text (an escalation's context)."""
        answers = [
            f"Output of step {dep} ({self._team().PIPELINE[dep].label}):\n{text}"
            for dep, text in self._answers(key).items()
        ]
        return [*answers, *self._released(key)]

    def _inputs_text(self) -> str:
        return self.crews.inputs_text()

    def _worked_from(self, spec: GateSpec) -> str:
        """An escalation's context: the run's inputs and what the reviewed step received."""
        parts = [self._inputs_text(), *self._received(spec.after_step)]
        return f"Step {spec.after_step} worked from:\n\n" + "\n\n".join(parts)

    def _kickoff(self, crew: Crew, key: str) -> StepOutput:
        result = kickoff(crew)
        if key in self._team().RECORD_MODELS:
            if result.pydantic is None:
                raise StepFailed(f"step {key}: the answer holds no valid records")
            records: list[BaseModel] = result.pydantic.records  # type: ignore[attr-defined]
            rows = [row.model_dump(by_alias=True) for row in records]
            return StepOutput(text=result.raw, records=rows)
        if key == self._team().FINAL_STEP:
            if not isinstance(result.pydantic, self._team().TeamResult):
                raise StepFailed(f"step {key}: the answer does not match the outputs")
            self.state.run.result = result.pydantic.model_dump(by_alias=True)
        return StepOutput(text=result.raw)

    # --- gates -----------------------------------------------------------

    def review(self, name: str) -> str:
        """Router body of a gate: returns `<gate>:released`, `:waiting` or `:halted`."""
        spec = self._team().GATES[name]
        run = self.state.run
        with self.lock:
            gate = run.gates.setdefault(name, GateState())
            if gate.round == 0:
                gate.add_round(run.outputs[spec.after_step].records or [])
                self.store.save(run)
        while True:
            now = state.utc_now()
            if timed_out(spec, gate, now) and not self._on_timeout(spec, gate):
                break
            outcome, message = evaluate(spec, gate)
            if outcome == "revise":
                rows = self._revise(spec, gate)
                with self.lock:
                    gate.add_round(rows)
                    self.store.save(run)
                continue
            if outcome != "waiting":
                with self.lock:
                    gate.status = outcome
                    gate.message = message
                    if outcome == "halted":
                        run.status, run.message = "halted", message
                    self.store.save(run)
                break
            with self.lock:
                if gate.status != "waiting":
                    gate.status, gate.waiting_since = "waiting", now
                    self.store.save(run)
            answers = self._ask(spec, gate)
            if timed_out(spec, gate, state.utc_now()):
                continue  # answers came too late: the timeout behaviour applies
            if not answers or not any(item.action.strip() for item in answers):
                with self.lock:
                    if run.status != "halted":  # a halt elsewhere in the run wins
                        run.status, run.message = "pending", message
                    self.store.save(run)
                break
            with self.lock:
                problems = apply_decisions(spec, gate, answers, state.utc_now(), "human")
                if problems:
                    raise StepFailed("; ".join(problems))
                _traced_decisions(self._team().PIPELINE[spec.after_step].agent_key, name, answers)
                self.store.save(run)
        return f"{name}:{gate.status}"

    def _ask(self, spec: GateSpec, gate: GateState) -> list[DecisionItem] | None:
        if not self.reviewer.interactive:
            return self.reviewer.review(spec, gate)
        deadline = runtime.active_deadline()
        # One gate at a time at the terminal; a human's time does not count against runMs.
        with _TERMINAL, deadline.paused() if deadline is not None else nullcontext():
            return self.reviewer.review(spec, gate)

    def _on_timeout(self, spec: GateSpec, gate: GateState) -> bool:
        """Apply timeout.behaviour; True when the gate should be evaluated again."""
        run = self.state.run
        message = f"gate {spec.name}: no decision within {spec.timeout_after}"
        if spec.timeout_behaviour == "escalate":
            decided = self._escalated_decisions(spec, gate)
            with self.lock:
                manager = f"agent:{self._manager(spec)}"
                problems = apply_decisions(
                    spec, gate, decided, state.utc_now(), manager, system=True
                )
                if problems:
                    raise StepFailed("; ".join(problems))
                # Records the manager left undecided (or named wrongly) are skipped.
                leftovers = [DecisionItem(record=r.id, action="skip") for r in gate.undecided()]
                apply_decisions(spec, gate, leftovers, state.utc_now(), "timeout", system=True)
                gate.status, gate.waiting_since = "open", None
                self.store.save(run)
            return True
        with self.lock:
            if spec.timeout_behaviour == "proceed":
                proceed(spec, gate, state.utc_now())
            else:
                gate.status, gate.message = "halted", message + " (halt)"
                run.status, run.message = "halted", gate.message
            self.store.save(run)
        return False

    def _manager(self, spec: GateSpec) -> str:
        return manager_of(self.crews.package, self._team().PIPELINE[spec.after_step].agent_key)

    def _records_text(self, spec: GateSpec, records: list[Any]) -> str:
        rows = [{"id": r.id, **r.data, "feedback": r.feedback} for r in records]
        return json.dumps(rows, indent=2, ensure_ascii=False)

    def _revise(self, spec: GateSpec, gate: GateState) -> list[dict[str, Any]]:
        """onReject rerun (the step again) or escalate (its manager) with feedback."""
        rejected = [r for r in gate.current() if r.decision == "reject"]
        approved = self._records_text(spec, gate.approved())
        feedback = (
            f"Reviewers rejected these records at gate {spec.name} "
            f"(round {gate.round} of {MAX_ROUNDS}), with their feedback (JSON):\n"
            f"{self._records_text(spec, rejected)}\n\n"
            f"Already approved, do not repeat (JSON):\n{approved}\n\n"
            "Answer with replacement records only."
        )
        model = self._team().RECORD_MODELS[spec.after_step]
        if spec.on_reject == "rerun":
            received = self.step_context(spec.after_step)
            answers = self._answers(spec.after_step)
            crew = self.crews.step_crew(spec.after_step, _joined(received, feedback), answers)
        else:
            crew = self.crews.agent_crew(
                self._manager(spec),
                f"revise:{spec.name}",
                f"Revise records of step {spec.after_step}.\n\n{feedback}\n\n"
                f"{self._worked_from(spec)}",
                f"JSON with a list `records`; fields: {', '.join(spec.fields)}.",
                model,
            )
        output = self._kickoff(crew, spec.after_step)
        with self.lock:
            previous = self.state.run.outputs[spec.after_step]
            output.attempts = previous.attempts + 1
            self.state.run.outputs[spec.after_step] = output
        return output.records or []

    def _escalated_decisions(self, spec: GateSpec, gate: GateState) -> list[DecisionItem]:
        verbs = ", ".join(a.verb for a in spec.actions if a.verb != "reset")
        crew = self.crews.agent_crew(
            self._manager(spec),
            f"escalate:{spec.name}",
            f"Nobody reviewed these records of step {spec.after_step} at gate "
            f"{spec.name} within {spec.timeout_after}. Decide each one "
            f"({verbs}) (JSON):\n{self._records_text(spec, gate.undecided())}\n\n"
            f"{self._worked_from(spec)}",
            'A JSON object {"decisions": [{"record": "<id>", "action": "<verb>", '
            '"feedback": "<why>"}]}.',
            GateDecisions,
        )
        result = kickoff(crew)
        if not isinstance(result.pydantic, GateDecisions):
            raise StepFailed(f"gate {spec.name}: the escalation answer holds no decisions")
        return result.pydantic.decisions
