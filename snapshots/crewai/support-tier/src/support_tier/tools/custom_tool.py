"""A tool of your own, in the shape of CrewAI's scaffold: rename it and write `_run`.

No agent uses it until you attach it in crew.py (as below), or return it from a crew
method decorated with `@tool` and name that method under the agent's `tools:` in
config/agents.yaml.
"""

from __future__ import annotations

from crewai.tools import BaseTool
from pydantic import BaseModel, Field

# To give it to agents[1] billing-specialist, in crew.py's @agent method
# billing_specialist:
#     tools=[*self.tools_of(KEY), MyCustomTool()], KEY that agent's key in team.AGENTS
# (not to the crew's manager: CrewAI refuses tools on a hierarchical crew's manager_agent)


class MyCustomToolInput(BaseModel):
    """What the agent passes to the tool."""

    argument: str = Field(..., description="Description of the argument.")


class MyCustomTool(BaseTool):
    name: str = "my_custom_tool"
    description: str = "What the tool is for: the agent reads this to decide when to use it."
    args_schema: type[BaseModel] = MyCustomToolInput

    def _run(self, argument: str) -> str:
        return f"my_custom_tool was given: {argument}"
