"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.langgraph.llms` builds them lazily."""

from __future__ import annotations

from envelope_runtime.langgraph.llms import ModelSpec, build_chat_model, chosen_model
from envelope_runtime.team_package import TeamPackage
from langchain_core.language_models import BaseChatModel

# This team's package: where chosen_model finds the run's context fields (context.py).
TEAM = TeamPackage("investment_due_diligence_panel")

MODELS: dict[str, ModelSpec] = {
    # agents[0] lead-analyst: model anthropic:claude-opus-4-5
    "lead-analyst": ModelSpec(model="anthropic:claude-opus-4-5", timeout_s=240),
    # agents[1] market-analyst: model openai:gpt-4.1
    "market-analyst": ModelSpec(model="openai:gpt-4.1", timeout_s=240),
    # agents[2] financial-analyst: modelConfig openai o3
    "financial-analyst": ModelSpec(model="openai:o3", max_tokens=16000, timeout_s=600),
    # agents[3] product-analyst: model google:gemini-2.5-pro
    "product-analyst": ModelSpec(model="google_genai:gemini-2.5-pro", timeout_s=240),
    # agents[4] customer-analyst: modelConfig google gemini-2.5-flash
    "customer-analyst": ModelSpec(
        model="google_genai:gemini-2.5-flash", temperature=0.3, max_tokens=6000, timeout_s=240
    ),
    # agents[5] legal-analyst: model mistral:mistral-large-latest
    "legal-analyst": ModelSpec(model="mistralai:mistral-large-latest", timeout_s=240),
    # agents[6] regulatory-analyst: modelConfig mistral mistral-medium-latest
    "regulatory-analyst": ModelSpec(
        model="mistralai:mistral-medium-latest", temperature=0.1, max_tokens=5000, timeout_s=120
    ),
    # agents[7] team-analyst: model openrouter:meta-llama/llama-3.3-70b-instruct
    "team-analyst": ModelSpec(model="openrouter:meta-llama/llama-3.3-70b-instruct", timeout_s=240),
    # agents[8] esg-analyst: modelConfig openrouter qwen/qwen-2.5-72b-instruct
    "esg-analyst": ModelSpec(
        model="openrouter:qwen/qwen-2.5-72b-instruct",
        temperature=0.2,
        max_tokens=4000,
        timeout_s=240,
    ),
    # agents[9] red-team-analyst: modelConfig anthropic claude-sonnet-4-5
    "red-team-analyst": ModelSpec(
        model="anthropic:claude-sonnet-4-5", temperature=1, max_tokens=6000, timeout_s=300
    ),
}


def model_for(agent_key: str) -> BaseChatModel:
    """The model of one agent in this run (the run's context.Context, else the environment's
    and the definition's): the default of build_graph's model_for seam."""
    return build_chat_model(agent_key, MODELS[agent_key], chosen_model(TEAM, agent_key))
