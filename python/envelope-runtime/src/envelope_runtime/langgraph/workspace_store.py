"""The workspace documents (definition field `workspace`) on LangGraph's own Store.

The agents' tools use the store of the graph they run in (`langgraph.config.get_store()`):
on an Agent Server (`langgraph dev`, a deployment) the server's own, which its replicas
share; under the runner the one `open_store` opens, PostgreSQL's with DATABASE_URL, else a
`SqliteStore` on one file (workspace.db_path(): ENVELOPE_WORKSPACE_DB, else
.envelope-workspace.sqlite3), which the `workspace` and `watch` commands use too (with
`--url`, the server's: run_client.ServerStore). The rules
(owners, statuses, versions, triggers, the compare-and-set) are workspace.py's, over any
BaseStore.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from langgraph.checkpoint.base import BaseCheckpointSaver
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
    "holds",
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


def open_store() -> BaseStore:
    """The store the runner gives a workspace team's graph, and its commands use: LangGraph's
    PostgresStore when DATABASE_URL is set (the runner's checkpoints are there too), else the
    SqliteStore on workspace.db_path(); its tables created on first use. A server's graph
    uses the server's own store."""
    database = os.environ.get("DATABASE_URL")
    if database:
        from langgraph.store.postgres import PostgresStore
        from psycopg import Connection
        from psycopg.rows import dict_row

        conn = Connection.connect(
            database, autocommit=True, prepare_threshold=0, row_factory=dict_row
        )
        postgres = PostgresStore(conn)  # type: ignore[arg-type]
        postgres.setup()
        return postgres
    path = workspace.db_path()
    workspace.private_file(path)
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    # A deleted row's bytes are overwritten, not left in the file's free pages.
    conn.execute("PRAGMA secure_delete = ON")
    store = WorkspaceStore(conn)
    store.path = path
    store.setup()
    return store


class CheckpointRecords:
    """The runner's checkpoints, on its checkpointer (PostgreSQL's with DATABASE_URL, else
    SQLite's file `path`): every thread whose checkpoints or pending writes hold a value (the
    agents' tool answers are in them), deleted with the saver's own delete_thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.database = os.environ.get("DATABASE_URL")
        self.where = "PostgreSQL, $DATABASE_URL" if self.database else str(path)

    @contextmanager
    def _saver(self) -> Iterator[BaseCheckpointSaver[Any] | None]:
        if self.database:
            from langgraph.checkpoint.postgres import PostgresSaver

            with PostgresSaver.from_conn_string(self.database) as saver:
                saver.setup()
                yield saver
            return
        if not self.path.exists():
            yield None
            return
        with closing(sqlite3.connect(self.path, check_same_thread=False)) as conn:
            conn.execute("PRAGMA secure_delete = ON")  # deleted bytes overwritten
            yield SqliteSaver(conn)
            conn.commit()

    def holding(self, needles: Sequence[str]) -> list[str]:
        found: set[str] = set()
        with self._saver() as saver:
            for item in saver.list(None) if saver is not None else ():
                if holds([item.checkpoint["channel_values"], item.pending_writes], needles):
                    found.add(str(item.config["configurable"]["thread_id"]))
        return sorted(found)

    def purge(self, run_ids: Sequence[str]) -> None:
        with self._saver() as saver:
            for thread_id in run_ids if saver is not None else ():
                saver.delete_thread(thread_id)


def holds(value: Any, needles: Sequence[str]) -> bool:
    """Whether any text in a checkpointed value (or a server's thread) contains a needle."""
    return any(needle in text for text in _texts(value) for needle in needles)


def _texts(value: Any) -> Iterator[str]:
    """Every text in a checkpointed value (LangChain's messages are pydantic models)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from _texts(item)
    elif hasattr(value, "model_dump"):
        yield from _texts(value.model_dump())


@cache
def _file_store() -> BaseStore:
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
