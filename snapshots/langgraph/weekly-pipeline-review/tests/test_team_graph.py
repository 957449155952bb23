"""This team's graph (generated from envelope.json, agents[]): every agent is a node of it,
drawn as Studio shows it, and each agent's conversation is checkpointed in the thread, in
its own namespace."""

from __future__ import annotations

import helpers
import pytest
from fakes import FakeBoard

# Per agent: the nodes from the team's graph down to the agent's own node (hierarchy.py).
AGENT_NODES: dict[str, tuple[str, ...]] = {
    # agents[0] revops-analyst
    "revops-analyst": ("team", "revops_analyst"),
    # agents[1] deal-coach
    "deal-coach": ("team", "ask-deal_coach", "deal_coach"),
}


@pytest.mark.parametrize(("agent_key", "path"), AGENT_NODES.items())
def test_the_agent_is_drawn_in_the_graph(agent_key: str, path: tuple[str, ...]) -> None:
    assert helpers.drawn_under(path), f"{agent_key}: nothing drawn under {':'.join(path)}"


@pytest.mark.anyio
async def test_each_agents_conversation_is_in_its_checkpoints(
    team_env: dict[str, str], board: FakeBoard
) -> None:
    conversations = await helpers.checkpointed_conversations(board)

    for agent_key, path in AGENT_NODES.items():
        calls = board.calls_of(agent_key)
        assert calls, f"{agent_key} was never asked"
        assert calls[0].human in conversations.get(path, []), agent_key
