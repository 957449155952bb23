"""Each agent's chat model: LangChain's `init_chat_model`, built on first use, never at import.

An agent's model (`agent_model`): the run's context.Context (its field, else the one for every
agent), `MODEL_<AGENT>`, `MODEL_OVERRIDE`, the definition's, `MODEL`, DEFAULT_MODEL.
`ENVELOPE_MODEL_FACTORY=module:function` supplies every model instead. agents.model_retry
retries a request, so the clients built here have their own retries off.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel
from langgraph.runtime import get_runtime

from .. import model_env
from ..team_package import TeamPackage

if TYPE_CHECKING:  # annotations only: building a graph does not load inputs.py
    from ..inputs import EnvRequirement

FACTORY_ENV = "ENVELOPE_MODEL_FACTORY"
MODEL_ENV = "MODEL"
DEFAULT_MODEL = "openai:gpt-4.1-mini"

ModelFactory = Callable[[str], BaseChatModel]
"""agent key -> its chat model: the seam build_graph(model_for=...) takes."""


@dataclass(frozen=True)
class ModelSpec:
    model: str | None  # `prefix:model`; None: MODEL, else DEFAULT_MODEL
    timeout_s: float  # per request: modelConfig.timeoutMs, else timeout.agentMs, else 30 s
    temperature: float | None = None
    max_tokens: int | None = None


PROVIDER_KEYS: dict[str, EnvRequirement] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "google_genai": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "mistralai": "MISTRAL_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
}

# Envelope's provider names, accepted in MODEL and overrides too (`google:gemini-2.5-flash`).
_PREFIX_ALIASES = {"google": "google_genai", "gemini": "google_genai", "mistral": "mistralai"}

# Passed as `base_url` explicitly rather than trusting each integration's own reading.
BASE_URL_ENV: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
    "anthropic": ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL"),
    "google_genai": ("GOOGLE_GEMINI_BASE_URL",),
    "mistralai": ("MISTRAL_BASE_URL", "MISTRAL_API_BASE"),
    "openrouter": ("OPENROUTER_API_BASE", "OPENROUTER_BASE_URL"),
}

# Request timeouts are seconds (float) except: Mistral's whole seconds, OpenRouter's ms.
_TIMEOUT_UNITS: dict[str, Callable[[float], float | int]] = {
    "mistralai": math.ceil,
    "openrouter": lambda seconds: math.ceil(seconds * 1000),
}

# `max_retries` meaning "none of its own" (Google's and Mistral's count attempts).
NO_CLIENT_RETRIES = {
    "openai": 0,
    "anthropic": 0,
    "google_genai": 1,
    "mistralai": 1,
    "openrouter": 0,
}

MODEL_ATTEMPTS = 4  # requests per model call; no node is retried: it holds completed calls

RETRY_DELAY_S = 1.0


def retry_waits_s() -> float:
    return sum(
        min(RETRY_DELAY_S * 2**n, 8 * RETRY_DELAY_S) * 1.25 for n in range(MODEL_ATTEMPTS - 1)
    )


def node_timeout(timeout_s: float) -> float:
    """The limit of a node holding one agent's conversation: room for MODEL_ATTEMPTS requests
    of `timeout_s` and the waits between, so a request that timed out is sent again."""
    return MODEL_ATTEMPTS * timeout_s + retry_waits_s()


_TRANSIENT_CLASSES = {"APIConnectionError", "APITimeoutError", "TransportError"}


def transient(error: BaseException) -> bool:
    """A rate limit, a server error, a lost or timed out connection: worth another request."""
    retryable = getattr(error, "is_retryable", None)  # langchain_core.exceptions.ModelError
    if isinstance(retryable, bool):
        return retryable
    status = getattr(error, "status_code", None) or getattr(error, "code", None)
    if status is None:
        status = getattr(getattr(error, "response", None), "status_code", None)
    if isinstance(status, int) and not isinstance(status, bool):
        return status in (408, 409, 429) or status >= 500
    names = {cls.__name__ for cls in type(error).__mro__}  # by name: provider packages vary
    return isinstance(error, ConnectionError) or bool(names & _TRANSIENT_CLASSES)


def provider(model: str) -> str:
    prefix, separator, _ = model.partition(":")
    return prefix.lower() if separator else ""


def _normalized(value: str) -> str | None:
    parts = model_env.split_model(value)
    return f"{_PREFIX_ALIASES.get(parts[0], parts[0])}:{parts[1]}" if parts else None


def model_problem(source: str, value: object) -> str | None:
    """Why a model chosen at run time (by `source`) cannot be used, or None."""
    if not isinstance(value, str) or model_env.split_model(value) is None:
        return f"{source}={value!r}: expected provider:model (e.g. {DEFAULT_MODEL})"
    if provider(_normalized(value) or "") not in PROVIDER_KEYS:
        known = ", ".join([*PROVIDER_KEYS, *_PREFIX_ALIASES])
        return f"{source}={value!r}: unknown provider (known: {known})"
    return None


def run_context() -> object | None:
    try:
        return getattr(get_runtime(), "context", None)
    except (RuntimeError, KeyError):
        return None


def context_values(chosen: object | None) -> dict[str, Any]:
    """The fields a context (a context.Context, or a mapping) sets; blank ones are unset."""
    if is_dataclass(chosen) and not isinstance(chosen, type):
        found = {f.name: getattr(chosen, f.name) for f in fields(chosen)}
    else:
        found = dict(chosen) if isinstance(chosen, Mapping) else {}
    unset = [k for k, v in found.items() if v is None or (isinstance(v, str) and not v.strip())]
    return {k: v for k, v in found.items() if k not in unset}


def context_problems(package: TeamPackage, chosen: object | None) -> list[str]:
    """Each model the context sets that cannot be used, and each key of a mapping that is no
    field of the team's context.Context (a server would drop it)."""
    known = {f.name for f in fields(package.module("context").Context)}
    problems = [
        f"context {name!r}: no such field (fields: {', '.join(sorted(known))})"
        for name in (chosen if isinstance(chosen, Mapping) else ())
        if name not in known
    ]
    for name, value in context_values(chosen).items():
        problem = model_problem(f"context {name}", value) if name in known else None
        problems += [problem] if problem else []
    return problems


def chosen_model(package: TeamPackage, agent_key: str, chosen: object | None = None) -> str | None:
    """`prefix:model` the context (default: the run's) chooses for an agent, or None.
    Raises ValueError for a model that cannot be used."""
    context = package.module("context")
    values = context_values(run_context() if chosen is None else chosen)
    field = context.AGENT_FIELDS.get(agent_key, "")
    if values.get(field) is None:
        field = context.ALL_AGENTS_FIELD
    if values.get(field) is None:
        return None
    problem = model_problem(f"context {field}", values[field])
    if problem is not None:
        raise ValueError(problem)
    return _normalized(values[field])


def agent_model(
    package: TeamPackage, agent_key: str, spec: ModelSpec, chosen: object | None = None
) -> str:
    return chosen_model(package, agent_key, chosen) or model_id(spec, agent_key)


def model_id(spec: ModelSpec, agent_key: str | None = None) -> str:
    """An agent's model without a context: its override, its own, MODEL, DEFAULT_MODEL."""
    found = model_env.override(agent_key) if agent_key is not None else None
    overridden = _normalized(found[1]) if found else None
    if overridden is not None:
        return overridden
    if spec.model is not None:
        return spec.model
    value = os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL
    prefix, separator, name = value.partition(":")
    return f"{_PREFIX_ALIASES.get(prefix, prefix)}:{name}" if separator else value


def base_url(model: str) -> str | None:
    names = BASE_URL_ENV.get(provider(model), ())
    model_env.unset_blank(names)
    return next((os.environ[n].strip() for n in names if os.environ.get(n, "").strip()), None)


def model_kwargs(
    spec: ModelSpec, agent_key: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """init_chat_model's keyword arguments besides the model (default: `model_id`)."""
    model = model or model_id(spec, agent_key)
    given = {"base_url": base_url(model), "temperature": spec.temperature}
    given["max_tokens"] = spec.max_tokens
    kwargs: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    kwargs["timeout"] = _TIMEOUT_UNITS.get(provider(model), float)(spec.timeout_s)
    if provider(model) in NO_CLIENT_RETRIES:
        kwargs["max_retries"] = NO_CLIENT_RETRIES[provider(model)]
    return kwargs


def factory() -> ModelFactory | None:
    target = os.environ.get(FACTORY_ENV, "").strip()
    if not target:
        return None
    module_name, _, attribute = target.partition(":")
    found: ModelFactory = getattr(importlib.import_module(module_name), attribute or "model_for")
    return found


def factory_problems(models: Mapping[str, ModelSpec] | None = None) -> list[str]:
    """ENVELOPE_MODEL_FACTORY and the model overrides of these agents, checked before a run."""
    problems = model_env.load_problems(FACTORY_ENV, factory)
    for agent_key in models or {}:
        found = model_env.override(agent_key)
        problem = model_problem(*found) if found else None
        if problem is not None and problem not in problems:
            problems.append(problem)
    return problems


def required_env(
    package: TeamPackage,
    chosen: object | None = None,
    models: Mapping[str, ModelSpec] | None = None,
) -> list[EnvRequirement]:
    """The API keys of the providers the agents (default: models.MODELS) use, the run's
    context (`chosen`) counted; none with a factory."""
    if os.environ.get(FACTORY_ENV, "").strip():
        return []
    needed: list[EnvRequirement] = []
    for agent_key, spec in (package.models.MODELS if models is None else models).items():
        own = chosen_model(package, agent_key, chosen) if chosen is not None else None
        model = own or model_id(spec, agent_key)
        requirement = PROVIDER_KEYS.get(provider(model))
        if requirement is not None and requirement not in needed:
            needed.append(requirement)
    return needed


def build_chat_model(agent_key: str, spec: ModelSpec, model: str | None = None) -> BaseChatModel:
    """The chat model of one agent (or ENVELOPE_MODEL_FACTORY's); `model`: `prefix:model`
    (default: `model_id`)."""
    supplied = factory()
    if supplied is not None:
        return supplied(agent_key)
    model = model or model_id(spec, agent_key)
    return init_chat_model(model, **model_kwargs(spec, agent_key, model))
