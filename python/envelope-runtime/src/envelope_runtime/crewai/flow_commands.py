"""A pipeline team's console scripts (main.py's FlowCommands). Apart from flow_runner.py, the
Flow's runs: CrewAI AMP and `crewai deploy validate` import main.py to find the Flow and build
it without running our runner, so a build loads none of it (a run's start_run does)."""

from __future__ import annotations

import sys

from . import runtime
from .runner import TeamCommands, _exit

__all__ = ["FlowCommands"]


class FlowCommands(TeamCommands):
    """A pipeline team's console scripts: a run's (TeamCommands), `resume` (a run waiting at
    a gate) and `plot` (`crewai flow plot`)."""

    def resume(self) -> None:
        """`resume RUN_ID [--decisions FILE]`: a run that waits at a gate goes on."""
        from .flow_resume import resume_run

        _exit(resume_run(self.package, sys.argv[1:]))

    def plot(self) -> None:
        """`plot` (`crewai flow plot`): Flow.plot, the pipeline as an HTML page
        (crewai_flow.html), opened in a browser when run at a terminal."""
        team_flow = self.package.module("flow").TeamFlow(suppress_flow_events=True)
        print(team_flow.plot(show=sys.stdout.isatty()))
        _exit(runtime.EXIT_OK)
