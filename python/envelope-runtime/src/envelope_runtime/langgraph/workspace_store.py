"""The workspace documents (definition field `workspace`) on LangGraph's own Store.

The rows live in a LangGraph `SqliteStore` on one file (workspace.db_path(): the
ENVELOPE_WORKSPACE_DB variable, else .envelope-workspace.sqlite3), which every way of
running the team shares: the runner compiles the graph with it, `langgraph dev` and the
Agent Server load it through langgraph.json (`store.path` names `open_store`), and the
`workspace` command reads it. The agents' tools use the store of the graph they run in
(`langgraph.config.get_store()`), so a deployment that configures another store keeps the
rows there. The rules (owners, statuses, versions, triggers) are workspace.py's.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.config import get_store
from langgraph.store.base import BaseStore, Op, Result
from langgraph.store.sqlite import SqliteStore

from .. import workspace
from ..team_package import TeamPackage

__all__ = [
    "CheckpointRecords",
    "WorkspaceStore",
    "forget_store_files",
    "open_store",
    "open_workspace",
    "workspace_tools",
]


class WorkspaceStore(SqliteStore):
    """LangGraph's SqliteStore, with its async methods run in a worker thread (the Agent
    Server calls them; SqliteStore itself has only the synchronous ones)."""

    path: Path | None = None
    """Its file (open_store), beside which `exclusive` keeps its lock."""

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """A lock across processes (a run, `watch`, a person's command, `langgraph dev`), for
        workspace.py's compare-and-set: an IMMEDIATE transaction on `<file>.lock`."""
        if self.path is None:
            yield
            return
        lock = sqlite3.connect(f"{self.path}.lock", timeout=30, isolation_level=None)
        try:
            lock.execute("BEGIN IMMEDIATE")
            yield
        finally:
            lock.close()


def open_store() -> WorkspaceStore:
    """The store on workspace.db_path(), its tables created on first use: what a workspace
    team's server module gives `langgraph dev` (langgraph.json `store.path`) and its runner
    gives the graph."""
    path = workspace.db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    # A deleted row's bytes are overwritten, not left in the file's free pages.
    conn.execute("PRAGMA secure_delete = ON")
    store = WorkspaceStore(conn)
    store.path = path
    store.setup()
    return store


class CheckpointRecords:
    """The runner's checkpoints (runner.CHECKPOINTS): every thread whose checkpoints or
    pending writes hold a value (the agents' tool answers are in them), deleted with
    LangGraph's own SqliteSaver.delete_thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)

    def holding(self, needles: Sequence[str]) -> list[str]:
        if not self.path.exists():
            return []
        found: set[str] = set()
        with closing(sqlite3.connect(self.path)) as conn:
            for needle in needles:
                value = needle.encode()
                for query in (
                    "SELECT DISTINCT thread_id FROM checkpoints WHERE instr(checkpoint, ?) > 0",
                    "SELECT DISTINCT thread_id FROM writes WHERE instr(value, ?) > 0",
                ):
                    found.update(row[0] for row in conn.execute(query, (value,)))
        return sorted(found)

    def purge(self, run_ids: Sequence[str]) -> None:
        with closing(sqlite3.connect(self.path, check_same_thread=False)) as conn:
            conn.execute("PRAGMA secure_delete = ON")
            saver = SqliteSaver(conn)
            for thread_id in run_ids:
                saver.delete_thread(thread_id)
            conn.commit()


@cache
def _file_store() -> WorkspaceStore:
    return open_store()


def forget_store_files() -> None:
    """Forget the store file opened outside a graph (on first use, then kept): the next use
    opens workspace.db_path() afresh, e.g. a test's own ENVELOPE_WORKSPACE_DB."""
    _file_store.cache_clear()


def _running_store() -> BaseStore | None:
    """The store of the graph this runs in; None outside a graph (a tool invoked on its own:
    a runnable context without LangGraph's runtime) or in a graph without one."""
    try:
        return get_store()
    except (RuntimeError, KeyError):
        return None


def open_workspace(package: TeamPackage, store: BaseStore | None = None) -> workspace.Workspace:
    """The team's documents over `store`, else the running graph's, else the store file."""
    found = store if store is not None else _running_store()
    if found is None:
        found = _file_store()
    return workspace.Workspace(package.team.WORKSPACE, workspace.StoreBackend(found))


def workspace_tools(package: TeamPackage, agent_key: str) -> list[BaseTool]:
    """The agent's tools of each document it has (workspace.documents_of): list, read, write."""
    tools: list[BaseTool] = []
    for spec in workspace.documents_of(package.team.WORKSPACE, agent_key):
        document = workspace.DocumentTools(spec, lambda: open_workspace(package))
        schemas: dict[str, Any] = {
            "list": workspace.ListArgs,
            "read": workspace.ReadArgs,
            "write": workspace.write_schema(spec),
        }
        functions = {
            "list": document.list_rows,
            "read": document.read_row,
            "write": document.write_rows,
        }
        for kind, function in functions.items():
            tools.append(
                StructuredTool.from_function(
                    function,
                    name=document.names[kind],
                    description=document.description(kind),
                    args_schema=schemas[kind],
                )
            )
    return tools
