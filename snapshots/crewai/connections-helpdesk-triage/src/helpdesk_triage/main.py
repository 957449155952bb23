"""The team's commands, as CrewAI's CLI runs them ([project.scripts] in pyproject.toml).

`crewai run` runs `run_crew` (the crew of crew.py); `crewai train`, `crewai replay` and
`crewai test` run the scripts of those names, and `crewai triggers run` runs
`run_with_trigger`. The runner behind them, with its checks of the environment and the
inputs, is envelope_support/runner.py (the crew commands: crew_commands.py).
"""

from __future__ import annotations

from .envelope_support.crew_commands import replay, test, train
from .envelope_support.runner import COMMAND, main, run, run_with_trigger

__all__ = ["COMMAND", "main", "replay", "run", "run_with_trigger", "test", "train"]

if __name__ == "__main__":
    run()
