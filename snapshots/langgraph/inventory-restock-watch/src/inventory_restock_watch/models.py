"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.langgraph.llms` builds them lazily."""

from __future__ import annotations

from envelope_runtime.langgraph.llms import ModelSpec, build_chat_model, chosen_model
from envelope_runtime.team_package import TeamPackage
from langchain_core.language_models import BaseChatModel

# This team's package: where chosen_model finds the run's context fields (context.py).
TEAM = TeamPackage("inventory_restock_watch")

MODELS: dict[str, ModelSpec] = {
    # agents[0] inventory-planner: model google:gemini-2.5-flash
    "inventory-planner": ModelSpec(model="google_genai:gemini-2.5-flash", timeout_s=30),
    # agents[1] purchasing-assistant: model mistral:mistral-small-latest
    "purchasing-assistant": ModelSpec(model="mistralai:mistral-small-latest", timeout_s=30),
}


def model_for(agent_key: str) -> BaseChatModel:
    """The model of one agent in this run (the run's context.Context, else the environment's
    and the definition's): the default of build_graph's model_for seam."""
    return build_chat_model(agent_key, MODELS[agent_key], chosen_model(TEAM, agent_key))
