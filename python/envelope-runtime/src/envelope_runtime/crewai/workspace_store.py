"""The team's workspace store and the runs `workspace delete` looks through: the agents'
tools (workspace_tools.py) and the runner's `workspace` and `watch` commands use the same
store. Nothing here imports CrewAI, so a person's `workspace list` does not wait for it.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from crewai_core.paths import db_storage_path

from ..team_package import TeamPackage
from ..workspace import Backend, SqliteBackend, Workspace, db_path

if TYPE_CHECKING:
    from .state import RunStore

__all__ = ["StoredRuns", "open_workspace"]

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


class StoredRuns:
    """What `workspace delete` also looks through (workspace.RunRecords): the pipeline runs
    (state.RunStore: `<state dir>/<run id>.json`, or DATABASE_URL's database) and CrewAI's
    record of the latest kickoff's task outputs (latest_kickoff_task_outputs.db under CrewAI's
    storage directory, which `crewai replay` reads): what the agents answered after reading a
    row is kept there. The run store (state.py, which imports CrewAI) is opened when a
    `delete` first looks."""

    KICKOFF_TABLE = "latest_kickoff_task_outputs"

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.kickoff_db = Path(db_storage_path()) / f"{self.KICKOFF_TABLE}.db"

    @functools.cached_property
    def runs(self) -> RunStore:
        from .state import RunStore

        return RunStore(self.state_dir)

    @property
    def where(self) -> str:
        return f"{self.runs.database or f'{self.state_dir}/'} and {self.kickoff_db}"

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
