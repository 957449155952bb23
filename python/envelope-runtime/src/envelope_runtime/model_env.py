"""An agent's model as the environment overrides it, in every target: `MODEL_<AGENT>`
(`lead-writer` -> `MODEL_LEAD_WRITER`), else `MODEL_OVERRIDE`, else the definition's. Values
are `provider:model` or `provider/model`: the first `:` or `/` ends the provider, so
`openai:llama3.1:8b` and `openrouter/anthropic/claude-sonnet-4-5` keep their model names."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

OVERRIDE_ENV = "MODEL_OVERRIDE"


def agent_env(agent_key: str) -> str:
    """`MODEL_<AGENT>` of one agent."""
    return "MODEL_" + "".join(c.upper() if c.isascii() and c.isalnum() else "_" for c in agent_key)


def split_model(value: str) -> tuple[str, str] | None:
    """(provider, model) of `provider:model` or `provider/model`; None if it is neither."""
    cuts = [i for i in (value.find(":"), value.find("/")) if i >= 0]
    if not cuts:
        return None
    cut = min(cuts)
    provider, model = value[:cut].strip().lower(), value[cut + 1 :].strip()
    return (provider, model) if provider and model else None


def override(agent_key: str, environ: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(variable, value) overriding this agent's model, if the environment sets one."""
    env = os.environ if environ is None else environ
    for name in (agent_env(agent_key), OVERRIDE_ENV):
        value = env.get(name, "").strip()
        if value:
            return name, value
    return None


def override_problems(
    agent_keys: Iterable[str], environ: Mapping[str, str] | None = None
) -> list[str]:
    """Every override that names no `provider:model`, reported before the run."""
    problems: list[str] = []
    for agent_key in agent_keys:
        found = override(agent_key, environ)
        if found is not None and split_model(found[1]) is None:
            problem = f"{found[0]}={found[1]!r}: expected provider:model (e.g. openai:gpt-4.1-mini)"
            if problem not in problems:
                problems.append(problem)
    return problems


def unset_blank(names: Iterable[str]) -> None:
    """Remove the variables among `names` that are set but blank (an unset repository
    secret in a workflow, `NAME=` in .env): provider SDKs read them themselves and would
    take "" as their endpoint."""
    for name in names:
        if name in os.environ and not os.environ[name].strip():
            del os.environ[name]


def load_problems(env_name: str, load: Callable[[], object]) -> list[str]:
    """The function an environment variable names (`module:function`, a model factory),
    loaded now, so a wrong name is reported with every other problem before the run."""
    named = os.environ.get(env_name, "").strip()
    try:
        found = load()
    except Exception as error:  # importing someone's module can raise anything
        return [f"{env_name}: cannot load {named!r} ({type(error).__name__}: {error})"]
    if found is not None and not callable(found):
        return [f"{env_name}: {named!r} is not a function"]
    return []
