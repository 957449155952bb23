"""Agent prompts (agents[].prompt), delivered to the model verbatim.

Each prompt is stored byte for byte in `prompts/<agent key>.txt` (empty when the agent has
no prompt) and becomes the agent's system prompt (`create_agent(system_prompt=...)`),
which LangChain sends as is: no template engine touches it. Rendering replaces
`{{NAME}}` with a variable, secret or input value when the run starts and leaves every
other character as it is.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any

from .. import team

_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")


@cache
def raw_prompt(agent_key: str) -> str:
    """The prompt exactly as written in the definition."""
    # prompts/ is the team package's (one level up from this support package).
    resource = files(team.__name__.rpartition(".")[0]).joinpath("prompts", f"{agent_key}.txt")
    return resource.read_bytes().decode("utf-8")


def render(text: str, values: Mapping[str, str]) -> str:
    """Replace each `{{NAME}}` that has a value; leave all other text untouched."""
    return _PLACEHOLDER.sub(lambda match: values.get(match[1], match[0]), text)


def reference_name(input_key: str) -> str:
    """An input's upper-case name in prompts: `{{TICKET_TEXT}}` for `ticket-text`."""
    return re.sub(r"[^A-Z0-9_]", "_", input_key.upper())


def placeholder_values(
    env_names: Sequence[str],
    environ: Mapping[str, str],
    inputs: Mapping[str, Any],
    declared: Sequence[str] = (),
) -> dict[str, str]:
    """Values for `{{NAME}}`: variables and secrets first, then inputs.

    An input is reachable by its own key and by its upper-case name (`{{TICKET_TEXT}}`).
    An exact key wins over another input's upper-case name, and of inputs that share one
    the first declared (`declared`: team.INPUTS order) wins. Non-string inputs are JSON.
    """
    keys = list(declared) or list(inputs)
    targets = {key: key for key in keys}
    for key in keys:
        targets.setdefault(reference_name(key), key)
    values: dict[str, str] = {}
    for name, key in targets.items():
        if key in inputs:
            value = inputs[key]
            values[name] = value if isinstance(value, str) else json.dumps(value)
    for name in env_names:
        if name in environ:
            values[name] = environ[name]
    return values


def system_prompt(agent_key: str, inputs: Mapping[str, Any]) -> str:
    """The agent's prompt for this run: `{{NAME}}` filled in from the environment and inputs."""
    values = placeholder_values(
        [*team.SECRETS, *team.VARIABLES], os.environ, inputs, list(team.INPUTS)
    )
    return render(raw_prompt(agent_key), values)
