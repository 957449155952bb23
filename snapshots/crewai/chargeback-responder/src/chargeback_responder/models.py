"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] evidence-collector: model anthropic:claude-sonnet-4-5
    "evidence-collector": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=30000),
    # agents[1] response-writer: modelConfig anthropic claude-opus-4-5
    "response-writer": ModelSpec(
        model="anthropic/claude-opus-4-5", temperature=0.2, max_tokens=4000, timeout_ms=30000
    ),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
