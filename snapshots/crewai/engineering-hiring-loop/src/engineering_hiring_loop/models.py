"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] recruiting-lead: model anthropic:claude-sonnet-4-5
    "recruiting-lead": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[1] sourcer: model anthropic:claude-sonnet-4-5
    "sourcer": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[2] screener: modelConfig anthropic claude-opus-4-5
    "screener": ModelSpec(
        model="anthropic/claude-opus-4-5", temperature=0, max_tokens=4000, timeout_ms=30000
    ),
    # agents[3] outreach-writer: model anthropic:claude-sonnet-4-5
    "outreach-writer": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[4] interview-coordinator: model anthropic:claude-haiku-4-5
    "interview-coordinator": ModelSpec(model="anthropic/claude-haiku-4-5", timeout_ms=30000),
    # agents[5] debrief-analyst: model anthropic:claude-opus-4-5
    "debrief-analyst": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=30000),
    # agents[6] offer-drafter: model anthropic:claude-sonnet-4-5
    "offer-drafter": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
