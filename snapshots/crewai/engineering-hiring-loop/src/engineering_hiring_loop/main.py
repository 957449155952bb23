"""The team's commands, as CrewAI's CLI runs them ([project.scripts] in pyproject.toml).

`crewai run` and `crewai flow kickoff` run `kickoff` (the Flow of flow.py); `crewai flow
plot` runs `plot`, and `crewai triggers run` runs `run_with_trigger`. `resume` continues a
run that stopped at a gate. The runner behind them, with its checks of the environment and
the inputs, is envelope-runtime's `envelope_runtime.crewai.runner` (these commands:
`envelope_runtime.crewai.flow_commands`; the Flow's runs: `envelope_runtime.crewai.flow_runner`).
"""

from __future__ import annotations

from envelope_runtime.crewai.flow_commands import FlowCommands
from envelope_runtime.team_package import TeamPackage

# The team's Flow where CrewAI looks for a flow project's Flow subclass: in main.py, built
# with no arguments (AMP's deployment, `crewai deploy validate`).
from engineering_hiring_loop.flow import EngineeringHiringLoopFlow

# Engineering Hiring Loop
# the console scripts of this package (its crew.py, flow.py, team.py, models.py and config/)
COMMANDS = FlowCommands(TeamPackage("engineering_hiring_loop"))
COMMAND = COMMANDS.command

main = COMMANDS.main
run = COMMANDS.run
run_with_trigger = COMMANDS.run_with_trigger
kickoff = COMMANDS.run
plot = COMMANDS.plot
resume = COMMANDS.resume

__all__ = [
    "COMMAND",
    "COMMANDS",
    "EngineeringHiringLoopFlow",
    "kickoff",
    "main",
    "plot",
    "resume",
    "run",
    "run_with_trigger",
]

if __name__ == "__main__":
    run()
