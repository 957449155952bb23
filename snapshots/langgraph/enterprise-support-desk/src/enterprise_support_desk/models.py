"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.langgraph.llms` builds them lazily."""

from __future__ import annotations

from envelope_runtime.langgraph.llms import ModelSpec, build_chat_model, chosen_model
from envelope_runtime.team_package import TeamPackage
from langchain_core.language_models import BaseChatModel

# This team's package: where chosen_model finds the run's context fields (context.py).
TEAM = TeamPackage("enterprise_support_desk")

MODELS: dict[str, ModelSpec] = {
    # agents[0] head-of-support: model anthropic:claude-opus-4-5
    "head-of-support": ModelSpec(model="anthropic:claude-opus-4-5", timeout_s=30),
    # agents[1] billing-lead: model anthropic:claude-sonnet-4-5
    "billing-lead": ModelSpec(model="anthropic:claude-sonnet-4-5", timeout_s=30),
    # agents[2] refunds-specialist: model anthropic:claude-sonnet-4-5
    "refunds-specialist": ModelSpec(model="anthropic:claude-sonnet-4-5", timeout_s=30),
    # agents[3] invoicing-specialist: model anthropic:claude-haiku-4-5
    "invoicing-specialist": ModelSpec(model="anthropic:claude-haiku-4-5", timeout_s=30),
    # agents[4] technical-lead: model anthropic:claude-opus-4-5
    "technical-lead": ModelSpec(model="anthropic:claude-opus-4-5", timeout_s=30),
    # agents[5] api-specialist: modelConfig anthropic claude-sonnet-4-5
    "api-specialist": ModelSpec(
        model="anthropic:claude-sonnet-4-5", temperature=0.2, max_tokens=3000, timeout_s=30
    ),
    # agents[6] integrations-specialist: model anthropic:claude-sonnet-4-5
    "integrations-specialist": ModelSpec(model="anthropic:claude-sonnet-4-5", timeout_s=30),
    # agents[7] trust-safety-lead: model anthropic:claude-opus-4-5
    "trust-safety-lead": ModelSpec(model="anthropic:claude-opus-4-5", timeout_s=30),
    # agents[8] fraud-analyst: model anthropic:claude-opus-4-5
    "fraud-analyst": ModelSpec(model="anthropic:claude-opus-4-5", timeout_s=30),
}


def model_for(agent_key: str) -> BaseChatModel:
    """The model of one agent in this run (the run's context.Context, else the environment's
    and the definition's): the default of build_graph's model_for seam."""
    return build_chat_model(agent_key, MODELS[agent_key], chosen_model(TEAM, agent_key))
