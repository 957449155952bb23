"""`PipelineCrew`, the base of a pipeline team's crew.py: each step is an @task of crew.py
(`step_task`) that the flow (pipeline.py) runs as a one-task crew with fresh agents
(`step_crew`), the answers it waits for as its context. There is no @crew: the flow is the
one way the pipeline runs (`crewai run` runs a `type = "flow"` project's flow)."""

from __future__ import annotations

from collections.abc import Mapping

from crewai import Crew, Task
from crewai.tasks.task_output import TaskOutput

from .crew_base import TeamCrewBase


class PipelineCrew(TeamCrewBase):
    """Base of a pipeline team's @CrewBase class: its steps' tasks and crews."""

    def step_task(self, step_key: str) -> Task:
        """pipeline[] step: its @task in crew.py (config/tasks.yaml), for this run, once."""
        team = self.package.team
        work: Task = getattr(self, team.PIPELINE[step_key].method)()
        if id(work) not in self._ready:
            self._ready.add(id(work))
            work.name = step_key
            work.description = self._text(work.description)
            work.expected_output = self._text(work.expected_output)
            work.agent = self._agent(team.PIPELINE[step_key].agent_key)
            final = step_key == team.FINAL_STEP
            work.output_pydantic = team.TeamResult if final else team.RECORD_MODELS.get(step_key)
        return work

    def step_crew(self, step_key: str, received: str, answers: Mapping[str, str]) -> Crew:
        """One step as a one-task crew, with fresh agents: its task gets `received` (released
        records, or the run inputs) appended, and the answers of the steps it waits for as
        CrewAI context (`Task.context`, each a finished task)."""
        team = self.package.team
        steps = self._fresh()
        work = steps.step_task(step_key)
        if answers:
            # CrewAI's context joins the answers without saying whose each one is.
            whose = ", ".join(f"step {dep} ({team.PIPELINE[dep].label})" for dep in answers)
            work.description = f"{work.description}\n\nThe context is the answer of {whose}."
        if received:
            work.description = f"{work.description}\n\n{received}"
        work.context = [steps._finished(dep, text) for dep, text in answers.items()]
        return self._crew(agents=[work.agent], tasks=[work])  # CrewAI's default: sequential

    def _finished(self, step_key: str, text: str) -> Task:
        """A step's task holding the answer it gave earlier in the run (a task's context)."""
        done = self.step_task(step_key)
        done.output = TaskOutput(
            name=step_key, description=done.description, raw=text, agent=done.agent.role
        )
        return done
