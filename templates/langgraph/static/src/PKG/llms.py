"""How an agent's chat model is built (agents[].model / modelConfig, timeouts).

The generated `models.py` holds the data (`MODELS`) and the default seam
`model_for(agent_key)`; everything else is here. Models are built with LangChain's
`init_chat_model` on first use, never at import: importing the graph needs neither a
provider package nor an API key.

An agent without a model uses the `MODEL` environment variable (`provider:model`, e.g.
`anthropic:claude-sonnet-4-5`), else `DEFAULT_MODEL`. `MODEL_OVERRIDE` and `MODEL_<AGENT>`
replace the definition's models (model_env.py); each provider's base-URL variable
(BASE_URL_ENV) is passed to its chat model explicitly.

`ENVELOPE_MODEL_FACTORY=module:function` supplies every model from your own code instead:
`function(agent_key)` returns a LangChain `BaseChatModel`. Provider API keys are then not
required.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel

from . import model_env
from .checks import EnvRequirement, load_problems

FACTORY_ENV = "ENVELOPE_MODEL_FACTORY"

MODEL_ENV = "MODEL"

DEFAULT_MODEL = "openai:gpt-4.1-mini"
"""The model of agents whose definition names none, unless MODEL is set."""

ModelFactory = Callable[[str], BaseChatModel]
"""agent key -> its chat model: the seam build_graph(model_for=...) takes."""


@dataclass(frozen=True)
class ModelSpec:
    model: str | None
    """`prefix:model` for init_chat_model; None: MODEL from the environment, else DEFAULT_MODEL."""
    timeout_s: float
    """Per model call: modelConfig.timeoutMs, else timeout.agentMs, else 30 s."""
    temperature: float | None = None
    max_tokens: int | None = None


# API key per init_chat_model provider prefix (alternatives: any one of them).
PROVIDER_KEYS: dict[str, EnvRequirement] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "google_genai": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "mistralai": "MISTRAL_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
}

# Envelope's provider names, accepted in MODEL and overrides too (`google:gemini-2.5-flash`).
_PREFIX_ALIASES = {"google": "google_genai", "gemini": "google_genai", "mistral": "mistralai"}

# Base-URL variables per init_chat_model prefix (first one documented), passed to the chat
# model explicitly (as `base_url`) rather than trusting each integration's own reading.
BASE_URL_ENV: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
    "anthropic": ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL"),
    "google_genai": ("GOOGLE_GEMINI_BASE_URL",),
    "mistralai": ("MISTRAL_BASE_URL", "MISTRAL_API_BASE"),
    "openrouter": ("OPENROUTER_API_BASE", "OPENROUTER_BASE_URL"),
}


def _timeout_ms(seconds: float) -> int:
    return math.ceil(seconds * 1000)


# Each integration spells its request timeout its own way: seconds (float) unless listed.
_TIMEOUT_UNITS: dict[str, Callable[[float], float | int]] = {
    "mistralai": math.ceil,  # ChatMistralAI.timeout: whole seconds
    "openrouter": _timeout_ms,  # ChatOpenRouter.timeout: milliseconds
}


def provider(model: str) -> str:
    """The init_chat_model prefix of `prefix:model` ("" when the model names none)."""
    prefix, separator, _ = model.partition(":")
    return prefix.lower() if separator else ""


def _override(agent_key: str) -> str | None:
    """`prefix:model` from MODEL_<AGENT> or MODEL_OVERRIDE, if set and well formed."""
    found = model_env.override(agent_key)
    parts = model_env.split_model(found[1]) if found else None
    return f"{_PREFIX_ALIASES.get(parts[0], parts[0])}:{parts[1]}" if parts else None


def model_id(spec: ModelSpec, agent_key: str | None = None) -> str:
    """`prefix:model` of an agent: its override, else its own, else MODEL, else DEFAULT_MODEL."""
    overridden = _override(agent_key) if agent_key is not None else None
    if overridden is not None:
        return overridden
    if spec.model is not None:
        return spec.model
    value = os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL
    prefix, separator, name = value.partition(":")
    return f"{_PREFIX_ALIASES.get(prefix, prefix)}:{name}" if separator else value


def base_url(model: str) -> str | None:
    """The endpoint the environment sets for this model's provider, if any."""
    names = BASE_URL_ENV.get(provider(model), ())
    model_env.unset_blank(names)
    for name in names:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def model_kwargs(spec: ModelSpec, agent_key: str | None = None) -> dict[str, Any]:
    """init_chat_model's keyword arguments besides the model: what the definition and the
    environment's base URL set."""
    kwargs: dict[str, Any] = {}
    model = model_id(spec, agent_key)
    endpoint = base_url(model)
    if endpoint is not None:
        kwargs["base_url"] = endpoint
    if spec.temperature is not None:
        kwargs["temperature"] = spec.temperature
    if spec.max_tokens is not None:
        kwargs["max_tokens"] = spec.max_tokens
    unit = _TIMEOUT_UNITS.get(provider(model), float)
    kwargs["timeout"] = unit(spec.timeout_s)
    return kwargs


def factory() -> ModelFactory | None:
    """The function named by ENVELOPE_MODEL_FACTORY, if set."""
    target = os.environ.get(FACTORY_ENV, "").strip()
    if not target:
        return None
    module_name, _, attribute = target.partition(":")
    found: ModelFactory = getattr(importlib.import_module(module_name), attribute or "model_for")
    return found


def factory_problems(models: Mapping[str, ModelSpec] | None = None) -> list[str]:
    """ENVELOPE_MODEL_FACTORY (it must name a function) and the model overrides of these
    agents (each must be provider:model), checked with the rest before the run."""
    return load_problems(FACTORY_ENV, factory) + model_env.override_problems(models or {})


def required_env(models: Mapping[str, ModelSpec]) -> list[EnvRequirement]:
    """The provider API keys of the models the agents will use (none with a factory)."""
    if os.environ.get(FACTORY_ENV, "").strip():
        return []
    needed: list[EnvRequirement] = []
    for agent_key, spec in models.items():
        requirement = PROVIDER_KEYS.get(provider(model_id(spec, agent_key)))
        if requirement is not None and requirement not in needed:
            needed.append(requirement)
    return needed


def build_chat_model(agent_key: str, spec: ModelSpec) -> BaseChatModel:
    """The chat model of one agent (or ENVELOPE_MODEL_FACTORY's): imports its provider now."""
    supplied = factory()
    if supplied is not None:
        return supplied(agent_key)
    return init_chat_model(model_id(spec, agent_key), **model_kwargs(spec, agent_key))
