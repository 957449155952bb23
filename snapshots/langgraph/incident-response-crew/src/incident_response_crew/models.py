"""The model of each agent (agents[].model / modelConfig); envelope-runtime's
`envelope_runtime.langgraph.llms` builds them lazily."""

from __future__ import annotations

from envelope_runtime.langgraph.llms import ModelSpec, build_chat_model, chosen_model
from envelope_runtime.team_package import TeamPackage
from langchain_core.language_models import BaseChatModel

# This team's package: where chosen_model finds the run's context fields (context.py).
TEAM = TeamPackage("incident_response_crew")

MODELS: dict[str, ModelSpec] = {
    # agents[0] incident-commander: model anthropic:claude-opus-4-5
    "incident-commander": ModelSpec(model="anthropic:claude-opus-4-5", timeout_s=120),
    # agents[1] investigator: modelConfig openai gpt-4.1
    "investigator": ModelSpec(
        model="openai:gpt-4.1", temperature=0.1, max_tokens=8000, timeout_s=240
    ),
    # agents[2] deploy-analyst: model anthropic:claude-sonnet-4-5
    "deploy-analyst": ModelSpec(model="anthropic:claude-sonnet-4-5", timeout_s=120),
    # agents[3] comms-writer: model google:gemini-2.5-flash
    "comms-writer": ModelSpec(model="google_genai:gemini-2.5-flash", timeout_s=120),
}


def model_for(agent_key: str) -> BaseChatModel:
    """The model of one agent in this run (the run's context.Context, else the environment's
    and the definition's): the default of build_graph's model_for seam."""
    return build_chat_model(agent_key, MODELS[agent_key], chosen_model(TEAM, agent_key))
