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
    # agents[0] lead-analyst
    "lead-analyst": "lead_analyst",
    # agents[1] market-analyst
    "market-analyst": "market_analyst",
    # agents[2] financial-analyst
    "financial-analyst": "financial_analyst",
    # agents[3] product-analyst
    "product-analyst": "product_analyst",
    # agents[4] customer-analyst
    "customer-analyst": "customer_analyst",
    # agents[5] legal-analyst
    "legal-analyst": "legal_analyst",
    # agents[6] regulatory-analyst
    "regulatory-analyst": "regulatory_analyst",
    # agents[7] team-analyst
    "team-analyst": "team_analyst",
    # agents[8] esg-analyst
    "esg-analyst": "esg_analyst",
    # agents[9] red-team-analyst
    "red-team-analyst": "red_team_analyst",
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
    # agents[0] lead-analyst
    lead_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent lead-analyst."}
    )
    # agents[1] market-analyst
    market_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent market-analyst."}
    )
    # agents[2] financial-analyst
    financial_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent financial-analyst."}
    )
    # agents[3] product-analyst
    product_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent product-analyst."}
    )
    # agents[4] customer-analyst
    customer_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent customer-analyst."}
    )
    # agents[5] legal-analyst
    legal_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent legal-analyst."}
    )
    # agents[6] regulatory-analyst
    regulatory_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent regulatory-analyst."}
    )
    # agents[7] team-analyst
    team_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent team-analyst."}
    )
    # agents[8] esg-analyst
    esg_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent esg-analyst."}
    )
    # agents[9] red-team-analyst
    red_team_analyst: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent red-team-analyst."}
    )
