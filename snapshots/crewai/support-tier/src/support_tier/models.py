"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] support-lead: model anthropic:claude-opus-4-5
    "support-lead": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
    # agents[1] billing-specialist: model anthropic:claude-sonnet-4-5
    "billing-specialist": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[2] technical-specialist: model anthropic:claude-sonnet-4-5
    "technical-specialist": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
