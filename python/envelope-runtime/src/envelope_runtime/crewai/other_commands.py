"""The runner's commands a run does not need, imported only when one is given: `workspace`
and `watch` (a team with workspace documents), `serve-webhook` and `poll` (an event or
condition schedule, schedule_commands.py), and `run_with_trigger` (`crewai triggers run`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from .. import inputs
from ..team_package import TeamPackage
from . import runtime
from .runner import STATE_DIR, _has_workspace, command_of, start_run


def _has_triggers(package: TeamPackage) -> bool:
    return any(spec.triggers for spec in getattr(package.team, "WORKSPACE", {}).values())


def workspace_epilog(package: TeamPackage) -> list[str]:
    """The workspace commands, for --help."""
    from ..workspace import help_lines

    return help_lines(package.team.WORKSPACE, command_of(package))


def _workspace_command(package: TeamPackage, name: str, arguments: list[str]) -> int:
    """`workspace ...` (workspace.workspace_command) and `watch ...` (workspace.watch_command,
    each fired `run` trigger starting a run with the options after `--`), on the store the
    agents' tools use (workspace_store.open_workspace)."""
    from .. import workspace
    from .workspace_store import StoredRuns, open_workspace

    load_dotenv(".env", override=False)  # ENVELOPE_WORKSPACE_DB may be set there
    store = open_workspace(package)
    command = command_of(package)
    if name == "workspace":
        runs = StoredRuns(Path(STATE_DIR))
        return workspace.workspace_command(arguments, store, command, runs)
    if not _has_triggers(package):
        print(
            f"{package.team.NAME} declares no workspace trigger (workspace[].triggers): "
            "watch has nothing to evaluate.",
            file=sys.stderr,
        )
        return runtime.EXIT_CONFIG

    def start(argv: Sequence[str], base: dict[str, Any] | None = None) -> int:
        return start_run(package, argv, base)

    return workspace.watch_command(arguments, store, start, command)


_SCHEDULE_COMMANDS = {"serve-webhook": "WEBHOOK_SECRET_ENV", "poll": "CONDITION_INTERVAL_S"}
"""Each schedule command and the team.py name of the schedule it needs (schedules.main)."""


def main(package: TeamPackage, arguments: list[str]) -> int | None:
    """One of these commands, if the team has it; None otherwise (then it is a run's)."""
    if _has_workspace(package) and arguments[0] in ("workspace", "watch"):
        return _workspace_command(package, arguments[0], arguments[1:])
    needs = _SCHEDULE_COMMANDS.get(arguments[0])
    if needs is None or not hasattr(package.team, needs):
        return None
    from . import schedule_commands

    return schedule_commands.main(package, arguments)


TRIGGER_PAYLOAD = "crewai_trigger_payload"


def trigger_inputs(package: TeamPackage, data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The inputs a trigger's JSON gives, and the payload keys no input takes.

    `{"crewai_trigger_payload": PAYLOAD, <input>: value, ...}` (CrewAI's shape): the
    payload's keys that name inputs, under the inputs given beside it; any other object
    (what `crewai triggers run` sends, or plain inputs) is the payload itself."""
    explicit = dict(data)
    payload = explicit.pop(TRIGGER_PAYLOAD) if TRIGGER_PAYLOAD in explicit else explicit
    if payload is explicit:
        explicit = {}
    if not isinstance(payload, dict):
        return explicit, [] if payload is None else [f"all of it (a {type(payload).__name__})"]
    team_inputs = package.team.INPUTS
    given = {key: value for key, value in payload.items() if key in team_inputs}
    unused = [key for key in payload if key not in team_inputs]
    return {**given, **explicit}, unused


def run_with_trigger(package: TeamPackage) -> int:
    """`run_with_trigger PAYLOAD [options]` (`crewai triggers run`): PAYLOAD is a JSON
    object, a trigger payload or the inputs (trigger_inputs); the other inputs come from
    the usual sources (inputs.json, INPUT_<NAME>, --inputs, flags)."""
    if len(sys.argv) < 2:
        print("usage: run_with_trigger '<JSON trigger payload or inputs>'", file=sys.stderr)
        return runtime.EXIT_CONFIG
    try:
        data = inputs.strict_json(sys.argv[1])
    except ValueError as error:
        print(f"run_with_trigger: the payload is not valid JSON: {error}", file=sys.stderr)
        return runtime.EXIT_CONFIG
    if not isinstance(data, dict):
        print("run_with_trigger: the payload must be a JSON object", file=sys.stderr)
        return runtime.EXIT_CONFIG
    base, unused = trigger_inputs(package, data)
    if unused:
        print(
            f"Trigger payload: not inputs of this team, unused: {', '.join(unused)}",
            file=sys.stderr,
        )
    return start_run(package, sys.argv[2:], base)
