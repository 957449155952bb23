"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.crewai.llms` builds them (MODEL_OVERRIDE, MODEL_<AGENT>, base URLs)."""

from __future__ import annotations

from crewai import BaseLLM
from envelope_runtime.crewai.llms import ModelSpec, build_llm

MODELS: dict[str, ModelSpec] = {
    # agents[0] lead-analyst: model anthropic:claude-opus-4-5
    "lead-analyst": ModelSpec(model="anthropic/claude-opus-4-5", timeout_ms=240000),
    # agents[1] market-analyst: model openai:gpt-4.1
    "market-analyst": ModelSpec(model="openai/gpt-4.1", timeout_ms=240000),
    # agents[2] financial-analyst: modelConfig openai o3
    "financial-analyst": ModelSpec(model="openai/o3", max_tokens=16000, timeout_ms=600000),
    # agents[3] product-analyst: model google:gemini-2.5-pro
    "product-analyst": ModelSpec(model="gemini/gemini-2.5-pro", timeout_ms=240000),
    # agents[4] customer-analyst: modelConfig google gemini-2.5-flash
    "customer-analyst": ModelSpec(
        model="gemini/gemini-2.5-flash", temperature=0.3, max_tokens=6000, timeout_ms=240000
    ),
    # agents[5] legal-analyst: model mistral:mistral-large-latest
    "legal-analyst": ModelSpec(model="mistral/mistral-large-latest", timeout_ms=240000),
    # agents[6] regulatory-analyst: modelConfig mistral mistral-medium-latest
    "regulatory-analyst": ModelSpec(
        model="mistral/mistral-medium-latest", temperature=0.1, max_tokens=5000, timeout_ms=120000
    ),
    # agents[7] team-analyst: model openrouter:meta-llama/llama-3.3-70b-instruct
    "team-analyst": ModelSpec(
        model="openrouter/meta-llama/llama-3.3-70b-instruct", timeout_ms=240000
    ),
    # agents[8] esg-analyst: modelConfig openrouter qwen/qwen-2.5-72b-instruct
    "esg-analyst": ModelSpec(
        model="openrouter/qwen/qwen-2.5-72b-instruct",
        temperature=0.2,
        max_tokens=4000,
        timeout_ms=240000,
    ),
    # agents[9] red-team-analyst: modelConfig anthropic claude-sonnet-4-5
    "red-team-analyst": ModelSpec(
        model="anthropic/claude-sonnet-4-5", temperature=1, max_tokens=6000, timeout_ms=300000
    ),
}


def llm_for(agent_key: str) -> BaseLLM:
    """The model of one agent: the one seam for supplying models (tests replace it)."""
    return build_llm(agent_key, MODELS[agent_key])
