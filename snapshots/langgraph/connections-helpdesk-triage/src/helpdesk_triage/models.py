"""The model of each agent (agents[].model / modelConfig); llms.py builds them lazily."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from .envelope_support.llms import ModelSpec, build_chat_model, chosen_model

MODELS: dict[str, ModelSpec] = {
    # agents[0] triager: model openai:gpt-4.1-mini
    "triager": ModelSpec(model="openai:gpt-4.1-mini", timeout_s=30),
}


def model_for(agent_key: str) -> BaseChatModel:
    """The model of one agent in this run (the run's context.Context, else the environment's
    and the definition's): the default of build_graph's model_for seam."""
    return build_chat_model(agent_key, MODELS[agent_key], chosen_model(agent_key))
