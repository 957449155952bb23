"""Agent prompts (agents[].prompt), byte for byte in the team's `prompts/<agent key>.txt`:
only `{{NAME}}` is filled in (placeholders.py), no template engine touches them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from langgraph.config import get_config

from ..placeholders import placeholder_values, render
from ..team_package import TeamPackage


@cache
def raw_prompt(package: TeamPackage, agent_key: str) -> str:
    """The prompt exactly as written in the definition (the team package's prompts/)."""
    resource = files(package.name).joinpath("prompts", f"{agent_key}.txt")
    return resource.read_bytes().decode("utf-8")


def triggered_text(package: TeamPackage) -> str:
    """The workspace rows whose trigger started this run ("" for other runs)."""
    if not hasattr(package.team, "WORKSPACE"):
        return ""
    from .. import run_context

    if run_context.TRIGGERED:  # `watch` started this run in this process
        return run_context.trigger_text()
    # A run `watch --url` sent to an Agent Server: the rows came with its config.
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # outside a run
        return ""
    return run_context.trigger_text(configurable.get(run_context.CONFIG_KEY) or [])


def system_prompt(package: TeamPackage, agent_key: str, inputs: Mapping[str, Any]) -> str:
    """The agent's prompt for this run: `{{NAME}}` filled in from the environment and inputs."""
    team = package.team
    values = placeholder_values(
        [*team.SECRETS, *team.VARIABLES], os.environ, inputs, list(team.INPUTS)
    )
    return render(raw_prompt(package, agent_key), values)
