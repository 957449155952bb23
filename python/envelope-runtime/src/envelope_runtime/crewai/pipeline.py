"""How pipeline steps and gates run inside the CrewAI Flow (the generated flow.py).

flow.py only wires the steps (`@start`, `@listen(and_(...))`) and gates (`@router`);
every method body calls `run_step` or `review` here. Each step is a one-task crew for
the step's agent. A step receives exactly its
dependencies' outputs (the first step receives the run inputs); the step a gate
triggers receives the gate's approved records instead of the gated step's output.
Finished steps are kept in the run state, so a resumed run does not repeat them.

What gates do is in review.py, loaded (with the gate rules) only by a team that has gates.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import TYPE_CHECKING

from crewai import Crew
from crewai.flow import Flow
from crewai.utilities.converter import ConverterError
from pydantic import BaseModel, Field

from .crew_base import kickoff
from .state import RunState, RunStore, StepOutput
from .steps import PipelineCrew

if TYPE_CHECKING:
    from ..gates import Reviewer

__all__ = ["PipelineFlow", "PipelineState", "StepFailed"]


class StepFailed(RuntimeError):
    """A step's answer could not be used."""


_AGAIN = "Do the task again and answer exactly in the expected format."


def _joined(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part)


class PipelineState(BaseModel):
    run: RunState = Field(default_factory=RunState)


class PipelineFlow(Flow[PipelineState]):
    """Base of the team's flow: step and gate mechanics, no wiring."""

    def configure(self, crews: PipelineCrew, store: RunStore, reviewer: Reviewer | None) -> None:
        """`reviewer` decides at the gates (None for a team without gates)."""
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
        depends_on = self._team().PIPELINE[key].depends_on
        if self._team().GATES:
            from ..gates import receives  # only a team with gates loads the gate rules

            answer_deps, _ = receives(key, depends_on, self._team().GATES)
        else:
            answer_deps = list(depends_on)
        return {dep: self.state.run.outputs[dep].text for dep in answer_deps}

    def _released(self, key: str) -> list[str]:
        """The records each gate `key` waits for released (with the gate's note)."""
        if not self._team().GATES:
            return []
        from .review import released

        return released(self, key)

    def _inputs_text(self) -> str:
        return self.crews.inputs_text()

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
        """Router body of a gate: returns `<gate>:released`, `:waiting` or `:halted`
        (review.py)."""
        from .review import review

        return review(self, name)
