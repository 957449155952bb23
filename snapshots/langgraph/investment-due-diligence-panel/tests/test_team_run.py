"""The team's whole run, offline: its graph (graph.build_graph) with scripted chat models
(envelope-runtime's `run_offline`: LangChain chat models that answer from the tools they are
bound to, never a network), from inputs its specs accept, to the team's result.
Run with `uv run pytest`.
"""

from __future__ import annotations

from envelope_runtime.langgraph.testing import run_offline

from investment_due_diligence_panel import graph, state
from investment_due_diligence_panel.graph import TEAM

# The agents a run calls: every one, the entry agent asking its reports (agents[].reportsToKey)
RUN_AGENTS: tuple[str, ...] = (
    # agents[0] lead-analyst
    "lead-analyst",
    # agents[1] market-analyst
    "market-analyst",
    # agents[2] financial-analyst
    "financial-analyst",
    # agents[3] product-analyst
    "product-analyst",
    # agents[4] customer-analyst
    "customer-analyst",
    # agents[5] legal-analyst
    "legal-analyst",
    # agents[6] regulatory-analyst
    "regulatory-analyst",
    # agents[7] team-analyst
    "team-analyst",
    # agents[8] esg-analyst
    "esg-analyst",
    # agents[9] red-team-analyst
    "red-team-analyst",
)

# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.memo_markdown
    "memo_markdown",
    # outputs.red_flags
    "red_flags",
    # outputs.recommendation
    "recommendation",
)


def test_the_whole_team_runs_offline() -> None:
    run = run_offline(TEAM, graph.build_graph)

    assert run.output["status"] == "done", run.output
    assert tuple(run.output["result"]) == OUTPUTS
    state.TeamResult.model_validate(run.output["result"])
    assert set(RUN_AGENTS) <= set(run.models.calls)
    assert run.reviews == []
