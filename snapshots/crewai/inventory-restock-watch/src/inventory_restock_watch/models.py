"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] inventory-planner: model google:gemini-2.5-flash
    "inventory-planner": ModelSpec(model="gemini/gemini-2.5-flash", timeout_ms=30000),
    # agents[1] purchasing-assistant: model mistral:mistral-small-latest
    "purchasing-assistant": ModelSpec(model="mistral/mistral-small-latest", timeout_ms=30000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
