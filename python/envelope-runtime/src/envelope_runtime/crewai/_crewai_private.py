"""Every private CrewAI name the runtime relies on, here and nowhere else.

CrewAI offers no public way to do these; each name is in PRIVATE_NAMES with why.
tests/crewai/test_crewai_private.py fails naming the one a CrewAI release changes, and on
a private CrewAI name any other module of the library imports.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping

from crewai import Agent
from crewai.agents.agent_executor import AgentExecutor
from crewai.project import utils as project_utils

PRIVATE_NAMES: dict[str, str] = {
    "crewai.agents.agent_executor.AgentExecutor._format_prompt": "fills {input}, {tool_names} "
    "and {tools} one after another, so each rewrites the text inserted before it: "
    "VerbatimExecutor overrides it to fill all of the prompt's slots in one pass",
    "crewai.agent.core.Agent._build_execution_prompt": "CrewAI's own prompt template, built "
    "with the agent's texts as slots, for VerbatimExecutor's one pass",
    "crewai.flow.runtime.Flow._flow_definition": "a Flow's definition is read from its class's "
    "own __dict__: VerbatimExecutor carries AgentExecutor's",
    "crewai.crew.Crew._train": "Crew.train kicks off a copy of the crew with _train set, and "
    "the lessons a hierarchical crew's manager was taught are read from that copy "
    "(crew_commands._train): no public name tells it from the crews its agents kick off "
    "(sub-teams) while it trains",
    "crewai.project.utils.cache._cache": "@agent/@task results are memoized by id(self) for "
    "the life of the process, and hold the object (through the crew's callbacks): a crew "
    "object's are dropped once it has built its crew (drop_memoized) and when it is "
    "collected (forget_memoized), so a new object at the same address builds its own",
}

_SLOT = re.compile(r"\{(goal|role|backstory|input|tool_names|tools)\}")


class VerbatimExecutor(AgentExecutor):
    """CrewAI's executor, its prompt's slots filled in one pass: CrewAI's own template is
    rebuilt with the agent's texts as slots, used only when CrewAI's chained replacement of
    it gives exactly the prompt CrewAI built; otherwise that prompt is filled as it is."""

    def _format_prompt(self, prompt: str, inputs: dict[str, str]) -> str:  # type: ignore[override]
        agent = self.agent
        texts = {"goal": agent.goal, "role": agent.role, "backstory": agent.backstory}
        values = {**texts, **inputs}
        braced = any("{" in text for text in texts.values())
        template = self._template_of(prompt, texts) if braced else None
        if template is None:
            return _SLOT.sub(lambda m: values[m[1]] if m[1] in inputs else m[0], prompt)
        return _SLOT.sub(lambda m: values.get(m[1], m[0]), template)

    def _template_of(self, prompt: str, texts: Mapping[str, str]) -> str | None:
        agent = self.agent
        if not isinstance(agent, Agent) or self.prompt is None:
            return None
        stand_in = agent.model_copy(update={slot: "{" + slot + "}" for slot in texts})
        built, _, _ = stand_in._build_execution_prompt(list(self.original_tools))
        for part in ("system", "user", "prompt"):
            if getattr(self.prompt, part, None) != prompt:
                continue
            template = str(getattr(built, part, ""))
            crewai = template.replace("{goal}", texts["goal"]).replace("{role}", texts["role"])
            if crewai.replace("{backstory}", texts["backstory"]) == prompt:
                return template
        return None


VerbatimExecutor._flow_definition = AgentExecutor.flow_definition()


def forget_memoized(crew_object: object) -> None:
    """When `crew_object` is collected, drop CrewAI's memoized @agent/@task results of it."""
    weakref.finalize(crew_object, _forget, id(crew_object)).atexit = False


def drop_memoized(crew_object: object) -> None:
    """Drop CrewAI's memoized @agent/@task results of `crew_object` now (its crew holds them)."""
    _forget(id(crew_object))


def _forget(crew_object_id: int) -> None:
    key = f"('__instance__', {crew_object_id})"  # how CrewAI's memo keys name the object
    memo = project_utils.cache._cache
    for entry in [entry for entry in list(memo) if key in entry]:
        memo.pop(entry, None)


def is_training_copy(crew: object) -> bool:
    """Whether `crew` is the copy of a crew that Crew.train kicks off."""
    return bool(getattr(crew, "_train", False))
