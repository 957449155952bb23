"""The team's command line: the console script of pyproject.toml, or
`python -m incident_response_crew.main`.

`run` (the default) starts a run of graph.py's graph, here on a LangGraph checkpointer
(SQLite, or PostgreSQL with DATABASE_URL) or on a LangGraph server (`--url`); `resume
THREAD_ID` continues one that stopped. The runner behind them, with its checks of the
environment and the inputs, is envelope-runtime's `envelope_runtime.langgraph.runner`
(given this team's package).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from envelope_runtime.langgraph.runner import command_name, team_amain, team_main
from envelope_runtime.team_package import TeamPackage

__all__ = ["COMMAND", "TEAM", "amain", "main", "run"]

# This team's package, as the runner reaches its modules (graph, team, models, context).
TEAM = TeamPackage("incident_response_crew")

COMMAND = command_name(TEAM)
"""The console script (pyproject.toml)."""


async def amain(argv: Sequence[str] | None = None) -> int:
    """The runner, for callers that already run an event loop (tests); its exit code."""
    return await team_amain(TEAM, argv)


def main(argv: Sequence[str] | None = None) -> int:
    """The runner (default argv: the command line); its exit code."""
    return team_main(TEAM, argv)


def run() -> None:
    """The console script."""
    sys.exit(main())


if __name__ == "__main__":
    run()
