"""The team's command line (main.py calls it): a thin client of graph.py's graph.

    <team> [run] [--inputs JSON|@FILE] [--<input> VALUE ...]   start a run
    <team> resume THREAD_ID                                    continue one that stopped
    <team> workspace list|show|edit|import|export|archive|delete  the workspace documents
    <team> watch [--once] [--interval S] [-- RUN OPTIONS]        run on workspace triggers

The graph runs in this process on a LangGraph checkpointer (DATABASE_URL's PostgreSQL, else
SQLite in --state-dir) or on an Agent Server (`--url`), one thread per run; gated teams have
`resume --decisions` and `sweep` (review.py). The commands' options and the driving are
run_client.py's (a build of the team does not load them). Exit codes: 0 done, 1 failed,
2 configuration, 3 waiting for review, 4 halted, 124 timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from ..team_package import TeamPackage

CHECKPOINTS = "checkpoints.sqlite"
STATE_DIR = Path(".langgraph_runs")  # gitignored run data, beside langgraph dev's .langgraph_api
DATABASE_ENV = "DATABASE_URL"  # PostgreSQL: the checkpoints there instead of SQLite
TRACE_ENV = "ENVELOPE_TRACE_FILE"  # trace.ENV: named here, so a run without one skips trace.py


def command_name(package: TeamPackage) -> str:
    """The console script (pyproject.toml): the package's name, a safe shell word."""
    return package.name


def add_location(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--env-file", help="dotenv file (default: .env, when there is one)")
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=STATE_DIR,
        help=f"checkpoints without {DATABASE_ENV}, and decisions files (default: {STATE_DIR})",
    )
    parser.add_argument(
        "--url",
        help="an Agent Server serving the team (langgraph dev, a deployment): runs go there",
    )


async def team_amain(package: TeamPackage, argv: Sequence[str] | None = None) -> int:
    """The runner, for callers that already run an event loop (tests)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    from . import run_client as client

    if arguments[:1] == ["resume"]:
        return int(await client.resume_run(package, arguments[1:]))
    if arguments[:1] == ["sweep"] and package.team.GATES:
        from . import review

        return await review.sweep_runs(package, arguments[1:])
    if arguments[:1] == ["run"]:
        arguments = arguments[1:]
    return int(await client.start_run(package, arguments))


def team_main(package: TeamPackage, argv: Sequence[str] | None = None) -> int:
    """The runner (main.py's console script): its exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    data = vars(package.team)
    if "WEBHOOK_SECRET_ENV" in data or "CONDITION_INTERVAL_S" in data:
        from . import schedule_commands  # serve-webhook / poll: event and condition teams

        code = schedule_commands.main(package, arguments)
        if code is not None:
            return code
    if arguments[:1] in (["workspace"], ["watch"]) and "WORKSPACE" in data:
        from . import run_client as client

        return int(client.workspace_command(package, arguments))
    return asyncio.run(team_amain(package, arguments))
