"""An agent's CrewAI LLM: models.py's model, else `MODEL`; MODEL_OVERRIDE / MODEL_<AGENT>
replace it (model_env.py). The provider's base-URL variable is passed explicitly, so a model
name CrewAI does not know still reaches that endpoint. `ENVELOPE_MODEL_FACTORY` makes every
model instead (`function(agent_key, spec)`; no provider key or MODEL is then required)."""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from crewai import LLM, BaseLLM

from .. import model_env
from ..inputs import EnvRequirement

FACTORY_ENV = "ENVELOPE_MODEL_FACTORY"

# LiteLLM (mistral, unknown providers) would download its price table when first imported.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@dataclass(frozen=True)
class ModelSpec:
    model: str | None
    """`provider/model`; None: the MODEL environment variable."""
    timeout_ms: int
    temperature: float | None = None
    max_tokens: int | None = None


PROVIDER_KEYS: dict[str, EnvRequirement] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "mistral": "MISTRAL_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
}


# Base-URL variables (the first one documented). CrewAI's OpenAI client reads
# OPENAI_BASE_URL but routes an unknown model name to LiteLLM unless base_url is passed.
BASE_URL_ENV: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
    "anthropic": ("ANTHROPIC_BASE_URL",),
    "gemini": ("GOOGLE_GEMINI_BASE_URL",),
    "mistral": ("MISTRAL_API_BASE", "MISTRAL_BASE_URL"),
    "openrouter": ("OPENROUTER_BASE_URL",),
}

# Envelope's provider names, accepted in overrides too (`google:gemini-2.5-flash`).
_PREFIX_ALIASES = {"google": "gemini"}


def provider(model: str) -> str:
    prefix = model.split("/", 1)[0].lower()
    return _PREFIX_ALIASES.get(prefix, prefix)


def base_url(model: str) -> str | None:
    names = BASE_URL_ENV.get(provider(model), ())
    model_env.unset_blank(names)
    for name in names:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def factory_problems(models: Mapping[str, ModelSpec] | None = None) -> list[str]:
    """ENVELOPE_MODEL_FACTORY must name a function, each override a provider:model."""
    factory = model_env.load_problems(FACTORY_ENV, _factory)
    return factory + model_env.override_problems(models or {})


def required_env(models: Mapping[str, ModelSpec]) -> list[EnvRequirement]:
    """The provider keys of the agents' models, and MODEL where an agent needs it."""
    if os.environ.get(FACTORY_ENV):
        return []
    needed: list[EnvRequirement] = []
    model_set = bool(os.environ.get("MODEL", "").strip())
    for agent_key, spec in models.items():
        requirements: list[EnvRequirement | None] = []
        overridden = _override(agent_key) is not None
        if spec.model is None and not overridden:
            requirements.append("MODEL")
        if spec.model is not None or model_set or overridden:
            requirements.append(PROVIDER_KEYS.get(provider(model_id(spec, agent_key))))
        for requirement in requirements:
            if requirement is not None and requirement not in needed:
                needed.append(requirement)
    return needed


def _override(agent_key: str) -> str | None:
    found = model_env.override(agent_key)
    parts = model_env.split_model(found[1]) if found else None
    return f"{_PREFIX_ALIASES.get(parts[0], parts[0])}/{parts[1]}" if parts else None


def model_id(spec: ModelSpec, agent_key: str | None = None) -> str:
    """An agent's `provider/model`: its override, else its own model, else MODEL."""
    overridden = _override(agent_key) if agent_key is not None else None
    if overridden is not None:
        return overridden
    if spec.model is not None:
        return spec.model
    value = os.environ["MODEL"].strip()
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
    factory = _factory()
    if factory is not None:
        return factory(agent_key, spec)
    model = model_id(spec, agent_key)
    endpoint = base_url(model)
    if provider(model) == "gemini":
        # CrewAI's Gemini client ignores `timeout` and `max_tokens`.
        http_options: dict[str, object] = {"timeout": spec.timeout_ms}
        if endpoint is not None:
            http_options["base_url"] = endpoint
        return LLM(
            model=model,
            temperature=spec.temperature,
            max_output_tokens=spec.max_tokens,
            client_params={"http_options": http_options},
        )
    extra: dict[str, object] = {"base_url": endpoint} if endpoint is not None else {}
    return LLM(
        model=model,
        temperature=spec.temperature,
        max_tokens=spec.max_tokens,
        timeout=spec.timeout_ms / 1000,
        **extra,
    )


def execution_limit_s(spec: ModelSpec) -> int:
    return max(1, math.ceil(spec.timeout_ms / 1000))
