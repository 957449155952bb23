"""The workspace documents' tools of the agents (definition field `workspace`), as CrewAI tools.

Each document an agent has (workspace.documents_of: the agents whose prompt names it, else
every agent) gives it three tools: `list_<doc>_rows`, `read_<doc>_row`, `write_<doc>_rows`.
What they answer and what they refuse is workspace.py's (`DocumentTools`, the store's rules):
this module only makes them CrewAI tools over the team's store, opened when a tool is first
used: the database DATABASE_URL names (database.SqlBackend), else the SQLite file at
workspace.db_path() (ENVELOPE_WORKSPACE_DB).
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, ClassVar

from crewai.tools import BaseTool
from crewai_core.paths import db_storage_path
from pydantic import BaseModel, Field

from ..team_package import TeamPackage
from ..workspace import (
    Backend,
    DocumentTools,
    ListArgs,
    ReadArgs,
    SqliteBackend,
    Workspace,
    db_path,
    documents_of,
    write_schema,
)

__all__ = [
    "ListRowsTool",
    "ReadRowTool",
    "StoredRuns",
    "WorkspaceTool",
    "WriteRowsTool",
    "open_workspace",
    "workspace_tools",
]

_OPEN: dict[tuple[str, str], Workspace] = {}
"""The store of each team and location opened in this process (one connection or pool each)."""


def open_workspace(package: TeamPackage) -> Workspace:
    """The team's documents (team.WORKSPACE) over its store: DATABASE_URL's database, else
    the SQLite file at workspace.db_path()."""
    url = os.environ.get("DATABASE_URL")
    key = (package.name, url or str(db_path().resolve()))
    if key not in _OPEN:
        if url:
            from ..database import SqlBackend  # the postgres extra: loaded only when set

            backend: Backend = SqlBackend(url)
        else:
            backend = SqliteBackend(Path(key[1]))
        _OPEN[key] = Workspace(package.team.WORKSPACE, backend)
    return _OPEN[key]


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


class StoredRuns:
    """What `workspace delete` also looks through (workspace.RunRecords): the pipeline runs
    (state.RunStore: `<state dir>/<run id>.json`, or DATABASE_URL's database) and CrewAI's
    record of the latest kickoff's task outputs (latest_kickoff_task_outputs.db under CrewAI's
    storage directory, which `crewai replay` reads): what the agents answered after reading a
    row is kept there."""

    KICKOFF_TABLE = "latest_kickoff_task_outputs"

    def __init__(self, state_dir: Path) -> None:
        from .state import RunStore

        self.runs = RunStore(state_dir)
        self.kickoff_db = Path(db_storage_path()) / f"{self.KICKOFF_TABLE}.db"
        self.where = f"{self.runs.database or f'{state_dir}/'} and {self.kickoff_db}"

    def holding(self, needles: Sequence[str]) -> list[str]:
        found = [
            f"run {run_id}"
            for run_id in self.runs.run_ids()
            if any(needle in (self.runs.text(run_id) or "") for needle in needles)
        ]
        if self.kickoff_db.exists():
            with closing(sqlite3.connect(self.kickoff_db)) as conn:
                query = f"SELECT task_id, output, inputs FROM {self.KICKOFF_TABLE}"
                for task_id, output, inputs in conn.execute(query):
                    if any(needle in f"{output}{inputs}" for needle in needles):
                        found.append(f"kickoff task {task_id}")
        return found

    def purge(self, run_ids: Sequence[str]) -> None:
        tasks = [i.removeprefix("kickoff task ") for i in run_ids if i.startswith("kickoff task ")]
        for run_id in run_ids:
            if run_id.startswith("run "):
                self.runs.remove(run_id.removeprefix("run "))
        if tasks:
            with closing(sqlite3.connect(self.kickoff_db)) as conn:
                conn.execute("PRAGMA secure_delete = ON")
                conn.executemany(
                    f"DELETE FROM {self.KICKOFF_TABLE} WHERE task_id = ?", [(t,) for t in tasks]
                )
                conn.commit()
                # CrewAI keeps this database in WAL mode: the log's copies of the pages go too.
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
