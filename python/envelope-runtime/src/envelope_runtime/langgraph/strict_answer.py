"""A gate's last ask in one task (pipeline._decisions): LangGraph validates the resume value
against this schema before it keeps it, and refuses a value that fails it by failing that
resume, keeping nothing; the interrupt stays, under the same id, to be answered again.
Loaded only once a gate waiting beside others has refused pipeline.REASKS values.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, model_validator
from typing_extensions import Self

from ..gate_rules import apply_decisions
from ..gates import DecisionItem, GateSpec, GateState
from ..team_package import TeamPackage
from . import runtime
from .nodes import clean


def strict_answer(package: TeamPackage, spec: GateSpec, gate: GateState) -> type[BaseModel]:
    """The schema of a resume value whose decisions all apply to `gate` now."""

    class GateAnswer(BaseModel):
        """`{"decisions": [{"record", "action", "feedback"}]}`, every decision valid."""

        # The error is shown to the client and stored with the failed task: never the value.
        model_config = ConfigDict(hide_input_in_errors=True)
        decisions: list[DecisionItem]

        @model_validator(mode="after")
        def _applies(self) -> Self:
            trial = gate.model_copy(deep=True)
            problems = apply_decisions(spec, trial, self.decisions, runtime.utc_now(), "check")
            if problems:
                raise ValueError("; ".join(clean(package, problems)))
            return self

    return GateAnswer
