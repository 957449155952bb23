"""The private CrewAI names the runtime relies on (_crewai_private.PRIVATE_NAMES) exist and
behave as it expects in the installed CrewAI: a release that changes one fails here, naming
it. And no other module of the library imports a private CrewAI name."""

from __future__ import annotations

import ast
import gc
import importlib
import weakref
from pathlib import Path
from typing import Any

import helpers
import pytest
from crewai import Agent, BaseLLM, Crew, Task
from crewai.agents.agent_executor import AgentExecutor
from crewai.hooks import InterceptionPoint, dispatch
from crewai.hooks.contexts import InputContext
from crewai.project import utils as project_utils
from fake_llm import FakeModels
from project import crew, team

import envelope_runtime
from envelope_runtime.crewai import _crewai_private as private

LIBRARY = Path(envelope_runtime.__file__).parent
CREWAI_DISTRIBUTIONS = ("crewai", "crewai_core", "crewai_tools")


def _resolve(dotted: str) -> Any:
    """The object a dotted name names: its longest importable module, then attributes."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for attribute in parts[end:]:
            found = getattr(found, attribute)
        return found
    raise ImportError(dotted)


@pytest.mark.parametrize("name", sorted(private.PRIVATE_NAMES))
def test_each_private_name_still_exists(name: str) -> None:
    try:
        _resolve(name)
    except (ImportError, AttributeError) as error:
        pytest.fail(
            f"CrewAI no longer has {name} ({error}); the runtime needs it: "
            f"{private.PRIVATE_NAMES[name]}"
        )


class _Recorder(BaseLLM):
    """Records the messages of each call; answers at once."""

    seen: list[list[dict[str, Any]]] = []

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        self.seen.append([dict(m) for m in messages] if isinstance(messages, list) else [])
        return "Thought: I now know the final answer\nFinal Answer: done"


def test_format_prompt_is_where_the_executor_fills_the_prompt() -> None:
    name = "crewai.agents.agent_executor.AgentExecutor._format_prompt"
    texts = {"role": "R {goal}", "goal": "G {backstory}", "backstory": "B {tools} {input}"}
    llm = _Recorder(model="recorder")
    llm.seen = []
    agent = Agent(**texts, llm=llm, executor_class=private.VerbatimExecutor)
    task = Task(description="Say {input} once.", expected_output="One word.", agent=agent)

    Crew(agents=[agent], tasks=[task]).kickoff()

    prompt = "\n".join(str(m.get("content")) for m in llm.seen[0])
    for text in (*texts.values(), "Say {input} once."):
        assert text in prompt, f"{name} no longer fills the prompt in one pass: {text!r}"


def test_build_execution_prompt_gives_crewai_s_template() -> None:
    name = "crewai.agent.core.Agent._build_execution_prompt"
    agent = Agent(role="{role}", goal="{goal}", backstory="{backstory}", llm=_Recorder(model="r"))
    built, _, _ = agent._build_execution_prompt([])
    template = "".join(str(getattr(built, part, "")) for part in ("system", "user", "prompt"))
    assert all(slot in template for slot in ("{role}", "{goal}", "{backstory}")), name


def test_flow_definition_is_carried_by_the_executor_subclass() -> None:
    name = "crewai.flow.runtime.Flow._flow_definition"
    definition = private.VerbatimExecutor.__dict__.get("_flow_definition")
    assert definition is not None, name
    assert definition == AgentExecutor.flow_definition(), name


def test_a_crew_object_leaves_crewai_s_memo_when_its_crew_runs_or_it_is_collected(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    name = "crewai.project.utils.cache._cache"
    memo = project_utils.cache._cache
    first = next(iter(team.AGENTS))

    def held(crew_object: Any) -> bool:
        key = f"('__instance__', {id(crew_object)})"
        return any(key in entry for entry in memo)

    collected = crew.TeamCrew(helpers.valid_inputs())
    getattr(collected, team.AGENTS[first].method)()
    assert held(collected), f"{name}: @agent results are no longer memoized by id(self)"
    ran = crew.TeamCrew(helpers.valid_inputs())
    agent = ran._agent(first)
    # CrewAI memoizes @crew too, and its crew's callbacks hold the object (a pipeline's crews
    # are its steps': no @crew).
    task = Task(description="d", expected_output="e", agent=agent)
    team_crew = ran.crew() if hasattr(ran, "crew") else ran._crew(agents=[agent], tasks=[task])
    gone = weakref.ref(ran)
    alive_key = f"('__instance__', {id(collected)})"

    dispatch(InterceptionPoint.INPUT, InputContext(crew=team_crew, payload=None))  # kickoff's
    del collected, ran, team_crew, agent, task
    gc.collect()

    assert gone() is None, f"{name}: a crew object outlives its crew's run"
    assert not any(alive_key in entry for entry in memo), name


# --- what the library imports from CrewAI -------------------------------------------


def _crewai_names(path: Path) -> list[str]:
    """Every CrewAI module and name the file imports or reaches by a dotted `crewai.` name."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in CREWAI_DISTRIBUTIONS:
                names += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names if a.name.split(".")[0] in CREWAI_DISTRIBUTIONS]
        elif isinstance(node, ast.Attribute):
            dotted = ast.unparse(node)
            if dotted.split(".")[0] in CREWAI_DISTRIBUTIONS:
                names.append(dotted)
    return names


def _private(name: str) -> bool:
    return any(part.startswith("_") and not part.endswith("__") for part in name.split("."))


def test_no_module_but_crewai_private_imports_a_private_crewai_name() -> None:
    imported = {
        str(path.relative_to(LIBRARY)): _crewai_names(path) for path in LIBRARY.rglob("*.py")
    }
    private_names = {
        f"{module}: {name}"
        for module, names in imported.items()
        if module != "crewai/_crewai_private.py"
        for name in names
        if _private(name)
    }

    assert "crewai.hooks.register_before_tool_call_hook" in imported["crewai/http_tools.py"]
    assert private_names == set(), "move each into crewai/_crewai_private.py, saying why"
