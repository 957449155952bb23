"""pipeline mode: the node functions of the steps and of their review gates.

- `step_<key>`: one conversation of the step's agent, given the run's inputs and what it
  waits for (answers, or records a gate approved); a gated step routes to its gates.
- `gate_<name>` never calls a model: it opens a review round and pauses the run with
  `interrupt()`; a resume re-runs only this node, which applies gates.py's rules, then
  releases, waits again, reruns the step (onReject rerun), escalates or halts the run.
- `escalate_<name>`: rejected (onReject) or undecided (timeout) records to the manager;
  the gate halts instead when that is the step's own agent (agents.self_escalation).
- `released_<name>`: the approved records to the step the gate triggers.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langgraph.errors import GraphInterrupt
from langgraph.graph import END
from langgraph.types import Command, interrupt
from pydantic import BaseModel, ValidationError

from ..gates import (
    MAX_ROUNDS,
    DecisionItem,
    GateRecord,
    GateSpec,
    GateState,
    Outcome,
    receives,
    shortened,
)
from ..team_package import TeamPackage
from . import agents, llms, prompts, runtime
from .agents import AgentGraph
from .nodes import Node, State, TeamNodes, Update, answer_json, as_json, clean, halt

# Node names (graph.py): of a step by its key, of a gate's nodes by its name.
step_node: Callable[[str], str] = "step_{}".format
gate_node: Callable[[str], str] = "gate_{}".format
escalate_node: Callable[[str], str] = "escalate_{}".format
released_node: Callable[[str], str] = "released_{}".format

REASKS = 3
"""The most resume values a gate waiting beside other gates keeps in one task (_decisions):
the server bounds each value, this their number."""


class GateDecisionError(ValueError):
    """Decisions a gate cannot apply; `problems` lists every one of them."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


class GateDecisions(BaseModel):
    """A manager's decisions on the records nobody reviewed in time."""

    decisions: list[DecisionItem]


def gates_after(package: TeamPackage, step_key: str) -> list[str]:
    gates: Mapping[str, GateSpec] = package.team.GATES
    return [name for name, spec in gates.items() if spec.after_step == step_key]


def gates_into(package: TeamPackage, step_key: str) -> list[str]:
    gates: Mapping[str, GateSpec] = package.team.GATES
    return [name for name, spec in gates.items() if spec.triggers_step == step_key]


def gate_state(state: Mapping[str, Any], name: str) -> GateState:
    return GateState.model_validate((state.get("gates") or {}).get(name) or {})


def review_request(spec: GateSpec, gate: GateState) -> dict[str, Any]:
    """What a gate's interrupt() presents: the records to decide and how to decide them."""
    limit = spec.timeout()
    since = gate.waiting_since
    deadline = since + limit if since is not None and limit is not None else None
    return {
        "gate": spec.name,
        "type": spec.type,
        "step": spec.after_step,
        "triggers": spec.triggers_step,
        "round": gate.round,
        "trigger": spec.trigger,
        "threshold": spec.threshold_count,
        "records": [
            {"id": r.id, "fields": {f: r.data.get(f) for f in spec.fields}}
            for r in gate.undecided()
        ],
        "actions": [{"label": action.label, "verb": action.verb} for action in spec.actions],
        "waiting_since": since.isoformat() if since is not None else None,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "problems": gate.problems,
    }


def decisions_of(spec: GateSpec, value: Any) -> list[DecisionItem]:
    """The resume value of a gate's interrupt: `{"decisions": [{"record", "action", ...}]}`."""
    items = value.get("decisions") if isinstance(value, dict) else None
    if not isinstance(items, list):
        raise GateDecisionError([f'gate {spec.name}: resume with {{"decisions": [...]}}'])
    try:
        return [DecisionItem.model_validate(item) for item in items]
    except ValidationError as error:
        raise GateDecisionError([f"gate {spec.name}: {shortened(str(error))}"]) from None


def _clean_feedback(package: TeamPackage, items: Sequence[DecisionItem]) -> list[DecisionItem]:
    return [item.model_copy(update={"feedback": clean(package, item.feedback)}) for item in items]


def _traced(agent_key: str, gate: str, items: Sequence[DecisionItem]) -> None:
    """A reviewer's decisions into the run's trace: only a run that asks for one loads it."""
    trace = sys.modules.get(f"{__package__.rpartition('.')[0]}.trace")
    if trace is not None:
        trace.decided(agent_key, gate, items)


class PipelineNodes(TeamNodes):
    """The node functions of a pipeline team's graph: prepare, steps, gates, finalize."""

    def __init__(self, package: TeamPackage, model_for: llms.ModelFactory | None = None) -> None:
        super().__init__(package, model_for)
        # The structured answer of each gated step (state.py).
        self.record_models: Mapping[str, type[BaseModel]] = package.module("state").RECORD_MODELS

    def step_timeout(self, step_key: str) -> float:
        agent_key = self.package.team.PIPELINE[step_key].agent_key
        return llms.node_timeout(self.package.models.MODELS[agent_key].timeout_s)

    def escalation_timeout(self, gate_name: str) -> float:
        manager = self._manager(self.package.team.GATES[gate_name])
        return llms.node_timeout(self.package.models.MODELS[manager].timeout_s)

    def step(self, step_key: str) -> Node:
        """A step's node; its agent's graph is compiled here, once."""
        agent_key = self.package.team.PIPELINE[step_key].agent_key
        graph = self.agents.task_graph(agent_key, self._schema(step_key))

        async def run_step(state: State) -> Update | Command[str]:
            return await self._within_deadline(
                state, lambda: self._run_step(graph, step_key, state)
            )

        return run_step

    def step_inputs(self, step_key: str, state: Mapping[str, Any]) -> list[str]:
        from .. import gate_rules as rules

        team = self.package.team
        step = team.PIPELINE[step_key]
        triggered = prompts.triggered_text(self.package)
        inputs = f"Run inputs (JSON):\n{as_json(state['inputs'])}{triggered}"
        parts = [step.label, inputs]
        answer_deps, awaited = receives(step_key, step.depends_on, team.GATES)
        answers = state.get("answers") or {}
        for dep in answer_deps:
            label = team.PIPELINE[dep].label
            parts.append(f"Output of step {dep} ({label}):\n{answers[dep]}")
        approved = state.get("approved") or {}
        for name in awaited:
            records = as_json(approved.get(name, []))
            parts.append(rules.released_text(team.GATES[name], gate_state(state, name), records))
        return parts

    def _how_to_answer(self, step_key: str, parts: list[str]) -> str:
        schema = self._schema(step_key)
        if schema is self.team_result:
            parts.append(f"Finish by calling {schema.__name__} with the team's result.")
        elif schema is not None:
            fields = ", ".join(self._record_fields(step_key))
            parts.append(
                f"Finish by calling {schema.__name__} with the records for review; "
                f"each record has the fields {fields}."
            )
        return "\n\n".join(parts)

    async def _run_step(
        self, graph: AgentGraph, step_key: str, state: State
    ) -> Update | Command[str]:
        if state.get("halted"):
            return {}
        step = self.package.team.PIPELINE[step_key]
        reviewed_by = gates_after(self.package, step_key)
        # A rerun (onReject rerun): only the gates that sent the step back review it again.
        revising = [name for name in reviewed_by if self._revising(state, name)]
        task = self._how_to_answer(step_key, self.step_inputs(step_key, state))
        feedback = state.get("feedback") or {}
        for name in revising:
            task += f"\n\n{feedback[name]}"
        schema = self._schema(step_key)
        result = await self._ask(step.agent_key, state["inputs"], task, step_key, schema, graph)
        update = self._answer(step_key, result, schema)
        if not reviewed_by:
            return update
        return Command(update=update, goto=[gate_node(name) for name in revising or reviewed_by])

    def _schema(self, step_key: str) -> type[BaseModel] | None:
        if step_key == self.package.team.FINAL_STEP:
            return self.team_result
        return self.record_models.get(step_key)

    def _record_fields(self, step_key: str) -> list[str]:
        """Its gates' fields, in gate order."""
        gates = self.package.team.GATES
        fields = (
            field for name in gates_after(self.package, step_key) for field in gates[name].fields
        )
        return list(dict.fromkeys(fields))

    def _answer(
        self, step_key: str, result: Mapping[str, Any], schema: type[BaseModel] | None
    ) -> Update:
        if schema is None:
            return {"answers": {step_key: clean(self.package, agents.answer_text(result))}}
        answer = self._structured(result, schema, f"step {step_key}")
        if schema is self.team_result:
            return {"answers": {step_key: answer_json(self.package, answer)}}
        data = answer.model_dump(mode="json", by_alias=True)
        rows: list[dict[str, Any]] = clean(self.package, data["records"])
        return {"answers": {step_key: as_json(rows)}, "records": {step_key: rows}}

    def gate(self, gate_name: str) -> Node:
        """A gate's review node: it asks (interrupt) until a resume value applies."""

        async def review(state: State) -> Command[str]:
            return self._review(self.package.team.GATES[gate_name], state)

        return review

    def _review(self, spec: GateSpec, state: State) -> Command[str]:
        from .. import gate_rules as rules  # deciding at a gate: loaded when a gate decides

        if state.get("halted"):
            return Command(goto=END)
        gate = gate_state(state, spec.name)
        if gate.round == 0 or gate.status == "open":
            # A new round: the step's (new) records. It is stored before anyone is asked,
            # so the execution that pauses has nothing left to do but ask.
            gate.add_round((state.get("records") or {}).get(spec.after_step, []))
            gate.status, gate.waiting_since = "waiting", runtime.utc_now()
            command = self._gate_command(spec, gate, goto=gate_node(spec.name))
            return dataclasses.replace(command, update={**command.update, "status": "waiting"})
        # On resume LangGraph runs this node again from the top: decisions that come after
        # the deadline are never applied, timeout.behaviour applies instead.
        if rules.timed_out(spec, gate, runtime.utc_now()):
            return self._on_timeout(spec, gate, self._late(spec, gate))
        outcome, message = rules.evaluate(spec, gate)
        if outcome == "waiting":
            beside = any(
                gate_state(state, name).status == "waiting"
                for name in self.package.team.GATES
                if name != spec.name
            )
            items = self._decisions(spec, gate, REASKS if beside else 1)
            if items is None:  # refused: a new task asks again, with the problems
                return self._gate_command(spec, gate, goto=gate_node(spec.name))
            _traced(self.package.team.PIPELINE[spec.after_step].agent_key, spec.name, items)
            outcome, message = rules.evaluate(spec, gate)
        return self._route(spec, gate, outcome, message)

    def _decisions(self, spec: GateSpec, gate: GateState, asks: int) -> list[DecisionItem] | None:
        """Asks until a resume value applies, `asks` times in this task: the decisions
        applied to `gate`, or None when the last value was refused too.

        A refused value changes nothing. LangGraph keeps every value a task's interrupts
        were answered with, and replays them in order on each resume, until the task ends:
        none can be dropped while the task asks again (the interrupt ids count them). So a
        lone gate ends the task (a new one asks at once); a gate waiting beside others asks
        again in this task (a new task would wait for a later superstep, which LangGraph
        starts only once every gate waiting now is answered), keeping up to REASKS values,
        then asks with a response_schema that only a value that applies passes: any other
        fails its resume and is not kept, and the gate still waits beside the others.
        Refusing a value does not depend on the time,
        so a replayed one is refused again, and none is applied twice.
        """
        from .. import gate_rules as rules

        for n in range(asks + (asks > 1)):
            if n < asks:
                answer = interrupt(review_request(spec, gate))
            else:
                from .strict_answer import strict_answer

                schema = strict_answer(self.package, spec, gate)
                answer = interrupt(review_request(spec, gate), response_schema=schema).model_dump()
            try:
                items = _clean_feedback(self.package, decisions_of(spec, answer))
                problems = rules.apply_decisions(spec, gate, items, runtime.utc_now(), "human")
            except GateDecisionError as error:
                problems = error.problems
            if not problems:
                gate.problems = []
                return items
            gate.problems = clean(self.package, problems)
        return None

    def _late(self, spec: GateSpec, gate: GateState) -> bool:
        """Whether this resume gave the gate (past its deadline) decisions that would apply.

        The task first replays the values it refused before (a gate beside others reads up
        to REASKS, _decisions), so the first value that would apply, tried on a copy, is
        this resume's. GraphInterrupt (no value from this resume: a sweep's, or one for
        other gates only) is caught so that the timeout applies now instead of a pause.
        """
        try:
            return bool(self._decisions(spec, gate.model_copy(deep=True), REASKS))
        except (GraphInterrupt, ValidationError):  # ValidationError: the strict ask refused it
            return False

    def _route(
        self, spec: GateSpec, gate: GateState, outcome: Outcome, message: str
    ) -> Command[str]:
        name = spec.name
        if outcome == "released":
            gate.status, gate.message = "released", message
            return self._gate_command(spec, gate, goto=released_node(name))
        if outcome == "waiting":
            return self._gate_command(spec, gate, goto=gate_node(name))
        if outcome == "revise" and spec.on_reject == "escalate":
            why = agents.self_escalation(self.package, spec.after_step)
            outcome, message = ("halted", f"{message}; {why}") if why else (outcome, message)
        if outcome == "revise":
            # "open": the next visit starts a round with the revised records.
            gate.status, gate.message = "open", message
            revise = step_node(spec.after_step) if spec.on_reject == "rerun" else None
            return self._gate_command(
                spec,
                gate,
                goto=revise or escalate_node(name),
                feedback=self._revision_request(spec, gate),
            )
        gate.status, gate.message = "halted", message
        return self._gate_command(spec, gate, goto=END, halted=message)

    def _on_timeout(self, spec: GateSpec, gate: GateState, late: bool) -> Command[str]:
        """timeout.behaviour: proceed releases, halt halts, escalate asks the manager (halts
        when that is the step's own agent: agents.self_escalation).
        `late`: the resume carried decisions; the message says they were not applied."""
        from .. import gate_timeouts as rules

        if spec.timeout_behaviour == "escalate":
            # The message gate_rules.evaluate goes on from once the manager has decided.
            gate.message = rules.timeout_message(spec, gate, "escalate", late)
            why = agents.self_escalation(self.package, spec.after_step)
            if why:
                gate.status, gate.message = "halted", f"{gate.message}; {why}"
                return self._gate_command(spec, gate, goto=END, halted=gate.message)
            return self._gate_command(spec, gate, goto=escalate_node(spec.name))
        if spec.timeout_behaviour == "proceed":
            rules.proceed(spec, gate, runtime.utc_now(), late)
            return self._gate_command(spec, gate, goto=released_node(spec.name))
        gate.status, gate.message = "halted", rules.timeout_message(spec, gate, "halt", late)
        return self._gate_command(spec, gate, goto=END, halted=gate.message)

    @staticmethod
    def _gate_command(
        spec: GateSpec,
        gate: GateState,
        goto: str,
        feedback: str | None = None,
        halted: str | None = None,
    ) -> Command[str]:
        update: Update = {"gates": {spec.name: gate.model_dump(mode="json")}}
        if feedback is not None:
            update["feedback"] = {spec.name: feedback}
        if halted is not None:
            update.update(halt(halted))
        return Command(update=update, goto=goto)

    @staticmethod
    def _revising(state: Mapping[str, Any], name: str) -> bool:
        gate = gate_state(state, name)
        return gate.round > 0 and gate.status == "open"

    @staticmethod
    def _records_json(records: Sequence[GateRecord]) -> str:
        return as_json([{"id": r.id, **r.data, "feedback": r.feedback} for r in records])

    def _revision_request(self, spec: GateSpec, gate: GateState) -> str:
        rejected = [record for record in gate.current() if record.decision == "reject"]
        return (
            f"Reviewers rejected these records at gate {spec.name} "
            f"(round {gate.round} of {MAX_ROUNDS}), with their feedback (JSON):\n"
            f"{self._records_json(rejected)}\n\n"
            f"Already approved, do not repeat (JSON):\n{self._records_json(gate.approved())}\n\n"
            "Answer with replacement records only."
        )

    def escalate(self, gate_name: str) -> Node:
        """The node that takes a gate's records to the step agent's manager: its graphs for
        deciding what nobody reviewed in time and for revising rejected records."""
        spec = self.package.team.GATES[gate_name]
        manager = self._manager(spec)
        decide = self.agents.task_graph(manager, GateDecisions)
        revise = self.agents.task_graph(manager, self.record_models[spec.after_step])

        async def run_escalation(state: State) -> Update | Command[str]:
            return await self._within_deadline(
                state, lambda: self._escalate(decide, revise, spec, state)
            )

        return run_escalation

    def _worked_from(self, spec: GateSpec, state: Mapping[str, Any]) -> str:
        received = "\n\n".join(self.step_inputs(spec.after_step, state))
        return f"Step {spec.after_step} worked from:\n\n{received}"

    def _manager(self, spec: GateSpec) -> str:
        return agents.manager_of(
            self.package, self.package.team.PIPELINE[spec.after_step].agent_key
        )

    async def _escalate(
        self, decide: AgentGraph, revise: AgentGraph, spec: GateSpec, state: State
    ) -> Command[str]:
        if state.get("halted"):
            return Command(goto=END)
        from .. import gate_rules as rules

        gate = gate_state(state, spec.name)
        manager = self._manager(spec)
        inputs = state["inputs"]
        if gate.status == "waiting":
            # timeout.behaviour escalate: the manager decides what nobody reviewed.
            verbs = ", ".join(a.verb for a in spec.actions if a.verb != "reset")
            task = (
                f"Nobody reviewed these records of step {spec.after_step} at gate "
                f"{spec.name} within {spec.timeout_after}. Decide each one ({verbs}) "
                f"(JSON):\n{self._records_json(gate.undecided())}\n\n"
                f"{self._worked_from(spec, state)}\n\n"
                f"Finish by calling {GateDecisions.__name__} with one decision per record."
            )
            name = f"escalate:{spec.name}"
            result = await self._ask(manager, inputs, task, name, GateDecisions, decide)
            decided = self._structured(result, GateDecisions, f"gate {spec.name}")
            now = runtime.utc_now()
            reviewer = f"agent:{manager}"
            items = _clean_feedback(self.package, decided.decisions)
            problems = rules.apply_decisions(spec, gate, items, now, reviewer, system=True)
            if problems:
                raise GateDecisionError(problems)
            # Records the manager left undecided (or named wrongly) are skipped.
            leftovers = [DecisionItem(record=r.id, action="skip") for r in gate.undecided()]
            rules.apply_decisions(spec, gate, leftovers, now, "timeout", system=True)
            gate.waiting_since = None
            return self._gate_command(spec, gate, goto=gate_node(spec.name))
        # onReject escalate: the manager writes replacement records for the next round.
        model = self.record_models[spec.after_step]
        feedback = (state.get("feedback") or {}).get(spec.name, "")
        fields = ", ".join(self._record_fields(spec.after_step))
        task = (
            f"Revise records of step {spec.after_step}.\n\n{feedback}\n\n"
            f"{self._worked_from(spec, state)}\n\n"
            f"Finish by calling {model.__name__} with the records; "
            f"each record has the fields {fields}."
        )
        name = f"revise:{spec.name}"
        result = await self._ask(manager, inputs, task, name, model, revise)
        update = self._answer(spec.after_step, result, model)
        return Command(update=update, goto=gate_node(spec.name))

    def released(self, gate_name: str) -> Node:
        """The node that hands a gate's approved records to its triggersStep."""

        async def release(state: State) -> Update:
            if state.get("halted"):
                return {}
            gate = gate_state(state, gate_name)
            return {"approved": {gate_name: [record.data for record in gate.approved()]}}

        return release
