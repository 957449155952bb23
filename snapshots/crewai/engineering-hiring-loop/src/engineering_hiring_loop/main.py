"""The team's commands, as CrewAI's CLI runs them ([project.scripts] in pyproject.toml).

`crewai run` and `crewai flow kickoff` run `kickoff` (the Flow of flow.py); `crewai flow
plot` runs `plot`, and `crewai triggers run` runs `run_with_trigger`. `resume` continues a
run that stopped at a gate. The runner behind them, with its checks of the environment and
the inputs, is envelope_support/runner.py (the Flow's runs: flow_runner.py).
"""

from __future__ import annotations

from .envelope_support.flow_runner import plot, resume
from .envelope_support.runner import COMMAND, kickoff, main, run, run_with_trigger

__all__ = ["COMMAND", "kickoff", "main", "plot", "resume", "run", "run_with_trigger"]

if __name__ == "__main__":
    run()
