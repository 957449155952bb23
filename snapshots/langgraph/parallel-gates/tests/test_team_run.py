"""The team's whole run, offline: its graph (graph.build_graph) with scripted chat models
(envelope-runtime's `run_offline`: LangChain chat models that answer from the tools they are
bound to, never a network), from inputs its specs accept, to the team's result.
It passes every gate: each review is answered with `Command(resume=...)`, rejecting the
first round where the gate sends records back, approving them otherwise.
Run with `uv run pytest`.
"""

from __future__ import annotations

from envelope_runtime.langgraph.testing import run_offline

from parallel_gates import graph, state
from parallel_gates.graph import TEAM

# The agents a run calls: each step's (pipeline[].agentKey)
RUN_AGENTS: tuple[str, ...] = (
    # agents[0] procurement-lead
    "procurement-lead",
    # agents[1] contract-analyst
    "contract-analyst",
    # agents[2] security-analyst
    "security-analyst",
    # agents[3] onboarding-coordinator
    "onboarding-coordinator",
)

# gates[]: each reviews the run once, twice where its rejected records go back for a
# revision (onReject rerun / escalate): the offline reviewer rejects its first round
REVIEWS: dict[str, int] = {
    # gates[0] redline-approval
    "redline-approval": 2,
    # gates[1] risk-triage
    "risk-triage": 2,
}

# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.redlines
    "redlines",
    # outputs.risk_register
    "risk_register",
    # outputs.onboarding_decision
    "onboarding_decision",
)


def test_the_whole_team_runs_offline_through_every_gate() -> None:
    run = run_offline(TEAM, graph.build_graph)

    assert run.output["status"] == "done", run.output
    assert tuple(run.output["result"]) == OUTPUTS
    state.TeamResult.model_validate(run.output["result"])
    assert set(RUN_AGENTS) <= set(run.models.calls)
    assert {name: run.reviews.count(name) for name in REVIEWS} == REVIEWS
