"""The definition's texts in CrewAI's objects, reaching the model exactly as written.

Agents and tasks carry the real text of config/agents.yaml and config/tasks.yaml, so
`--verbose`, CrewAI's events, traces and task-output log all show it. Only `{{NAME}}`
(an input, variable or secret of the run) is filled in (placeholders.py), when a crew
object builds its agents and tasks: the values belong to that object, so concurrent runs
never mix them.

CrewAI itself rewrites some `{word}` sequences; each is neutralised where it happens:
- `Crew.kickoff(inputs=...)` (also train, test, replay) replaces `{word}` in roles,
  goals, backstories and task text for every key of the inputs, and fails on a word it
  has no value for: `crewai_inputs` gives it the word itself as the value of every word
  our texts hold (an input that shares such a name is kept out of CrewAI's inputs).
- The agent's prompt is built by filling `{goal}`, `{role}`, `{backstory}` one after
  another (crewai.utilities.prompts), and its executor then fills `{input}`,
  `{tool_names}`, `{tools}` the same way, so each rewrites the text inserted before it (a
  goal saying `{role}`, a backstory saying `{tools}`, a step's input quoting `{input}`).
  `VerbatimExecutor` (Agent's `executor_class`) fills all six in one pass over CrewAI's
  own template. Tool results and model answers never go through either. `Agent.kickoff()`
  outside a crew builds CrewAI's own executor: it does not get this.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from crewai import Agent, Crew
from crewai.agents.agent_executor import AgentExecutor

from ..placeholders import render

__all__ = ["VerbatimExecutor", "crewai_inputs", "render_agent"]

_CREWAI_WORD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_\-]*)}")
"""What `Crew.kickoff(inputs=...)` interpolates (crewai.utilities.string_utils)."""
_SLOTS = ("goal", "role", "backstory", "input", "tool_names", "tools")
_SLOT = re.compile(r"\{(" + "|".join(_SLOTS) + r")\}")


def render_agent(agent: Agent, values: Mapping[str, str]) -> Agent:
    """The agent with its texts filled in for this run and the one-pass executor."""
    agent.role = render(agent.role, values)
    agent.goal = render(agent.goal, values)
    agent.backstory = render(agent.backstory, values)
    agent.executor_class = VerbatimExecutor
    return agent


def _texts_of(crew: Crew) -> Iterable[str]:
    agents = [*crew.agents, *([crew.manager_agent] if crew.manager_agent else [])]
    for agent in agents:
        yield from (agent.role, agent.goal, agent.backstory)
    for task in crew.tasks:
        yield from (task.description, task.expected_output, task.output_file or "")


def crewai_inputs(crew: Crew, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs for `Crew.kickoff/train/test/replay` that leave the crew's texts as they are.

    Each `{word}` in the texts is its own value; the run's inputs are added under their
    keys unless a text holds that word (then CrewAI would rewrite it).
    """
    words = {word for text in _texts_of(crew) for word in _CREWAI_WORD.findall(text)}
    kept = {key: value for key, value in inputs.items() if key not in words}
    return {**kept, **{word: "{" + word + "}" for word in sorted(words)}}


class VerbatimExecutor(AgentExecutor):
    """CrewAI's executor, with its prompt placeholders filled in one pass.

    CrewAI's own template is rebuilt with its placeholders left in (the agent's texts
    set to `{goal}`, `{role}`, `{backstory}`) and used only when CrewAI's own chained
    replacement of it gives exactly the prompt CrewAI built; otherwise that prompt is
    filled in one pass as it is.
    """

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


# CrewAI builds a Flow's definition from the methods of the class itself, not its bases
# (flow.dsl._iter_flow_methods reads cls.__dict__): the executor's steps are AgentExecutor's.
VerbatimExecutor._flow_definition = AgentExecutor.flow_definition()
