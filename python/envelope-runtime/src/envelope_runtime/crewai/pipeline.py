"""What the steps and gates of the generated flow.py do (a CrewAI Flow; flow.py wires them).

A step (`run_step`) is a one-task crew for its agent (steps.py), given exactly its
dependencies' answers, or the records the gates before it released. A gate is CrewAI's human
feedback: `review` (a `@human_feedback` method, no LLM: no `emit`) lists the records to
decide, `GateReview` is its provider, and `decide` (the `@router` after it) applies the
per-record verdicts; what gates add to CrewAI is in review.py, loaded only by a team with
gates. CrewAI saves the state after every method (`@persist`, state.RunStore); finished
steps are kept, so a resumed run does not repeat them.
"""

from __future__ import annotations

from collections.abc import Coroutine
from types import ModuleType
from typing import TYPE_CHECKING, Any

from crewai.flow import Flow
from crewai.flow.persistence import persist
from crewai.utilities.converter import ConverterError
from pydantic import BaseModel

from ..team_package import TeamPackage
from .crew_base import kickoff
from .state import RunState, RunStore, StepOutput

if TYPE_CHECKING:
    from crewai import Crew
    from crewai.flow.async_feedback.types import PendingFeedbackContext
    from crewai.flow.human_feedback import HumanFeedbackResult

    from .steps import PipelineCrew


class StepFailed(RuntimeError):
    """A step's answer could not be used."""


def joined(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part)


class GateReview:
    """Every gate's HumanFeedbackProvider: decisions given for the run, else the terminal,
    else the run pauses (CrewAI's HumanFeedbackPending). review.feedback."""

    def request_feedback(
        self, context: PendingFeedbackContext, flow: Flow[Any]
    ) -> str | Coroutine[Any, Any, str]:
        from .review import feedback

        return feedback(flow, context)  # type: ignore[arg-type]


@persist(RunStore())  # the runner gives each run its own store (--state-dir, secrets)
class PipelineFlow(Flow[RunState]):
    """Base of the team's flow: step and gate mechanics, no wiring."""

    def configure(
        self,
        crews: PipelineCrew,
        decisions: dict[str, Any] | None = None,
        interactive: bool = False,
    ) -> None:
        """`decisions`: gate -> the decisions given for this run; `interactive`: ask at the
        terminal for the others."""
        self.crews, self.decisions, self.interactive = crews, dict(decisions or {}), interactive

    async def kickoff_async(self, inputs: dict[str, Any] | None = None, *a: Any, **kw: Any) -> Any:
        """CrewAI AMP's and a Flow user's `TeamFlow().kickoff(inputs=...)` (our runner
        configures the flow first and gives none): the inputs, checked by team.TeamInputs,
        become the state's, the flow is configured as `crewai run` configures it, and the run
        is bounded by timeout.runMs (kickoff_deadline.py)."""
        ours = hasattr(self, "crews")
        if not ours:
            from .kickoff_deadline import configured

            inputs = configured(self, inputs or {}, kickoff=True)
        return await self._watched(super().kickoff_async(inputs, *a, **kw), ours)

    @classmethod
    def from_pending(cls, flow_id: str, persistence: Any = None, **kw: Any) -> Any:
        """A run paused at a gate, from the team's store by default (CrewAI's: SQLite)."""
        if persistence is None:
            from .kickoff_deadline import team_store

            persistence = team_store(cls._package(), None)
        return super().from_pending(flow_id, persistence, **kw)

    async def resume_async(self, feedback: str = "") -> Any:
        """`from_pending(...).resume(feedback)` unconfigured (AMP's): configured from the
        run's saved inputs, bounded by timeout.runMs as a kickoff is."""
        ours = hasattr(self, "crews")
        if not ours:
            from .kickoff_deadline import configured

            configured(self, self.state.inputs)
        return await self._watched(super().resume_async(feedback), ours)

    async def _watched(self, run: Coroutine[Any, Any, Any], ours: bool) -> Any:
        """`run` (a kickoff or resume): bounded by timeout.runMs unless it is our runner's
        (kickoff_deadline.flow_run); with gates, its branches counted for a gate that pauses
        (review.watched)."""
        if not ours:
            from .kickoff_deadline import flow_run

            run = flow_run(self, run)
        if self.team().GATES:
            from .review import watched

            run = watched(self, run)
        return await run

    @classmethod
    def _package(cls) -> TeamPackage:
        return TeamPackage(cls.__module__.rpartition(".")[0])  # <package>.flow

    def team(self) -> ModuleType:
        """The team's team.py (pipeline[], gates[], outputs)."""
        return self.crews.package.team

    def run_step(self, key: str) -> None:
        if key in self.state.outputs:
            return  # finished before the run paused
        received, answers = self.step_context(key), self.answers(key)
        try:
            output = self.kickoff_step(self.crews.step_crew(key, received, answers), key)
        except (StepFailed, ConverterError) as error:
            # Once more, told why: the answer did not hold the step's structure.
            why = (
                f"Your previous answer could not be used ({error}). Do the task again and "
                "answer exactly in the expected format."
            )
            retry = self.crews.step_crew(key, joined(received, why), answers)
            output = self.kickoff_step(retry, key)
        self.state.outputs[key] = output

    def step_context(self, key: str) -> str:
        """What the step's task gets appended: released records, or for a step that waits
        for nothing the run inputs. The answers it waits for are its CrewAI context."""
        released = self.records_for(key)
        if released or self.answers(key):
            return joined(*released)
        return self.crews.inputs_text()

    def answers(self, key: str) -> dict[str, str]:
        """The answers of the steps `key` waits for that no gate reviews."""
        team = self.team()
        deps = list(team.PIPELINE[key].depends_on)
        if team.GATES:
            from ..gates import receives

            deps = receives(key, deps, team.GATES)[0]
        return {dep: self.state.outputs[dep].text for dep in deps}

    def records_for(self, key: str) -> list[str]:
        """The records each gate `key` waits for released (with the gate's note)."""
        if not self.team().GATES:
            return []
        from .review import records_for

        return records_for(self, key)

    def kickoff_step(self, crew: Crew, key: str) -> StepOutput:
        team, result = self.team(), kickoff(crew)
        if key in team.RECORD_MODELS:
            if result.pydantic is None:
                raise StepFailed(f"step {key}: the answer holds no valid records")
            records: list[BaseModel] = result.pydantic.records  # type: ignore[attr-defined]
            return StepOutput(
                text=result.raw, records=[r.model_dump(by_alias=True) for r in records]
            )
        if key == team.FINAL_STEP:
            if not isinstance(result.pydantic, team.TeamResult):
                raise StepFailed(f"step {key}: the answer does not match the outputs")
            self.state.result = result.pydantic.model_dump(by_alias=True)
        return StepOutput(text=result.raw)

    # --- gates: the bodies of flow.py's review, router and released methods -------------

    def review(self, name: str) -> list[dict[str, Any]]:
        """The records to decide at gate `name` (its `@human_feedback` method's output)."""
        from .review import review

        return review(self, name)

    def decide(self, name: str, review: HumanFeedbackResult) -> str:
        """The gate's router: `<gate>:released`, `:again` (review again) or `:halted`."""
        from .review import decide

        return decide(self, name, review)

    def released(self, name: str) -> list[dict[str, Any]]:
        """The records gate `name` released (the output of its `released_` method)."""
        return [record.data for record in self.state.gates[name].approved()]
