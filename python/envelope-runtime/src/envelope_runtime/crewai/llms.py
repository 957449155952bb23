"""An agent's CrewAI LLM: models.py's model, else `MODEL`; MODEL_OVERRIDE / MODEL_<AGENT>
replace it (model_env.py). `ENVELOPE_MODEL_FACTORY` makes every model instead
(`function(agent_key, spec)`; no provider key or MODEL is then required)."""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewai import LLM, BaseLLM
from crewai.llm import PROVIDER_ALIASES

from .. import model_env

if TYPE_CHECKING:  # annotations only: a run's checks load inputs.py, a build does not
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


# Base-URL variables (the first one documented). The providers' clients read them too, but
# take a blank one as their endpoint, and CrewAI's OpenAI client routes a model name it does
# not know to LiteLLM unless base_url is passed.
BASE_URL_ENV: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
    "anthropic": ("ANTHROPIC_BASE_URL",),
    "gemini": ("GOOGLE_GEMINI_BASE_URL",),
    "mistral": ("MISTRAL_API_BASE", "MISTRAL_BASE_URL"),
    "openrouter": ("OPENROUTER_BASE_URL",),
}


def provider(model: str) -> str:
    prefix = model.split("/", 1)[0].lower()
    return PROVIDER_ALIASES.get(prefix, prefix)  # Envelope's `google` is CrewAI's `gemini`


def base_url(model: str) -> str | None:
    names = BASE_URL_ENV.get(provider(model), ())
    model_env.unset_blank(names)
    return next((os.environ[name].strip() for name in names if name in os.environ), None)


def factory_problems(models: Mapping[str, ModelSpec]) -> list[str]:
    """ENVELOPE_MODEL_FACTORY must name a function, each override a provider:model of a
    provider CrewAI or LiteLLM serves."""
    return [
        *model_env.load_problems(FACTORY_ENV, _factory),
        *model_env.override_problems(models),
        *_provider_problems(models),
    ]


def _provider_problems(models: Mapping[str, ModelSpec]) -> list[str]:
    """Each MODEL_<AGENT>, MODEL_OVERRIDE or MODEL naming a provider that neither CrewAI's
    own clients nor LiteLLM serves: CrewAI would start the run and fail at its first model
    call."""
    if os.environ.get(FACTORY_ENV):
        return []  # the factory makes every model, whatever a variable names
    problems: list[str] = []
    for agent_key, spec in models.items():
        found = model_env.override(agent_key)
        if found is None and spec.model is None and os.environ.get("MODEL", "").strip():
            found = ("MODEL", os.environ["MODEL"].strip())
        parts = model_env.split_model(found[1]) if found else None
        if found is None or parts is None or parts[0] in PROVIDER_ALIASES:
            continue
        from .litellm_providers import litellm_problem  # a provider CrewAI does not serve

        problem = litellm_problem(*found, parts[0])
        if problem is not None and problem not in problems:
            problems.append(problem)
    return problems


def required_env(
    models: Mapping[str, ModelSpec], model_ids: Iterable[str] = ()
) -> list[EnvRequirement]:
    """The provider keys of the agents' models and of `model_ids` (agents.yaml's `llm:`),
    and MODEL where an agent needs it."""
    if os.environ.get(FACTORY_ENV):
        return []
    needed: list[EnvRequirement | None] = []
    model_set = bool(os.environ.get("MODEL", "").strip())
    for agent_key, spec in models.items():
        own = spec.model is not None or _override(agent_key) is not None
        # an agent without a model of its own needs MODEL, and MODEL's provider's key once set
        if not own:
            needed.append("MODEL")
        if own or model_set:
            needed.append(PROVIDER_KEYS.get(provider(model_id(spec, agent_key))))
    needed += [PROVIDER_KEYS.get(provider(model)) for model in model_ids]
    return [r for r in dict.fromkeys(needed) if r is not None]


def _normalized(value: str) -> str | None:
    """`provider/model` of `provider:model` or `provider/model`; None if it is neither."""
    parts = model_env.split_model(value)
    return f"{PROVIDER_ALIASES.get(parts[0], parts[0])}/{parts[1]}" if parts else None


def _override(agent_key: str) -> str | None:
    found = model_env.override(agent_key)
    return _normalized(found[1]) if found else None


def model_id(spec: ModelSpec, agent_key: str | None = None) -> str:
    """An agent's `provider/model`: its override, else its own model, else MODEL."""
    overridden = _override(agent_key) if agent_key is not None else None
    if overridden is not None:
        return overridden
    if spec.model is not None:
        return spec.model
    value = os.environ["MODEL"].strip()
    return _normalized(value) or value


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
        # CrewAI's Gemini client ignores `timeout` and `max_tokens`; google-genai reads
        # GOOGLE_GEMINI_BASE_URL itself.
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
        **({"base_url": endpoint} if endpoint is not None else {}),
    )


def execution_limit_s(spec: ModelSpec) -> int:
    return max(1, math.ceil(spec.timeout_ms / 1000))
