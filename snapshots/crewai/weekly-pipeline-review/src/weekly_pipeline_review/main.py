"""The team's commands, as CrewAI's CLI runs them ([project.scripts] in pyproject.toml).

`crewai run` runs `run_crew` (the crew of crew.py); `crewai train`, `crewai replay` and
`crewai test` run the scripts of those names, and `crewai triggers run` runs
`run_with_trigger`. The runner behind them, with its checks of the environment and the
inputs, is envelope-runtime's `envelope_runtime.crewai.runner` (the crew commands:
`envelope_runtime.crewai.crew_commands`).
"""

from __future__ import annotations

from envelope_runtime.crewai.runner import CrewCommands
from envelope_runtime.team_package import TeamPackage

# Weekly Pipeline Review
# the console scripts of this package (its crew.py, team.py, models.py and config/)
COMMANDS = CrewCommands(TeamPackage("weekly_pipeline_review"))
COMMAND = COMMANDS.command

main = COMMANDS.main
run = COMMANDS.run
run_with_trigger = COMMANDS.run_with_trigger
replay = COMMANDS.replay
test = COMMANDS.test
train = COMMANDS.train

__all__ = ["COMMAND", "COMMANDS", "main", "replay", "run", "run_with_trigger", "test", "train"]

if __name__ == "__main__":
    run()
