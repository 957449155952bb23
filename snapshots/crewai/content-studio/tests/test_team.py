"""The team's own tests, generated from its definition (envelope.json).

They build the team's CrewAI objects offline: its agents and their tools,
its steps and the answers each waits for, the records its gates review,
and the checks of its inputs.
And the whole team runs offline, against scripted models that never reach a network:
every agent, every step and every gate (decisions from the file the run writes).
The runtime library, envelope-runtime, has its own tests. Run these with `uv run pytest`.
"""

from __future__ import annotations

from typing import Any

import pytest
from crewai import BaseLLM
from envelope_runtime.crewai.state import StepOutput
from envelope_runtime.crewai.testing import run_offline
from envelope_runtime.gates import receives
from pydantic import ValidationError

from content_studio import crew, flow, models, team

# agents[]: key -> CrewAI role (config/agents.yaml)
ROLES: dict[str, str] = {
    # agents[0] managing-editor
    "managing-editor": "Margot",
    # agents[1] researcher
    "researcher": "Ravi",
    # agents[2] seo-strategist
    "seo-strategist": "Sana",
    # agents[3] audience-analyst
    "audience-analyst": "Aiko",
    # agents[4] writer
    "writer": "Wes",
    # agents[5] social-writer
    "social-writer": "Sol",
    # agents[6] newsletter-writer
    "newsletter-writer": "Nora",
    # agents[7] publisher
    "publisher": "Pia",
}

# agents[].accessPolicy / allowedHosts: who holds the http_request tool (a crew's manager
# holds no tool: a worker makes its requests)
HTTP_AGENTS: tuple[str, ...] = ("researcher", "seo-strategist", "publisher")

# agents[].reportsToKey: who runs a sub-team of their own (the delegate_to_team tool)
SUB_TEAM_AGENTS: tuple[str, ...] = ()

# inputs: the required ones without a default
REQUIRED_INPUTS: tuple[str, ...] = ("topic", "primary_keyword")

# pipeline[]: step -> its agent, and the steps whose answers it waits for
STEPS: dict[str, tuple[str, tuple[str, ...]]] = {
    # pipeline[0] research
    "research": ("researcher", ()),
    # pipeline[1] keyword-brief
    "keyword-brief": ("seo-strategist", ("research",)),
    # pipeline[2] audience-questions
    "audience-questions": ("audience-analyst", ("research",)),
    # pipeline[3] draft-article
    "draft-article": ("writer", ("keyword-brief", "audience-questions")),
    # pipeline[4] social-posts
    "social-posts": ("social-writer", ("draft-article",)),
    # pipeline[5] newsletter
    "newsletter": ("newsletter-writer", ("draft-article",)),
    # pipeline[6] final-edit
    "final-edit": ("managing-editor", ("draft-article", "social-posts", "newsletter")),
    # pipeline[7] publish-draft
    "publish-draft": ("publisher", ("final-edit",)),
}

# gates[]: the step whose records each gate reviews, and the fields a reviewer sees
GATES: dict[str, tuple[str, tuple[str, ...]]] = {
    # gates[0] editorial-approval
    "editorial-approval": (
        "final-edit",
        ("title", "meta_description", "article_markdown", "change_log"),
    ),
}


class _NoModel(BaseLLM):
    """The models of these tests: none is ever called."""

    def call(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("a model was called")


@pytest.fixture
def crews(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The team's crew class, with models that are never called and test values for the
    secrets and variables."""
    monkeypatch.setattr(models, "llm_for", lambda key: _NoModel(model=f"none/{key}"))
    for name in (*team.SECRETS, *team.VARIABLES):
        monkeypatch.setenv(name, f"test-{name.lower()}")
    return crew.TeamCrew()


def test_each_agent_has_its_role(crews: Any) -> None:
    roles = {key: crews.agents_config[spec.method]["role"] for key, spec in team.AGENTS.items()}
    assert roles == ROLES


def test_each_agent_holds_the_tools_the_definition_gives_it(crews: Any) -> None:
    for key, spec in team.AGENTS.items():
        names = {tool.name for tool in getattr(crews, spec.method)().tools}
        assert ("http_request" in names) == (key in HTTP_AGENTS), key
        assert ("delegate_to_team" in names) == (key in SUB_TEAM_AGENTS), key


def test_a_run_without_inputs_is_refused_naming_each_required_one() -> None:
    with pytest.raises(ValidationError) as refused:
        team.TeamInputs.model_validate({})

    missing = [error["loc"][0] for error in refused.value.errors() if error["type"] == "missing"]
    assert missing == list(REQUIRED_INPUTS)


def test_each_step_is_a_task_of_its_agent_with_the_answers_the_flow_gives_it(crews: Any) -> None:
    # Each step runs as a one-task crew of the flow (flow.py), the answers the flow hands it
    # (every step has answered here) the task's context. A step after a gate gets the gate's
    # released records instead of the answer the gate reviews (gates.receives).
    run = flow.TeamFlow()
    run.configure(crews)
    run.state.outputs = {key: StepOutput(text="an answer") for key in STEPS}
    found = {}
    for key in STEPS:
        (task,) = crews.step_crew(key, "", run.answers(key)).tasks
        found[key] = (task.agent.role, tuple(c.name for c in task.context))
    assert found == {
        key: (crews.role_of(agent), tuple(receives(key, deps, team.GATES)[0]))
        for key, (agent, deps) in STEPS.items()
    }
    assert {key: spec.depends_on for key, spec in team.PIPELINE.items()} == {
        key: deps for key, (_, deps) in STEPS.items()
    }


def test_each_gate_reviews_records_with_its_fields() -> None:
    for name, (step, fields) in GATES.items():
        schema = team.RECORD_MODELS[step].model_json_schema()
        record = next(iter(schema["$defs"].values()))["properties"]
        assert set(fields) <= set(record), name


# outputs: the keys of the team's result
OUTPUTS: tuple[str, ...] = (
    # outputs.article_markdown
    "article_markdown",
    # outputs.social_posts
    "social_posts",
    # outputs.newsletter_html
    "newsletter_html",
    # outputs.wordpress_post_id
    "wordpress_post_id",
)


def test_the_whole_team_runs_offline_through_every_gate(tmp_path: Any) -> None:
    """The team's console script runs the team from inputs its TeamInputs accept to its
    result (envelope-runtime's run_offline: scripted models, never a network).
    Every step runs; at each gate the run stops, every record is approved in the
    decisions file it wrote, and it resumes.
    """
    run = run_offline(crew.TeamCrew.package, tmp_path)

    assert run.codes[-1] == 0, run.output
    assert tuple(run.output) == OUTPUTS
    team.TeamResult.model_validate(run.output)
    assert {call.task for call in run.calls} >= set(STEPS)
    assert run.agents() >= {agent for agent, _ in STEPS.values()}
    assert sorted(run.reviews) == sorted(GATES)
