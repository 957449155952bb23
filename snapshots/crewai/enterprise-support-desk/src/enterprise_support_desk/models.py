"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] head-of-support: model anthropic:claude-opus-4-5
    "head-of-support": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
    # agents[1] billing-lead: model anthropic:claude-sonnet-4-5
    "billing-lead": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[2] refunds-specialist: model anthropic:claude-sonnet-4-5
    "refunds-specialist": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[3] invoicing-specialist: model anthropic:claude-haiku-4-5
    "invoicing-specialist": ModelSpec(model="anthropic/claude-haiku-4-5", timeout_ms=30000),
    # agents[4] technical-lead: model anthropic:claude-opus-4-5
    "technical-lead": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
    # agents[5] api-specialist: modelConfig anthropic claude-sonnet-4-5
    "api-specialist": ModelSpec(
        model="anthropic/claude-sonnet-4-5", temperature=0.2, max_tokens=3000, timeout_ms=30000
    ),
    # agents[6] integrations-specialist: model anthropic:claude-sonnet-4-5
    "integrations-specialist": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[7] trust-safety-lead: model anthropic:claude-opus-4-5
    "trust-safety-lead": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
    # agents[8] fraud-analyst: model anthropic:claude-opus-4-5
    "fraud-analyst": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
