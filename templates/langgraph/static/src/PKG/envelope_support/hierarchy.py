"""hierarchy mode: the `team` node, which runs the entry agent's graph on the team's task.

Its reports are its tools, run by nodes of that graph (agents.py), theirs of theirs, so
every agent is drawn and checkpointed.
"""

from __future__ import annotations

from langgraph.types import Command

from .. import team
from ..state import TeamResult, TeamState
from . import agents
from .nodes import TEAM_ANSWER, Node, TeamNodes, Update, answer_json, as_json


class HierarchyNodes(TeamNodes):
    """The node functions of a hierarchy team's graph: prepare, team, finalize."""

    def team(self) -> Node:
        """hierarchy: the node that runs the entry agent's graph (compiled here, once) on
        the team's task; its reports are nodes of that graph, theirs of theirs."""
        entry = self.agents.unit(agents.entry_agent(), TeamResult)

        async def run_team(state: TeamState) -> Update | Command[str]:
            return await self._within_deadline(state, lambda: self._team(entry, state))

        return run_team

    def team_timeout(self) -> float:
        """The team node's limit: it holds the whole run (agents.subtree_timeout)."""
        return agents.subtree_timeout()

    async def _team(self, entry: agents.AgentGraph, state: TeamState) -> Update:
        inputs = state["inputs"]
        task = (
            f"Handle this run of the {team.NAME} team.\n\n{team.DESCRIPTION}\n\n"
            f"Run inputs (JSON):\n{as_json(inputs)}\n\n"
            f"Finish by calling {TeamResult.__name__} with the team's result."
        )
        agent_key = agents.entry_agent()
        result = await self._ask(agent_key, inputs, task, TEAM_ANSWER, TeamResult, entry)
        answer = self._structured(result, TeamResult, "the team")
        return {"answers": {TEAM_ANSWER: answer_json(answer)}}
