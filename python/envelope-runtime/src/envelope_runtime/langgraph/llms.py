"""How an agent's chat model is built (agents[].model / modelConfig, timeouts).

The generated `models.py` holds the data (`MODELS`) and the default seam
`model_for(agent_key)`; everything else is here. Models are built with LangChain's
`init_chat_model` on first use, never at import: importing the graph needs neither a
provider package nor an API key.

An agent's model, in order (`agent_model`, the one place it is chosen): the run's
`context.Context` (the agent's own field, else the field for every agent: an assistant or a
run sets it), else `MODEL_<AGENT>`, else `MODEL_OVERRIDE` (model_env.py), else the
definition's model; an agent without one uses the `MODEL` environment variable
(`provider:model`, e.g. `anthropic:claude-sonnet-4-5`), else `DEFAULT_MODEL`. A model from
the context or the environment must name a provider of PROVIDER_KEYS. Each provider's
base-URL variable (BASE_URL_ENV) is passed to its chat model explicitly.

`ENVELOPE_MODEL_FACTORY=module:function` supplies every model from your own code instead:
`function(agent_key)` returns a LangChain `BaseChatModel` (`chosen_model(package, agent_key)`
tells it what the run's context chose). Provider API keys are then not required.

A model call that fails transiently is sent again, MODEL_ATTEMPTS requests at most
(agents.model_retry); the models built here have their clients' own retries off, a
factory's models keep theirs.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel
from langgraph.runtime import get_runtime

from .. import model_env
from ..model_env import load_problems
from ..team_package import TeamPackage
from .runtime import EnvRequirement

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


MODEL_ATTEMPTS = 4
"""The most requests one model call makes to its provider: the first, and up to three more
after a transient failure (`transient`), RETRY_DELAY_S, then twice and four times that apart
(±25 %; agents.model_retry). The one retry layer of a model call: each provider client's own
retries are off (NO_CLIENT_RETRIES), and no graph node is retried, because a node holds
model and tool calls that already completed."""

RETRY_DELAY_S = 1.0
"""The wait before a model call's first retry; each later wait doubles it (at most 8 times)."""


def retry_waits_s() -> float:
    """The longest a model call's retries wait in all (agents.model_retry: RETRY_DELAY_S,
    doubled each time up to 8 times it, +25 % jitter): 8.75 s for 4 attempts."""
    return sum(
        min(RETRY_DELAY_S * 2**n, 8 * RETRY_DELAY_S) * 1.25 for n in range(MODEL_ATTEMPTS - 1)
    )


def node_timeout(timeout_s: float) -> float:
    """The limit of a node that holds one agent's conversation (add_node timeout, a hard
    wall-clock cap on the node): room for a model call's MODEL_ATTEMPTS requests of
    `timeout_s` each (each request's own timeout, model_kwargs) and the waits between them,
    so a request that timed out is sent again before the node gives up."""
    return MODEL_ATTEMPTS * timeout_s + retry_waits_s()


# Each integration's `max_retries` for "no retries of its own" (its SDK would retry 2-6 times
# more under ours). Google's and Mistral's count attempts (Google's 0 means its default).
NO_CLIENT_RETRIES: dict[str, int] = {
    "openai": 0,
    "anthropic": 0,
    "google_genai": 1,
    "mistralai": 1,
    "openrouter": 0,
}


def transient(error: BaseException) -> bool:
    """A provider failure worth another request: a rate limit, a server error, a lost or
    timed out connection. A bad request, a wrong key, a refusal, a context overflow, a node
    timeout or an answer we cannot use is not."""
    retryable = getattr(error, "is_retryable", None)  # langchain_core.exceptions.ModelError
    if isinstance(retryable, bool):
        return retryable
    status = getattr(error, "status_code", None) or getattr(error, "code", None)
    if status is None:
        status = getattr(getattr(error, "response", None), "status_code", None)
    if isinstance(status, int) and not isinstance(status, bool):
        return status in (408, 409, 429) or status >= 500
    names = {cls.__name__ for cls in type(error).__mro__}
    return isinstance(error, ConnectionError) or bool(names & _TRANSIENT_CLASSES)


_TRANSIENT_CLASSES = {"APIConnectionError", "APITimeoutError", "TransportError"}
"""openai's and anthropic's connection errors, httpx's transport errors (by name: the
provider packages a team installs vary)."""


def provider(model: str) -> str:
    """The init_chat_model prefix of `prefix:model` ("" when the model names none)."""
    prefix, separator, _ = model.partition(":")
    return prefix.lower() if separator else ""


def _normalized(value: str) -> str | None:
    """`prefix:model` (init_chat_model's prefix) of `provider:model` / `provider/model`."""
    parts = model_env.split_model(value)
    return f"{_PREFIX_ALIASES.get(parts[0], parts[0])}:{parts[1]}" if parts else None


def model_problem(source: str, value: object) -> str | None:
    """Why a model chosen at run time (`source`: an environment variable or a context field)
    cannot be used, or None: it must be `provider:model` with a provider of PROVIDER_KEYS."""
    if not isinstance(value, str) or model_env.split_model(value) is None:
        return f"{source}={value!r}: expected provider:model (e.g. {DEFAULT_MODEL})"
    if provider(_normalized(value) or "") not in PROVIDER_KEYS:
        known = ", ".join([*PROVIDER_KEYS, *_PREFIX_ALIASES])
        return f"{source}={value!r}: unknown provider (known: {known})"
    return None


# --- the run's context (the team's context.Context: an assistant's or a run's models) -------


def run_context() -> object | None:
    """The context of the current LangGraph run (None outside a run, or when none was set)."""
    try:
        found = get_runtime()
    except (RuntimeError, KeyError):  # outside a runnable context, or outside a graph's
        return None
    return getattr(found, "context", None)


def _unset(value: object) -> bool:
    """None, or a blank string: unset, as a blank MODEL_* variable is."""
    return value is None or (isinstance(value, str) and not value.strip())


def context_values(chosen: object | None) -> dict[str, Any]:
    """The fields a context sets (a context.Context, or a mapping of the same names); blank
    ones are left out, as unset."""
    if chosen is None:
        return {}
    if is_dataclass(chosen) and not isinstance(chosen, type):
        found = {f.name: getattr(chosen, f.name) for f in fields(chosen)}
    else:
        found = dict(chosen) if isinstance(chosen, Mapping) else {}
    return {name: value for name, value in found.items() if not _unset(value)}


def context_problems(package: TeamPackage, chosen: object | None) -> list[str]:
    """Every model the context sets that cannot be used (the same checks as the environment's),
    and every key of a mapping that is no field of the team's context.Context (a server drops
    those)."""
    problems: list[str] = []
    known = {f.name for f in fields(package.module("context").Context)}
    for name in chosen if isinstance(chosen, Mapping) else ():
        if name not in known:
            problems.append(f"context {name!r}: no such field (fields: {', '.join(sorted(known))})")
    for name, value in context_values(chosen).items():
        problem = model_problem(f"context {name}", value) if name in known else None
        if problem is not None:
            problems.append(problem)
    return problems


def chosen_model(package: TeamPackage, agent_key: str, chosen: object | None = None) -> str | None:
    """`prefix:model` the context chooses for an agent of the team: its own field, else the
    field for every agent; None when it chooses nothing. `chosen`: a context (default: the
    current run's). Raises ValueError for a model that cannot be used."""
    context = package.module("context")
    values = context_values(run_context() if chosen is None else chosen)
    own = values.get(context.AGENT_FIELDS.get(agent_key, ""))
    value = own if own is not None else values.get(context.ALL_AGENTS_FIELD)
    if value is None:
        return None
    source = context.AGENT_FIELDS[agent_key] if own is not None else context.ALL_AGENTS_FIELD
    problem = model_problem(f"context {source}", value)
    if problem is not None:
        raise ValueError(problem)
    return _normalized(value)


def _override(agent_key: str) -> str | None:
    """`prefix:model` from MODEL_<AGENT> or MODEL_OVERRIDE, if set and well formed."""
    found = model_env.override(agent_key)
    return _normalized(found[1]) if found else None


def agent_model(
    package: TeamPackage, agent_key: str, spec: ModelSpec, chosen: object | None = None
) -> str:
    """`prefix:model` an agent uses in this run: the context's choice (`chosen`, default: the
    current run's context), else the environment's and the definition's (`model_id`)."""
    return chosen_model(package, agent_key, chosen) or model_id(spec, agent_key)


def model_id(spec: ModelSpec, agent_key: str | None = None) -> str:
    """`prefix:model` of an agent without a context: its override, else its own, else MODEL,
    else DEFAULT_MODEL."""
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


def model_kwargs(
    spec: ModelSpec, agent_key: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """init_chat_model's keyword arguments besides the model (`model`, default: `model_id`):
    what the definition and the environment's base URL set, and the client's own retries
    off (MODEL_ATTEMPTS)."""
    kwargs: dict[str, Any] = {}
    model = model or model_id(spec, agent_key)
    endpoint = base_url(model)
    if endpoint is not None:
        kwargs["base_url"] = endpoint
    if spec.temperature is not None:
        kwargs["temperature"] = spec.temperature
    if spec.max_tokens is not None:
        kwargs["max_tokens"] = spec.max_tokens
    unit = _TIMEOUT_UNITS.get(provider(model), float)
    kwargs["timeout"] = unit(spec.timeout_s)
    if provider(model) in NO_CLIENT_RETRIES:
        kwargs["max_retries"] = NO_CLIENT_RETRIES[provider(model)]
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
    agents (each must be provider:model, with a known provider), checked with the rest
    before the run."""
    problems = load_problems(FACTORY_ENV, factory) + model_env.override_problems(models or {})
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
    """The provider API keys of the models the team's agents (`models`, default: its
    models.MODELS) will use (none with a factory); `chosen`: the run's context, whose models
    count instead of the others."""
    if os.environ.get(FACTORY_ENV, "").strip():
        return []
    needed: list[EnvRequirement] = []
    if models is None:
        models = package.models.MODELS
    for agent_key, spec in models.items():
        model = (
            chosen_model(package, agent_key, chosen) if chosen is not None else None
        ) or model_id(spec, agent_key)
        requirement = PROVIDER_KEYS.get(provider(model))
        if requirement is not None and requirement not in needed:
            needed.append(requirement)
    return needed


def build_chat_model(agent_key: str, spec: ModelSpec, model: str | None = None) -> BaseChatModel:
    """The chat model of one agent (or ENVELOPE_MODEL_FACTORY's): imports its provider now.
    `model`: `prefix:model` to use (default: `model_id`, the environment's and definition's)."""
    supplied = factory()
    if supplied is not None:
        return supplied(agent_key)
    model = model or model_id(spec, agent_key)
    return init_chat_model(model, **model_kwargs(spec, agent_key, model))
