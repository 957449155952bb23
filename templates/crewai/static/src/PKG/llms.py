"""How an agent's model is built (agents[].model / modelConfig, timeouts).

The generated `models.py` holds the data (`MODELS`) and the seam `llm_for(agent_key)`;
everything else is here. An agent without a model uses the `MODEL` environment variable
(`provider/model`, e.g. `anthropic/claude-sonnet-4-5`).

`ENVELOPE_MODEL_FACTORY=module:function` supplies every model from your own code
instead: `function(agent_key, spec)` returns a `crewai.BaseLLM`. Provider API keys and
`MODEL` are then not required by the runner.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from crewai import LLM, BaseLLM

from .checks import EnvRequirement, load_problems

FACTORY_ENV = "ENVELOPE_MODEL_FACTORY"


@dataclass(frozen=True)
class ModelSpec:
    model: str | None
    """`provider/model` for crewai.LLM; None means the MODEL environment variable."""
    timeout_ms: int
    """modelConfig.timeoutMs, else timeout.agentMs, else 30000."""
    temperature: float | None = None
    max_tokens: int | None = None


# API key per provider prefix, as the provider clients read them.
PROVIDER_KEYS: dict[str, EnvRequirement] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "mistral": "MISTRAL_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
}


def provider(model: str) -> str:
    prefix = model.split("/", 1)[0].lower()
    return "gemini" if prefix == "google" else prefix


def factory_problems() -> list[str]:
    """ENVELOPE_MODEL_FACTORY, checked with the rest before the run: it must name a function."""
    return load_problems(FACTORY_ENV, _factory)


def required_env(models: Mapping[str, ModelSpec]) -> list[EnvRequirement]:
    """Provider API keys of the configured models, and MODEL when an agent needs it, with
    the key of MODEL's provider once MODEL is set (read from the environment now)."""
    if os.environ.get(FACTORY_ENV):
        return []
    needed: list[EnvRequirement] = []
    model_set = bool(os.environ.get("MODEL", "").strip())
    for spec in models.values():
        requirements: list[EnvRequirement | None] = []
        if spec.model is None:
            requirements.append("MODEL")
        if spec.model is not None or model_set:
            requirements.append(PROVIDER_KEYS.get(provider(model_id(spec))))
        for requirement in requirements:
            if requirement is not None and requirement not in needed:
                needed.append(requirement)
    return needed


def model_id(spec: ModelSpec) -> str:
    if spec.model is not None:
        return spec.model
    value = os.environ["MODEL"].strip()
    # Accept the definition's `provider:model` spelling too.
    head, sep, tail = value.partition(":")
    return f"{head}/{tail}" if sep and "/" not in head else value


def _factory() -> Callable[[str, ModelSpec], BaseLLM] | None:
    target = os.environ.get(FACTORY_ENV, "").strip()
    if not target:
        return None
    module_name, _, attribute = target.partition(":")
    factory: Callable[[str, ModelSpec], BaseLLM] = getattr(
        importlib.import_module(module_name), attribute or "llm_for"
    )
    return factory


def build_llm(agent_key: str, spec: ModelSpec) -> BaseLLM:
    """The crewai.LLM of one agent (or the ENVELOPE_MODEL_FACTORY's model)."""
    factory = _factory()
    if factory is not None:
        return factory(agent_key, spec)
    model = model_id(spec)
    if provider(model) == "gemini":
        # CrewAI's Gemini client ignores `timeout` and `max_tokens`.
        return LLM(
            model=model,
            temperature=spec.temperature,
            max_output_tokens=spec.max_tokens,
            client_params={"http_options": {"timeout": spec.timeout_ms}},
        )
    return LLM(
        model=model,
        temperature=spec.temperature,
        max_tokens=spec.max_tokens,
        timeout=spec.timeout_ms / 1000,
    )


def execution_limit_s(spec: ModelSpec) -> int:
    """Agent.max_execution_time (whole seconds) from the agent's timeout."""
    return max(1, math.ceil(spec.timeout_ms / 1000))
