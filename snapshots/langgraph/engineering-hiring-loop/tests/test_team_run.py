"""The team's whole run, offline: its graph (graph.build_graph) with scripted chat models
(envelope-runtime's `run_offline`: LangChain chat models that answer from the tools they are
bound to, never a network), from inputs its specs accept, to the team's result.
It passes every gate: each review is answered with `Command(resume=...)`, rejecting the
first round where the gate sends records back, approving them otherwise.
Run with `uv run pytest`.
"""

from __future__ import annotations

from envelope_runtime.langgraph.testing import run_offline

from engineering_hiring_loop import graph, state
from engineering_hiring_loop.graph import TEAM

# The agents a run calls: each step's (pipeline[].agentKey)
RUN_AGENTS: tuple[str, ...] = (
    # agents[0] recruiting-lead
    "recruiting-lead",
    # agents[1] sourcer
    "sourcer",
    # agents[2] screener
    "screener",
    # agents[3] outreach-writer
    "outreach-writer",
    # agents[4] interview-coordinator
    "interview-coordinator",
    # agents[5] debrief-analyst
    "debrief-analyst",
    # agents[6] offer-drafter
    "offer-drafter",
)

# gates[]: each reviews the run once, twice where its rejected records go back for a
# revision (onReject rerun / escalate): the offline reviewer rejects its first round
REVIEWS: dict[str, int] = {
    # gates[0] shortlist-review
    "shortlist-review": 1,
    # gates[1] outreach-approval
    "outreach-approval": 2,
    # gates[2] debrief-decision
    "debrief-decision": 2,
    # gates[3] offer-release
    "offer-release": 1,
}

# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.shortlist
    "shortlist",
    # outputs.scheduled_interviews
    "scheduled_interviews",
    # outputs.offer_drafts
    "offer_drafts",
)


def test_the_whole_team_runs_offline_through_every_gate() -> None:
    run = run_offline(TEAM, graph.build_graph)

    assert run.output["status"] == "done", run.output
    assert tuple(run.output["result"]) == OUTPUTS
    state.TeamResult.model_validate(run.output["result"])
    assert set(RUN_AGENTS) <= set(run.models.calls)
    assert {name: run.reviews.count(name) for name in REVIEWS} == REVIEWS
