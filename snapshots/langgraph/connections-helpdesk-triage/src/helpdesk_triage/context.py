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
    # agents[0] triager
    "triager": "triager",
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
    # agents[0] triager
    triager: str | None = dataclasses.field(
        default=None, metadata={"description": "The model of agent triager."}
    )
