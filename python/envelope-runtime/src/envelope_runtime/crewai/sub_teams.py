"""A mid-level manager's `delegate_to_team` tool (delegation.py): its sub-team as a nested
hierarchical crew it manages. Imported only by a team that has a mid-level manager."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from crewai import Task
from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from .crew_base import kickoff
from .delegation import SUB_TEAM_TOOL, workers_of

if TYPE_CHECKING:
    from .delegation import HierarchyCrew


class SubTeamInput(BaseModel):
    task: str = Field(description="The task for your team, with everything they need to do it.")


class SubTeamTool(BaseTool):
    name: str = SUB_TEAM_TOOL
    description: str = "Hand a task to the team you manage and get their answer."
    args_schema: type[BaseModel] = SubTeamInput
    run_team: Callable[[str], str] = Field(exclude=True)  # task -> the sub-team's answer
    stays_local: ClassVar[bool] = True
    """Each member's own policy checks its requests (http_tools.check_tool_call)."""

    def _run(self, task: str) -> str:
        return self.run_team(task)


def sub_team_tool(crews: HierarchyCrew, manager_key: str) -> SubTeamTool:
    """`manager_key`'s tool: each task runs its sub-team with fresh agents (a new crew object
    of the class, `manager_key` built as its manager)."""
    team_roles = ", ".join(crews.role_of(key) for key in workers_of(crews.package, manager_key))

    def run_team(task: str) -> str:
        sub_team = crews._fresh(managing=manager_key)
        work = Task(
            name=f"team:{manager_key}",
            description=task,
            expected_output="The team's complete answer to the task.",
        )
        return kickoff(sub_team._hierarchical_crew(manager_key, [work])).raw

    return SubTeamTool(
        run_team=run_team,
        description=(
            f"Hand a task to the team you manage ({team_roles}) and get their answer. "
            "They cannot see your conversation: put everything they need into the task."
        ),
    )
