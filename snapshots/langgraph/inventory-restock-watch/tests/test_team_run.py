"""The team's whole run, offline: its graph (graph.build_graph) with scripted chat models
(envelope-runtime's `run_offline`: LangChain chat models that answer from the tools they are
bound to, never a network), from inputs its specs accept, to the team's result.
Run with `uv run pytest`.
"""

from __future__ import annotations

from envelope_runtime.langgraph.testing import run_offline

from inventory_restock_watch import graph, state
from inventory_restock_watch.graph import TEAM

# The agents a run calls: every one, the entry agent asking its reports (agents[].reportsToKey)
RUN_AGENTS: tuple[str, ...] = (
    # agents[0] inventory-planner
    "inventory-planner",
    # agents[1] purchasing-assistant
    "purchasing-assistant",
)

# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.purchase_orders
    "purchase_orders",
    # outputs.merch_alert
    "merch_alert",
)


def test_the_whole_team_runs_offline() -> None:
    run = run_offline(TEAM, graph.build_graph)

    assert run.output["status"] == "done", run.output
    assert tuple(run.output["result"]) == OUTPUTS
    state.TeamResult.model_validate(run.output["result"])
    assert set(RUN_AGENTS) <= set(run.models.calls)
    assert run.reviews == []
