"""The graph's state: the team's inputs and outputs as types, and what the nodes share."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from envelope_runtime.langgraph.runtime import (
    GateStates,
    Span,
    add_spans,
    first_reason,
    merge,
    settle,
)
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict  # typing's on Python < 3.12 gives pydantic no schema


# inputs: the graph's input schema, flat: Studio's input form and the server's schemas show
# it, and LangGraph validates each run's inputs against it before any node works (prepare's
# input). Each field is a channel named by the input's key, except where INPUT_CHANNELS says.
# EphemeralValue: a run's inputs last one step (prepare copies them to `inputs`), so a later
# run on the thread that omits an optional input gets its default, not the last run's value.
class TeamInputs(BaseModel):
    """The team's inputs."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


# Input key -> its key in TeamInputs, for the keys the graph's state, LangGraph or pydantic use
INPUT_CHANNELS: dict[str, str] = {}


# outputs: the final result of a run
class TeamResult(BaseModel):
    """The team's result (outputs)."""

    # outputs.forecast_summary
    forecast_summary: str | None = Field(
        default=None,
        description="Commit, best case and pipeline totals with week-over-week change.",
    )

    # outputs.at_risk_deals
    at_risk_deals: list[Any] | None = Field(
        default=None, description="Deals with a risk reason and a recommended next action."
    )


# The structured answer of each step followed by gates (step key -> model).
RECORD_MODELS: dict[str, type[BaseModel]] = {}


class TeamOutput(TypedDict):
    """What a run ends with (the graph's output schema), the same keys for every run:
    `status` "done" with the team's `result`, "halted" with why in `halted`, or "waiting"
    while a gate waits for review; after a run that failed, None, or still "waiting" when
    a gate had waited in it (the gates do not clear it; the thread's interrupts say whether
    one waits); `halted` and `result` are None when they do not apply."""

    status: Literal["done", "halted", "waiting"] | None
    halted: str | None
    result: TeamResult | None


class TeamState(TypedDict, total=False):
    """Shared by every node. The dicts keyed by step or gate are merged, so parallel steps
    never collide; no secret value is ever stored here (state is checkpointed)."""

    inputs: dict[str, Any]
    """The run's inputs by key as written, checked, defaults applied (prepare)."""
    answers: Annotated[dict[str, str], merge]
    """Step key (or "team" in hierarchy mode) -> the answer, as text or JSON."""
    records: Annotated[dict[str, list[dict[str, Any]]], merge]
    """Step key -> the records of its latest answer (steps followed by gates)."""
    approved: Annotated[dict[str, list[dict[str, Any]]], merge]
    """Gate name -> the records it released: what its triggersStep receives."""
    gates: Annotated[GateStates, merge]
    """Gate name -> its review state (gates.GateState as data)."""
    feedback: Annotated[dict[str, str], merge]
    """Gate name -> the reviewers' feedback for a revision (onReject rerun / escalate)."""
    halted: Annotated[str | None, first_reason]
    """Why a gate (or the run deadline) halted the run; every node does nothing once set.
    This and the other fields with a reducer: None from prepare starts a new run afresh."""
    work: Annotated[list[Span], add_spans]
    """When model-calling nodes worked: timeout.runMs bounds its total, across resumes and
    under any server (`langgraph dev` too), not counting the time a review took."""
    result: dict[str, Any] | None
    """The team's result (outputs, by key), set by finalize (None until then)."""
    status: Annotated[Literal["done", "halted", "waiting"] | None, settle]
    """TeamOutput's status: "halted" stays once set (None until the run ends or waits)."""
