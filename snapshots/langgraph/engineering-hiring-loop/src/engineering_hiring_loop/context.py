"""The run's context (the graph's context_schema): the model of each agent, per run.

An assistant or a run sets it (langgraph-sdk: `context={...}`; Studio: the assistant's
settings) with the fields below, e.g. `{"<field>": "openai:gpt-4.1-mini"}`. A field left unset
keeps the default: `MODEL_<AGENT>`, else `MODEL_OVERRIDE`, else the definition's model
(llms.agent_model). A model that names no known provider fails the run before any model
call, as the same setting in the environment would.
"""

from __future__ import annotations

import dataclasses

# agents[]: key -> its field of Context
AGENT_FIELDS: dict[str, str] = {
    # agents[0] recruiting-lead
    "recruiting-lead": "recruiting_lead",
    # agents[1] sourcer
    "sourcer": "sourcer",
    # agents[2] screener
    "screener": "screener",
    # agents[3] outreach-writer
    "outreach-writer": "outreach_writer",
    # agents[4] interview-coordinator
    "interview-coordinator": "interview_coordinator",
    # agents[5] debrief-analyst
    "debrief-analyst": "debrief_analyst",
    # agents[6] offer-drafter
    "offer-drafter": "offer_drafter",
}

# The field that sets every agent's model (an agent's own field wins).
ALL_AGENTS_FIELD = "model"


# dataclasses.field, not field: an agent's identifier may be `field` (stdlib module names,
# `dataclasses` among them, are never identifiers).
@dataclasses.dataclass(kw_only=True)
class Context:
    """Models for one run or assistant, each `provider:model`; unset: the default."""

    model: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of every agent without its own."}
    )
    # agents[0] recruiting-lead
    recruiting_lead: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent recruiting-lead."}
    )
    # agents[1] sourcer
    sourcer: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent sourcer."}
    )
    # agents[2] screener
    screener: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent screener."}
    )
    # agents[3] outreach-writer
    outreach_writer: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent outreach-writer."}
    )
    # agents[4] interview-coordinator
    interview_coordinator: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent interview-coordinator."}
    )
    # agents[5] debrief-analyst
    debrief_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent debrief-analyst."}
    )
    # agents[6] offer-drafter
    offer_drafter: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent offer-drafter."}
    )
