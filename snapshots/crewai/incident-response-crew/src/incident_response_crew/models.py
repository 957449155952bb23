"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] incident-commander: model anthropic:claude-opus-4-5
    "incident-commander": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=120000),
    # agents[1] investigator: modelConfig openai gpt-4.1
    "investigator": ModelSpec(
        model="openai/gpt-4.1", temperature=0.1, max_tokens=8000, timeout_ms=240000
    ),
    # agents[2] deploy-analyst: model anthropic:claude-sonnet-4-5
    "deploy-analyst": ModelSpec(model="anthropic/claude-sonnet-4-5", timeout_ms=120000),
    # agents[3] comms-writer: model google:gemini-2.5-flash
    "comms-writer": ModelSpec(model="gemini/gemini-2.5-flash", timeout_ms=120000),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
