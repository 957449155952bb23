"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] managing-editor: model anthropic:claude-opus-4-5
    "managing-editor": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
    # agents[1] researcher: model anthropic:claude-sonnet-4-5
    "researcher": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[2] seo-strategist: model anthropic:claude-sonnet-4-5
    "seo-strategist": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[3] audience-analyst: model anthropic:claude-haiku-4-5
    "audience-analyst": ModelSpec(model="anthropic/claude-haiku-4-5", timeout_ms=30000),
    # agents[4] writer: modelConfig anthropic claude-opus-4-5
    "writer": ModelSpec(
        model="anthropic/claude-opus-4-5", temperature=0.7, max_tokens=8000, timeout_ms=180000
    ),
    # agents[5] social-writer: model anthropic:claude-haiku-4-5
    "social-writer": ModelSpec(model="anthropic/claude-haiku-4-5", timeout_ms=30000),
    # agents[6] newsletter-writer: model anthropic:claude-sonnet-4-5
    "newsletter-writer": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[7] publisher: model anthropic:claude-haiku-4-5
    "publisher": ModelSpec(model="anthropic/claude-haiku-4-5", timeout_ms=30000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
