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
    # agents[0] head-of-support
    "head-of-support": "head_of_support",
    # agents[1] billing-lead
    "billing-lead": "billing_lead",
    # agents[2] refunds-specialist
    "refunds-specialist": "refunds_specialist",
    # agents[3] invoicing-specialist
    "invoicing-specialist": "invoicing_specialist",
    # agents[4] technical-lead
    "technical-lead": "technical_lead",
    # agents[5] api-specialist
    "api-specialist": "api_specialist",
    # agents[6] integrations-specialist
    "integrations-specialist": "integrations_specialist",
    # agents[7] trust-safety-lead
    "trust-safety-lead": "trust_safety_lead",
    # agents[8] fraud-analyst
    "fraud-analyst": "fraud_analyst",
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
    # agents[0] head-of-support
    head_of_support: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent head-of-support."}
    )
    # agents[1] billing-lead
    billing_lead: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent billing-lead."}
    )
    # agents[2] refunds-specialist
    refunds_specialist: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent refunds-specialist."}
    )
    # agents[3] invoicing-specialist
    invoicing_specialist: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent invoicing-specialist."}
    )
    # agents[4] technical-lead
    technical_lead: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent technical-lead."}
    )
    # agents[5] api-specialist
    api_specialist: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent api-specialist."}
    )
    # agents[6] integrations-specialist
    integrations_specialist: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent integrations-specialist."}
    )
    # agents[7] trust-safety-lead
    trust_safety_lead: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent trust-safety-lead."}
    )
    # agents[8] fraud-analyst
    fraud_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent fraud-analyst."}
    )
