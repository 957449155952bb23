"""Agent prompts (agents[].prompt), delivered to the model verbatim.

Each prompt is stored byte for byte in `prompts/<agent key>.txt` (empty when the agent has
no prompt) and becomes the agent's system prompt (`create_agent(system_prompt=...)`),
which LangChain sends as is: no template engine touches it. Rendering (placeholders.py)
replaces `{{NAME}}` with a variable, secret or input value when the run starts and leaves
every other character as it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from ..placeholders import placeholder_values, render
from ..team_package import TeamPackage


@cache
def raw_prompt(package: TeamPackage, agent_key: str) -> str:
    """The prompt exactly as written in the definition (the team package's prompts/)."""
    resource = files(package.name).joinpath("prompts", f"{agent_key}.txt")
    return resource.read_bytes().decode("utf-8")


def triggered_text(package: TeamPackage) -> str:
    """The workspace rows whose trigger started this run, after the run inputs ("" for
    other runs; run_context.py is imported by workspace teams only)."""
    if not hasattr(package.team, "WORKSPACE"):
        return ""
    from .. import run_context

    return run_context.trigger_text()


def system_prompt(package: TeamPackage, agent_key: str, inputs: Mapping[str, Any]) -> str:
    """The agent's prompt for this run: `{{NAME}}` filled in from the environment and inputs."""
    team = package.team
    values = placeholder_values(
        [*team.SECRETS, *team.VARIABLES], os.environ, inputs, list(team.INPUTS)
    )
    return render(raw_prompt(package, agent_key), values)
