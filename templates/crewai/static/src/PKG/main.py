"""The team's commands, as CrewAI's CLI runs them ([project.scripts] in pyproject.toml).

`crewai run` runs `run_crew` (a crew) or `kickoff` (a flow); `crewai train`, `crewai
replay`, `crewai test` and `crewai flow plot` run the scripts of those names, and
`crewai triggers run` runs `run_with_trigger`. The runner behind them, with its checks of
the environment and the inputs, is envelope_support/runner.py.
"""

from __future__ import annotations

from .envelope_support.runner import (
    COMMAND,
    kickoff,
    main,
    plot,
    replay,
    resume,
    run,
    run_with_trigger,
    test,
    train,
)

__all__ = [
    "COMMAND",
    "kickoff",
    "main",
    "plot",
    "replay",
    "resume",
    "run",
    "run_with_trigger",
    "test",
    "train",
]

if __name__ == "__main__":
    run()
