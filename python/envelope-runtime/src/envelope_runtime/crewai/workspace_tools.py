"""The workspace documents' tools of the agents (definition field `workspace`), as CrewAI tools.

Each document an agent has (workspace.documents_of: the agents whose prompt names it, else
every agent) gives it three tools: `list_<doc>_rows`, `read_<doc>_row`, `write_<doc>_rows`.
What they answer and what they refuse is workspace.py's (`DocumentTools`, the store's rules):
this module only makes them CrewAI tools over the team's store (workspace_store.py), opened
when a tool is first used.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from ..team_package import TeamPackage
from ..workspace import DocumentTools, ListArgs, ReadArgs, documents_of, write_schema
from .workspace_store import open_workspace

__all__ = ["ListRowsTool", "ReadRowTool", "WorkspaceTool", "WriteRowsTool", "workspace_tools"]


def _never_cached(_args: Any = None, _result: Any = None) -> bool:
    """CrewAI caches a tool's answer per arguments; rows change, so nothing is cached."""
    return False


class WorkspaceTool(BaseTool):
    """One tool of one workspace document; `document` does the work (workspace.py)."""

    document: DocumentTools = Field(exclude=True)
    cache_function: Any = _never_cached
    stays_local: ClassVar[bool] = True
    """Rows are local data: a URL in one is no request (http_tools.check_tool_call)."""


class ListRowsTool(WorkspaceTool):
    args_schema: type[BaseModel] = ListArgs

    def _run(self, status: str | None = None, id: str | None = None) -> str:
        return self.document.list_rows(status=status, id=id)


class ReadRowTool(WorkspaceTool):
    args_schema: type[BaseModel] = ReadArgs

    def _run(self, id: str) -> str:
        return self.document.read_row(id)


class WriteRowsTool(WorkspaceTool):
    """Its args_schema is the document's (workspace.write_schema), set when it is built."""

    def _run(self, rows: list[Any]) -> str:
        return self.document.write_rows(rows)


def workspace_tools(package: TeamPackage, agent_key: str) -> list[BaseTool]:
    """The agent's tools of each document it has, in team.WORKSPACE's order."""
    tools: list[BaseTool] = []
    for spec in documents_of(package.team.WORKSPACE, agent_key):
        document = DocumentTools(spec, functools.partial(open_workspace, package))
        names, about = document.names, document.description
        tools += [
            ListRowsTool(name=names["list"], description=about("list"), document=document),
            ReadRowTool(name=names["read"], description=about("read"), document=document),
            WriteRowsTool(
                name=names["write"],
                description=about("write"),
                args_schema=write_schema(spec),
                document=document,
            ),
        ]
    return tools
