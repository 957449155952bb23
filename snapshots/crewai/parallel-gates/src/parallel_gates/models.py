"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] procurement-lead: model anthropic:claude-sonnet-4-5
    "procurement-lead": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[1] contract-analyst: model anthropic:claude-sonnet-4-5
    "contract-analyst": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[2] security-analyst: model openai:gpt-4.1
    "security-analyst": ModelSpec(model="openai/gpt-4.1", timeout_ms=30000),
    # agents[3] onboarding-coordinator: model anthropic:claude-haiku-4-5
    "onboarding-coordinator": ModelSpec(model="anthropic/claude-haiku-4-5", timeout_ms=30000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
