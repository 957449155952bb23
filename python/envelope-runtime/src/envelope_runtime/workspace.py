"""Workspace documents (definition field `workspace`, Envelope v1.2): the store's rules.

A document is a table of rows that outlives every run, one store per installation. A row
is its declared columns (`data`) plus built-in fields: `id`, `created_at`, `updated_at`
(ISO 8601 UTC), `archived`, `version` (1 on creation, +1 per write). The store enforces the
declaration, whoever asks (agent tools, the `workspace` command, imports):

- agents write only `agent` and `both` columns; a `human` column is refused;
- a status column (team.WORKSPACE[...].status_columns) takes only declared statusValues;
- a write that changes a `both` column of an existing row must carry the version it read
  (compare-and-set): if the row changed since, the write is reported as a conflict and
  nothing of it is written;
- the `id` column, when declared, addresses rows (its value is the row's id).

Triggers fire for a non-archived row holding the column/status pair, once per status
change: what fired is kept in the store (`evaluate`). Where rows are kept is a `Backend`:
SQLite (stdlib, `SqliteBackend`; CrewAI) or LangGraph's own Store (`StoreBackend`).
Nothing here logs a row; `pii` columns are masked in listings unless asked for and never
in the lines `watch` prints or posts. A masked export says which of its values are masks
(MASKED_HEADER, MASKED_KEY), so an import leaves those as they are instead of storing them.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import io
import json
import math
import os
import sqlite3
import stat
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, create_model

from . import checks, run_context

__all__ = [
    "BUILT_IN",
    "Backend",
    "Column",
    "DB_ENV",
    "DEFAULT_DB",
    "DocumentSpec",
    "DocumentTools",
    "Firing",
    "ImportRow",
    "ListArgs",
    "MASK",
    "MASKED_HEADER",
    "MASKED_KEY",
    "Owner",
    "PURGE_ESCAPES",
    "PURGE_MIN_CHARS",
    "RUN_NOT_STARTED",
    "ReadArgs",
    "RunRecords",
    "SqliteBackend",
    "StoreBackend",
    "TOOL_IDENT_MAX",
    "Trigger",
    "WEBHOOK_ENV",
    "Workspace",
    "WorkspaceError",
    "WriteResult",
    "WriteRow",
    "Writer",
    "coerce",
    "db_path",
    "documents_of",
    "masked",
    "masked_fields",
    "notify_line",
    "pii_needles",
    "pii_values",
    "public",
    "tool_ident",
    "utc_now",
    "watch_command",
    "watch_once",
    "workspace_command",
    "write_schema",
]

DB_ENV = "ENVELOPE_WORKSPACE_DB"
"""The store's location (a SQLite file), created on first use."""
DEFAULT_DB = ".envelope-workspace.sqlite3"
"""Where the store is when DB_ENV is unset: in the directory the commands run in."""
WEBHOOK_ENV = "ENVELOPE_WORKSPACE_WEBHOOK_URL"
"""Where `watch` posts each `notify` trigger that fires (JSON), besides its stdout line."""
BUILT_IN = ("id", "created_at", "updated_at", "archived", "version")
"""A row's own fields; no column takes one of these names (the exporter refuses them)."""
MASK = "***"
MASKED_HEADER = " (masked)"
"""A masked CSV export's header names each pii column (and `id`, when the id column is pii)
with this after it: an import reads that column's cells holding MASK as masks."""
MASKED_KEY = "masked"
"""A masked JSON export's row lists its masked fields (`id`, columns) under this key."""
Owner = Literal["agent", "human", "both"]
Writer = Literal["agent", "human"]


@dataclass(frozen=True)
class Column:
    name: str
    owner: Owner
    type: Literal["string", "number", "boolean"] = "string"
    id: bool = False
    pii: bool = False


@dataclass(frozen=True)
class Trigger:
    column: str
    status: str
    action: Literal["run", "notify"] = "run"


@dataclass(frozen=True)
class DocumentSpec:
    name: str
    columns: tuple[Column, ...]
    type: str = ""
    status_values: tuple[str, ...] = ()
    status_columns: tuple[str, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    agents: tuple[str, ...] = ()
    """The agents with this document's tools (the model's rule: its prompt names it)."""

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def id_column(self) -> str | None:
        return next((c.name for c in self.columns if c.id), None)


class WorkspaceError(ValueError):
    """A request the store refuses, with what to do instead."""


class RunRecords(Protocol):
    """What the target keeps of past runs (checkpoints, run state) that can hold what the
    agents read of a row: `workspace delete` finds them, and deletes them when asked."""

    @property
    def where(self) -> str:
        """Where they are kept, for messages."""
        ...

    def holding(self, needles: Sequence[str]) -> list[str]:
        """The ids of the runs whose records contain any of `needles`."""
        ...

    def purge(self, run_ids: Sequence[str]) -> None: ...


PURGE_MIN_CHARS = 4
"""Shorter values are not looked for in run records: they would match unrelated runs."""


# --- backends --------------------------------------------------------------------------


class Backend(Protocol):
    """Where rows and fired triggers are kept. `put` is compare-and-set: `expected` is the
    version the stored record must have (0: must not exist; None: any). `mark` is False
    when the firing was recorded already (by another watcher)."""

    def get(self, doc: str, row_id: str) -> dict[str, Any] | None: ...
    def put(self, doc: str, row_id: str, record: dict[str, Any], expected: int | None) -> bool: ...
    def delete(self, doc: str, row_id: str) -> None: ...
    def all(self, doc: str) -> list[dict[str, Any]]: ...
    def fired(self, doc: str) -> set[str]: ...
    def mark(self, doc: str, marker: str) -> bool: ...
    def unmark(self, doc: str, prefix: str) -> None: ...


class SqliteBackend:
    """An embedded SQLite file; compare-and-set in one IMMEDIATE transaction, so several
    processes (a run, `watch`, a person's command) share it safely."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        private_file(self.path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        # A deleted row's bytes are overwritten, not left in the file's free pages.
        self.conn.execute("PRAGMA secure_delete = ON")
        self.lock = threading.Lock()
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS workspace_rows (doc TEXT NOT NULL, id TEXT NOT NULL,"
            " version INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (doc, id))"
        )
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS workspace_fired (doc TEXT NOT NULL,"
            " marker TEXT NOT NULL, PRIMARY KEY (doc, marker))"
        )

    def get(self, doc: str, row_id: str) -> dict[str, Any] | None:
        with self.lock:
            found = self.conn.execute(
                "SELECT record FROM workspace_rows WHERE doc = ? AND id = ?", (doc, row_id)
            ).fetchone()
        return None if found is None else json.loads(found[0])

    def put(self, doc: str, row_id: str, record: dict[str, Any], expected: int | None) -> bool:
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                found = self.conn.execute(
                    "SELECT version FROM workspace_rows WHERE doc = ? AND id = ?", (doc, row_id)
                ).fetchone()
                current = 0 if found is None else int(found[0])
                if expected is not None and current != expected:
                    return False
                # An update keeps the row's place (its rowid): rows list in creation order,
                # as on the Store (REPLACE would move each written row to the end).
                self.conn.execute(
                    "INSERT INTO workspace_rows VALUES (?, ?, ?, ?) ON CONFLICT (doc, id)"
                    " DO UPDATE SET version = excluded.version, record = excluded.record",
                    (doc, row_id, record["version"], json.dumps(record, ensure_ascii=False)),
                )
                return True
            finally:
                self.conn.execute("COMMIT")

    def delete(self, doc: str, row_id: str) -> None:
        with self.lock:
            self.conn.execute("DELETE FROM workspace_rows WHERE doc = ? AND id = ?", (doc, row_id))

    def all(self, doc: str) -> list[dict[str, Any]]:
        with self.lock:
            found = self.conn.execute(
                "SELECT record FROM workspace_rows WHERE doc = ? ORDER BY rowid", (doc,)
            ).fetchall()
        return [json.loads(r[0]) for r in found]

    def fired(self, doc: str) -> set[str]:
        with self.lock:
            found = self.conn.execute("SELECT marker FROM workspace_fired WHERE doc = ?", (doc,))
            return {r[0] for r in found.fetchall()}

    def mark(self, doc: str, marker: str) -> bool:
        with self.lock:
            query = "INSERT OR IGNORE INTO workspace_fired VALUES (?, ?)"
            return self.conn.execute(query, (doc, marker)).rowcount == 1

    def unmark(self, doc: str, prefix: str) -> None:
        with self.lock:
            self.conn.execute(
                "DELETE FROM workspace_fired WHERE doc = ? AND substr(marker, 1, ?) = ?",
                (doc, len(prefix), prefix),
            )


def _claim_prefix(row_id: str) -> str:
    """A row's claims' keys start so (a row id may hold what a namespace label may not)."""
    return hashlib.sha256(row_id.encode()).hexdigest()[:32] + ":"


class StoreBackend:
    """LangGraph's Store (langgraph.store.base.BaseStore): rows under the namespace
    ("envelope_workspace", <doc>), fired triggers under ("envelope_workspace_fired", <doc>),
    the row id as the key. The Store has no compare-and-set: it is done under a lock when
    the store offers one across processes (`exclusive()`, workspace_store.py's file store),
    else by claims on the store itself (`_claimed`), so the replicas of a server sharing its
    store (PostgreSQL) agree on which write of a version wins."""

    _lock = threading.Lock()

    def __init__(self, store: Any) -> None:
        self.store = store

    def get(self, doc: str, row_id: str) -> dict[str, Any] | None:
        item = self.store.get(("envelope_workspace", doc), row_id)
        return None if item is None or not _is_record(item.value) else dict(item.value)

    def put(self, doc: str, row_id: str, record: dict[str, Any], expected: int | None) -> bool:
        exclusive = getattr(self.store, "exclusive", None)
        with self._lock, (exclusive or contextlib.nullcontext)():
            found = self.get(doc, row_id)
            current = 0 if found is None else int(found["version"])
            if expected is not None and current != expected:
                return False
            if exclusive is None and not self._claimed(doc, row_id, current):
                return False
            self.store.put(("envelope_workspace", doc), row_id, record, index=False)
            return True

    CLAIM_TTL_S = 300

    def _claimed(self, doc: str, row_id: str, current: int) -> bool:
        """Whether this writer wins the write after version `current` (`_claim`); a winner's
        claim stays until a later version is won or it is stale. The winner also finds the row
        still at `current`."""
        namespace = ("envelope_workspace_claims", doc)
        row = _claim_prefix(row_id)
        prefix = f"{row}{current:012d}:"

        def still() -> bool:
            found = self.get(doc, row_id)
            return (0 if found is None else int(found["version"])) == current

        if self._claim(namespace, prefix, still) is None:
            return False
        for item in self._items(namespace):  # claims on earlier versions are settled
            if item.key.startswith(row) and item.key < prefix:
                self.store.delete(namespace, item.key)
        return True

    def _claim(
        self, namespace: tuple[str, str], prefix: str, still: Callable[[], bool]
    ) -> str | None:
        """This writer's claim on `prefix`, when it wins: each writer puts a claim, then reads
        every claim there, and wins only when its own is the one there and `still()` holds.
        A put completes before its writer reads, so of two writers at least the later one sees
        both claims: at most one wins, and on contention maybe none (a loser takes its claim
        back). Not "the first stored wins": a store's created_at is when a put began, not when
        others could see it, so a claim stamped earlier can appear after a later one has
        already won (PostgreSQL: two writers of one version, one update lost)."""
        mine = prefix + uuid.uuid4().hex
        self.store.put(namespace, mine, {"claimed": True}, index=False)
        # A claim older than CLAIM_TTL_S is a writer's that stopped before taking it back
        # (killed): ignored by every writer, so deleted, else it would stay for good.
        fresh = time.time() - self.CLAIM_TTL_S
        claims: list[str] = []
        for item in self._items(namespace):
            if item.key != mine and item.created_at.timestamp() <= fresh:
                self.store.delete(namespace, item.key)
            elif item.key.startswith(prefix):
                claims.append(item.key)
        if claims == [mine] and still():
            return mine
        self.store.delete(namespace, mine)
        return None

    def delete(self, doc: str, row_id: str) -> None:
        self.store.delete(("envelope_workspace", doc), row_id)
        for item in self._items(("envelope_workspace_claims", doc)):
            if item.key.startswith(_claim_prefix(row_id)):
                self.store.delete(("envelope_workspace_claims", doc), item.key)

    MAX_ROWS = 1_000_000
    """One search, not pages: the Store orders by last update, so a write between two pages
    would move a row from one page to the other."""

    def _items(self, namespace: tuple[str, ...]) -> list[Any]:
        return list(self.store.search(namespace, limit=self.MAX_ROWS))

    def all(self, doc: str) -> list[dict[str, Any]]:
        # Items written around the store's rules (the Store API, Studio) that are not rows
        # are skipped, not fatal to the document.
        records = [dict(i.value) for i in self._items(("envelope_workspace", doc))]
        rows = [r for r in records if _is_record(r)]
        return sorted(rows, key=lambda r: (str(r["created_at"]), str(r["id"])))

    def fired(self, doc: str) -> set[str]:
        return {i.key for i in self._items(("envelope_workspace_fired", doc))}

    def mark(self, doc: str, marker: str) -> bool:
        """Record a firing, unless one was (another watcher fired it since `fired` was read):
        under the store's lock, else by a claim (`_claim`), taken back once the firing is
        recorded, so a watcher after it finds the firing. Of watchers at once one fires, or
        on a store without a lock at most one (none on contention: the next evaluation)."""
        namespace = ("envelope_workspace_fired", doc)
        claims = ("envelope_workspace_fired_claims", doc)
        exclusive = getattr(self.store, "exclusive", None)
        with self._lock, (exclusive or contextlib.nullcontext)():

            def unfired() -> bool:
                return self.store.get(namespace, marker) is None

            if exclusive is None:
                mine = self._claim(claims, _claim_prefix(marker), unfired)
            else:
                mine = "" if unfired() else None
            if mine is None:
                return False
            self.store.put(namespace, marker, {"fired": True}, index=False)
            if mine:
                self.store.delete(claims, mine)
            return True

    def unmark(self, doc: str, prefix: str) -> None:
        for marker in self.fired(doc):
            if marker.startswith(prefix):
                self.store.delete(("envelope_workspace_fired", doc), marker)


# --- the store's rules -----------------------------------------------------------------


@dataclass
class WriteResult:
    row: str
    outcome: Literal["written", "refused", "conflict"]
    message: str = ""
    version: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"row": self.row, "outcome": self.outcome}
        if self.message:
            out["message"] = self.message
        if self.version is not None:
            out["version"] = self.version
        return out


@dataclass(frozen=True)
class Firing:
    document: str
    trigger: Trigger
    row: dict[str, Any]
    marker: str = ""
    """What the store keeps of it once fired (evaluate), so it fires once."""
    position: int = 0
    """The row's place in `workspace list <document>` when it fired (1: first)."""


def private_file(path: Path) -> None:
    """Create the store's file readable by its owner only (its rows hold pii), as the people's
    pii exports are; SQLite gives its journal the file's mode. A file that exists keeps its mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))


def db_path(environ: Mapping[str, str] = os.environ) -> Path:
    """The store's SQLite file: DB_ENV, else DEFAULT_DB."""
    return Path(environ.get(DB_ENV) or DEFAULT_DB)


def _is_record(value: Any) -> bool:
    """A stored row as this module writes it."""
    keys = ("id", "created_at", "updated_at", "archived", "version", "data")
    return (
        isinstance(value, dict)
        and all(k in value for k in keys)
        and isinstance(value["data"], dict)
    )


def _shared(spec: DocumentSpec, record: Mapping[str, Any]) -> dict[str, Any]:
    """The values of a row's `both` columns (what a conflict answer shows)."""
    return {c.name: record["data"].get(c.name) for c in spec.columns if c.owner == "both"}


def utc_now() -> str:
    # time.gmtime, not datetime's UTC: the same code lints clean for Python 3.10 and 3.11+
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _type_ok(column: Column, value: Any) -> bool:
    if value is None:
        return True
    if column.type == "number":
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and math.isfinite(value)
    if column.type == "boolean":
        return isinstance(value, bool)
    return isinstance(value, str)


def coerce(column: Column, text: str) -> Any:
    """A value given as text (a command line, a CSV cell) in the column's type; "" is unset."""
    if text == "":
        return None
    if column.type == "number":
        try:
            return int(text)  # exact, however many digits
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            raise WorkspaceError(f"column {column.name!r} is a number, not {text!r}") from None
        if not math.isfinite(number):
            raise WorkspaceError(f"column {column.name!r} is a finite number, not {text!r}")
        return int(number) if number.is_integer() else number
    if column.type == "boolean":
        if text.lower() in ("true", "yes", "1"):
            return True
        if text.lower() in ("false", "no", "0"):
            return False
        raise WorkspaceError(f"column {column.name!r} is true or false, not {text!r}")
    return text


class Workspace:
    """The team's documents (team.WORKSPACE) over one backend."""

    def __init__(
        self,
        specs: Mapping[str, DocumentSpec],
        backend: Backend,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.specs = dict(specs)
        self.backend = backend
        self.clock = clock

    def spec(self, doc: str) -> DocumentSpec:
        if doc not in self.specs:
            names = ", ".join(self.specs) or "none"
            raise WorkspaceError(f"no workspace document {doc!r}; the documents: {names}")
        return self.specs[doc]

    def rows(
        self,
        doc: str,
        *,
        status: str | None = None,
        column: str | None = None,
        archived: bool = False,
    ) -> list[dict[str, Any]]:
        """The document's rows, not archived ones unless asked; `status`: rows whose status
        column (`column`, else any status column) holds it."""
        spec = self.spec(doc)
        if column is not None and column not in spec.status_columns:
            columns = ", ".join(spec.status_columns) or "none"
            raise WorkspaceError(f"{column!r} is not a status column of {doc!r} ({columns})")
        where = (column,) if column is not None else spec.status_columns
        found = []
        for record in self.backend.all(doc):
            if record["archived"] and not archived:
                continue
            if status is not None and not any(record["data"].get(c) == status for c in where):
                continue
            found.append(public(record))
        return found

    def row(self, doc: str, row_id: str) -> dict[str, Any] | None:
        self.spec(doc)
        record = self.backend.get(doc, row_id)
        return None if record is None else public(record)

    def write(self, doc: str, rows: Iterable[Mapping[str, Any]], by: Writer) -> list[WriteResult]:
        """Write rows (`{"id"?, "version"?, "data": {column: value}}`), each on its own:
        one refused or conflicting row leaves the others written."""
        spec = self.spec(doc)
        return [self._write_one(spec, dict(item), by) for item in rows]

    def _write_one(self, spec: DocumentSpec, item: dict[str, Any], by: Writer) -> WriteResult:
        data = dict(item.get("data") or {})
        row_id, id_problem = self._row_id(spec, item, data)
        current = None if row_id is None else self.backend.get(spec.name, row_id)
        if current is not None:
            # a value a column already holds is no change, whoever owns the column
            unchanged = {k for k, v in data.items() if current["data"].get(k) == v}
            data = {k: v for k, v in data.items() if k not in unchanged}
        problems = ([id_problem] if id_problem else []) + self._problems(spec, data, by)
        if current is None and row_id is not None and spec.id_column is not None:
            column = spec.column(spec.id_column)
            if by == "agent" and column is not None and column.owner == "human":
                problems.append(
                    f"there is no row {row_id!r}: people create rows of {spec.name!r} "
                    f"(its id column {spec.id_column!r} is theirs)"
                )
        if problems:
            return WriteResult(row_id or "(new)", "refused", "; ".join(problems))
        given = item.get("version")
        if current is None and given not in (None, 0):
            return WriteResult(
                row_id or "(new)",
                "conflict",
                f"there is no row {row_id!r} (deleted since you read it?): nothing written",
            )
        # A write at a stale version is a conflict even when the row now holds its values:
        # two workers adding one to a count both write the same value, and one add is lost.
        if current is not None and given is not None and int(given) != current["version"]:
            return self._conflict(spec, current, int(given))
        if (
            current is not None
            and not data
            and item.get("archived", current["archived"]) == (current["archived"])
        ):
            return WriteResult(current["id"], "written", "no change", current["version"])
        if row_id is None:
            row_id = uuid.uuid4().hex[:12]
        if spec.id_column is not None:
            data[spec.id_column] = row_id  # the id column always holds the row's id
        touches_both = any(
            (c := spec.column(name)) is not None
            and c.owner == "both"
            and current is not None
            and current["data"].get(name) != value
            for name, value in data.items()
        )
        if current is not None and touches_both and given is None and by == "agent":
            return WriteResult(
                row_id,
                "conflict",
                f"row {row_id!r} exists and a column both you and people write changes: its "
                f"values now are {json.dumps(_shared(spec, current), ensure_ascii=False)}; if "
                "your change still applies, write it again with the version read_ gives",
            )
        now = self.clock()
        version = 1 if current is None else current["version"] + 1
        merged = {**(current["data"] if current else {}), **data}
        since = dict(current.get("status_since", {})) if current else {}
        for name in spec.status_columns:
            if current is None or current["data"].get(name) != merged.get(name):
                since[name] = version
        record = {
            "id": row_id,
            "created_at": current["created_at"] if current else now,
            "updated_at": now,
            "archived": bool(item.get("archived", current["archived"] if current else False)),
            "version": version,
            "data": merged,
            "status_since": since,
        }
        if not self.backend.put(spec.name, row_id, record, 0 if current is None else version - 1):
            latest = self.backend.get(spec.name, row_id)
            return self._conflict(spec, latest, version - 1)
        return WriteResult(row_id, "written", version=version)

    def _conflict(
        self, spec: DocumentSpec, current: dict[str, Any] | None, given: int
    ) -> WriteResult:
        row_id = current["id"] if current else "(gone)"
        shared = json.dumps(_shared(spec, current), ensure_ascii=False) if current else "{}"
        return WriteResult(
            row_id,
            "conflict",
            f"row {row_id!r} changed since version {given}: nothing written; its shared "
            f"values now are {shared}: read it again and decide whether your change still "
            "applies",
        )

    def _row_id(
        self, spec: DocumentSpec, item: Mapping[str, Any], data: Mapping[str, Any]
    ) -> tuple[str | None, str]:
        """The row a write addresses, and a problem with it ("" when none): the id column's
        value and `id`, which must agree; a document with an id column needs one of them."""
        id_column = spec.id_column
        given = None if item.get("id") in (None, "") else str(item["id"])
        value = None
        if id_column is not None and data.get(id_column) not in (None, ""):
            value = str(data[id_column])
        if value is not None and given is not None and value != given:
            return given, (
                f"row {given!r}: its id column {id_column!r} holds its id and cannot change "
                f"to {value!r} (write a new row with that id instead)"
            )
        row_id = value or given
        if row_id is None and id_column is not None:
            return None, f"a new row of {spec.name!r} needs its id column {id_column!r}"
        return row_id, ""

    def _problems(self, spec: DocumentSpec, data: Mapping[str, Any], by: Writer) -> list[str]:
        problems = []
        declared = ", ".join(c.name for c in spec.columns)
        for name, value in data.items():
            column = spec.column(name)
            if column is None:
                problems.append(f"{spec.name!r} has no column {name!r} (its columns: {declared})")
                continue
            if by == "agent" and column.owner == "human":
                problems.append(
                    f"column {name!r} is written by people only: read it, leave it as it is"
                )
            elif not _type_ok(column, value):
                problems.append(f"column {name!r} takes a {column.type}, not {value!r}")
            elif name in spec.status_columns and value is not None:
                if value not in spec.status_values:
                    allowed = ", ".join(spec.status_values)
                    problems.append(
                        f"{value!r} is not a status of {spec.name!r}: use one of {allowed}"
                    )
        return problems

    def archive(self, doc: str, row_id: str, archived: bool = True) -> WriteResult:
        current = self.backend.get(self.spec(doc).name, row_id)
        if current is None:
            raise WorkspaceError(f"{doc!r} has no row {row_id!r}")
        return self.write(doc, [{"id": row_id, "archived": archived}], "human")[0]

    def delete(self, doc: str, row_id: str) -> bool:
        """Hard-delete a row: the row and the record of its fired triggers."""
        self.spec(doc)
        existed = self.backend.get(doc, row_id) is not None
        self.backend.delete(doc, row_id)
        self.backend.unmark(doc, f"{row_id}\x1f")
        return existed

    def evaluate(self, mark: bool = True) -> list[Firing]:
        """Triggers that fire now: a non-archived row holds the pair, and that status change
        has not fired yet. Marked as fired (persisted) unless `mark` is False."""
        firings = []
        for doc, spec in self.specs.items():
            if not spec.triggers:
                continue
            fired = self.backend.fired(doc)
            listed = [r for r in self.backend.all(doc) if not r["archived"]]
            for position, record in enumerate(listed, 1):
                for trigger in spec.triggers:
                    if record["data"].get(trigger.column) != trigger.status:
                        continue
                    since = record.get("status_since", {}).get(trigger.column, 0)
                    # ends with the separator: a marker is never a prefix of another (unmark)
                    parts = (record["id"], trigger.column, trigger.status, str(since), "")
                    marker = "\x1f".join(parts)
                    if marker in fired:
                        continue
                    if mark and not self.backend.mark(doc, marker):
                        continue  # fired in another process since `fired` was read
                    firings.append(Firing(doc, trigger, public(record), marker, position))
        return firings

    def unfire(self, firings: Iterable[Firing]) -> None:
        """Forget that these fired: the next evaluation fires them again."""
        for firing in firings:
            self.backend.unmark(firing.document, firing.marker)


def public(record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored record as tools and commands show it: the built-in fields and `data`."""
    return {key: record[key] for key in (*BUILT_IN, "data")}


def masked(spec: DocumentSpec, row: Mapping[str, Any]) -> dict[str, Any]:
    """The row with its pii columns' values masked (and its id, when the id column is pii)."""
    pii = {c.name for c in spec.columns if c.pii}
    data = {k: (MASK if k in pii and v not in (None, "") else v) for k, v in row["data"].items()}
    shown = {**row, "data": data}
    if spec.id_column in pii:
        shown["id"] = MASK
    return shown


# --- agent tools -----------------------------------------------------------------------


TOOL_IDENT_MAX = 50
"""Longest document part of a tool name: `write_<it>_rows` stays within the 64 characters
providers allow a function name."""


def tool_ident(doc: str) -> str:
    """The document's name in its tools' names: `-` becomes `_`; a name over TOOL_IDENT_MAX
    is cut, with 8 hex digits of its SHA-256 to keep names apart."""
    ident = doc.replace("-", "_")
    if len(ident) <= TOOL_IDENT_MAX:
        return ident
    digest = hashlib.sha256(doc.encode()).hexdigest()[:8]
    return f"{ident[: TOOL_IDENT_MAX - 9]}_{digest}"


def _describe(spec: DocumentSpec) -> str:
    parts = [f"Workspace document {spec.name!r}"]
    if spec.type:
        parts[0] += f" (a {spec.type})"
    columns = []
    for c in spec.columns:
        notes = [
            c.type,
            {
                "agent": "you write it",
                "human": "people write it, read only",
                "both": "you and people write it",
            }[c.owner],
        ]
        if c.id:
            notes.append("the row's id")
        columns.append(f"{c.name} ({', '.join(notes)})")
    parts.append("columns: " + "; ".join(columns) if columns else "no declared columns")
    if spec.status_columns:
        parts.append(
            f"status columns {', '.join(spec.status_columns)} take only: "
            + ", ".join(spec.status_values)
        )
    return ". ".join(parts) + "."


class WriteRow(BaseModel):
    """One row to write."""

    id: str | None = Field(default=None, description="The row's id (new row: leave it out).")
    version: int | None = Field(
        default=None, description="The version you read (required to change a shared column)."
    )


def write_schema(spec: DocumentSpec) -> type[BaseModel]:
    """The write tool's arguments: rows with the document's columns (people's columns too,
    so the store, not the schema, refuses them with its reason)."""
    types: dict[str, Any] = {"string": str, "number": int | float, "boolean": bool}
    # A column's name may be any text: each field has a safe name and the column as alias.
    fields: dict[str, Any] = {
        f"column_{i}": (
            types[c.type] | None,
            Field(default=None, alias=c.name, description=f"owner: {c.owner}"),
        )
        for i, c in enumerate(spec.columns)
    }
    values = create_model(
        f"{tool_ident(spec.name).title().replace('_', '')}Values",
        # by alias whoever dumps it (CrewAI's BaseTool passes model_dump() to _run)
        __config__=ConfigDict(extra="allow", populate_by_name=True, serialize_by_alias=True),
        **fields,
    )
    row = create_model(
        f"{tool_ident(spec.name).title().replace('_', '')}Row",
        __base__=WriteRow,
        data=(values, Field(description="The columns to set; others keep their values.")),
    )
    return create_model(
        f"Write{tool_ident(spec.name).title().replace('_', '')}Rows",
        rows=(list[row], Field(description="The rows to write.")),  # type: ignore[valid-type]
    )


class ListArgs(BaseModel):
    status: str | None = Field(default=None, description="Only rows with this status.")
    id: str | None = Field(default=None, description="Only the row with this id.")


class ReadArgs(BaseModel):
    id: str = Field(description="The row's id.")


@dataclass
class DocumentTools:
    """What the three tools of one document do, for one agent; each answers text (JSON)."""

    spec: DocumentSpec
    open_workspace: Callable[[], Workspace]
    names: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        ident = tool_ident(self.spec.name)
        self.names = {
            "list": f"list_{ident}_rows",
            "read": f"read_{ident}_row",
            "write": f"write_{ident}_rows",
        }

    def description(self, kind: str) -> str:
        about = _describe(self.spec)
        return {
            "list": f"List the rows of {self.spec.name!r}, by status or id. {about}",
            "read": f"Read one row of {self.spec.name!r} by its id. {about}",
            "write": (
                f"Create or update rows of {self.spec.name!r}; each answer says written, "
                f"refused (why) or conflict (read the row again). {about}"
            ),
        }[kind]

    def list_rows(self, status: str | None = None, id: str | None = None) -> str:
        try:
            workspace = self.open_workspace()
            rows = workspace.rows(self.spec.name, status=status)
        except WorkspaceError as error:
            return f"REFUSED: {error}"
        if id is not None:
            rows = [r for r in rows if r["id"] == id]
        return json.dumps(rows, ensure_ascii=False)

    def read_row(self, id: str) -> str:
        row = self.open_workspace().row(self.spec.name, id)
        if row is None:
            return f"{self.spec.name!r} has no row {id!r}"
        return json.dumps(row, ensure_ascii=False)

    def write_rows(self, rows: Sequence[Any]) -> str:
        items = [
            r.model_dump(exclude_none=True, by_alias=True) if isinstance(r, BaseModel) else r
            for r in rows
        ]
        for item in items:
            if isinstance(item.get("data"), Mapping):
                item["data"] = {k: v for k, v in item["data"].items() if v is not None}
        results = self.open_workspace().write(self.spec.name, items, "agent")
        return json.dumps([r.as_dict() for r in results], ensure_ascii=False)


def _seconds(text: str) -> float:
    """--interval: a number of seconds above 0 (0 would evaluate without a pause)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return value


def help_lines(specs: Mapping[str, DocumentSpec], command: str) -> list[str]:
    """The workspace commands, as a runner's --help names them (none without documents)."""
    if not specs:
        return []
    lines = [
        f"The workspace documents: {command} workspace "
        "list|show|edit|import|export|archive|delete ... (see --help there)."
    ]
    if any(spec.triggers for spec in specs.values()):
        lines.append(
            f"{command} watch [--once] [--interval S] [-- RUN OPTIONS] evaluates the "
            "workspace triggers: runs the team or notifies when one fires."
        )
    return lines


def documents_of(specs: Mapping[str, DocumentSpec], agent_key: str) -> list[DocumentSpec]:
    """The documents whose tools the agent gets."""
    return [spec for spec in specs.values() if agent_key in spec.agents]


# --- the people's commands and `watch` ---------------------------------------------------


def _url_option(parser: argparse.ArgumentParser, url_help: str | None) -> None:
    """`--url URL`, documented where the caller takes it (LangGraph's run_client reads it out
    of the arguments, before or after the action, to open the store it names)."""
    if url_help is not None:
        parser.add_argument("--url", metavar="URL", help=url_help)


def _parser(command: str, url_help: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{command} workspace", description="The team's workspace documents."
    )
    _url_option(parser, url_help)
    sub = parser.add_subparsers(dest="action", required=True)

    def action(name: str, help: str, *positional: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help)
        _url_option(command, url_help)
        for argument in positional:
            command.add_argument(argument)
        return command

    listing = sub.add_parser("list", help="the documents, or a document's rows")
    _url_option(listing, url_help)
    listing.add_argument("document", nargs="?")
    listing.add_argument("--status", help="only rows with this status")
    listing.add_argument("--archived", action="store_true", help="archived rows too")
    listing.add_argument("--show-pii", action="store_true", help="show pii columns unmasked")
    show = action("show", "one row, as JSON", "document", "id")
    show.add_argument("--show-pii", action="store_true", help="show pii columns unmasked")
    edit = action("edit", "set columns of a row (a new row when the id is new)", "document", "id")
    edit.add_argument("values", nargs="+", metavar="COLUMN=VALUE")
    edit.add_argument("--version", type=int, help="refuse if the row is no longer at it")
    action("import", "write rows from a CSV or JSON file", "document", "file")
    exp = action("export", "the rows as CSV or JSON (pii masked unless asked)", "document")
    exp.add_argument(
        "--show-pii",
        "--include-pii",
        dest="show_pii",
        action="store_true",
        help="pii columns unmasked (a file an import restores exactly)",
    )
    exp.add_argument("--format", choices=("json", "csv"), default="json")
    exp.add_argument("--out", help="file to write (default: stdout)")
    exp.add_argument("--archived", action="store_true", help="archived rows too")
    arch = action("archive", "archive a row (triggers ignore it)", "document", "id")
    arch.add_argument("--undo", action="store_true", help="bring it back")
    delete = action("delete", "hard-delete a row everywhere it is stored", "document", "id")
    runs = delete.add_mutually_exclusive_group()
    runs.add_argument(
        "--purge-runs",
        action="store_true",
        help="also delete the stored runs that hold its pii values (what agents read)",
    )
    runs.add_argument(
        "--keep-runs", action="store_true", help="delete the row only; keep those runs"
    )
    return parser


def _row_line(spec: DocumentSpec, row: Mapping[str, Any]) -> str:
    values = " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in row["data"].items())
    archived = " (archived)" if row["archived"] else ""
    return f"{row['id']} v{row['version']}{archived} {values}".rstrip()


@dataclass
class ImportRow:
    """A row of an import file: what to write, and the fields the file marks as masked whose
    mask was left out (`id`, columns)."""

    item: dict[str, Any]
    masked: set[str] = field(default_factory=set)


def _masked_headers(spec: DocumentSpec, headers: Sequence[str]) -> dict[str, str]:
    """A CSV header's masked columns (MASKED_HEADER): header -> field. A header that names a
    column as it is stays that column."""
    found = {}
    for header in headers:
        base = header[: -len(MASKED_HEADER)] if header.endswith(MASKED_HEADER) else None
        if spec.column(header) is None and base and (base == "id" or spec.column(base)):
            found[header] = base
    return found


def _read_csv(spec: DocumentSpec, text: str) -> list[ImportRow]:
    reader = csv.DictReader(io.StringIO(text))
    masks = _masked_headers(spec, reader.fieldnames or [])
    rows = []
    for record in reader:
        cells: dict[str, str] = {}
        masked: set[str] = set()
        for header, value in record.items():
            if not header:  # cells beyond the header
                continue
            name = masks.get(header, header)
            if header in masks and value == MASK:
                masked.add(name)
            else:  # what a person typed into a masked column is a value
                cells[name] = value or ""
        data = {}
        for name, value in cells.items():
            column = spec.column(name)
            if column is not None:
                data[name] = coerce(column, value)
            elif name not in BUILT_IN:
                data[name] = value
        item: dict[str, Any] = {"data": {k: v for k, v in data.items() if v is not None}}
        if cells.get("id"):
            item["id"] = cells["id"]
        if cells.get("archived"):
            item["archived"] = cells["archived"].lower() in ("true", "1", "yes")
        rows.append(ImportRow(item, masked))
    return rows


def _read_json(path: Path, text: str) -> list[ImportRow]:
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as error:
        # say which file and what an import takes, not only where the parser stopped
        raise WorkspaceError(
            f"{path}: not JSON ({error.msg}, line {error.lineno}): an import is a .csv file "
            "or a JSON list of rows"
        ) from None
    if not isinstance(loaded, list) or not all(isinstance(row, dict) for row in loaded):
        raise WorkspaceError(f"{path}: a JSON import is a list of rows (objects)")
    rows = []
    for n, row in enumerate(loaded):
        # not `version`: an import (a restore, too) writes what the file holds
        item = {k: row[k] for k in ("id", "data") if k in row} if "data" in row else {}
        item.setdefault("data", row if "data" not in row else row["data"])
        if not isinstance(item["data"], dict):
            raise WorkspaceError(f"{path}: row {n}: its data is an object of columns")
        if "archived" in row:
            if not isinstance(row["archived"], bool):
                raise WorkspaceError(f"{path}: row {n}: archived is true or false")
            item["archived"] = row["archived"]
        masked: set[str] = set()
        marks = row.get(MASKED_KEY, []) if "data" in row else []
        if not isinstance(marks, list) or not all(isinstance(m, str) for m in marks):
            raise WorkspaceError(f"{path}: row {n}: {MASKED_KEY} is a list of field names")
        if marks:
            item["data"] = dict(item["data"])
            for name in marks:
                holder = item if name == "id" else item["data"]
                if holder.get(name) == MASK:
                    del holder[name]
                    masked.add(name)
        rows.append(ImportRow(item, masked))
    return rows


def _read_rows(spec: DocumentSpec, path: Path) -> list[ImportRow]:
    text = path.read_text(encoding="utf-8-sig")  # a spreadsheet's "CSV UTF-8" has a BOM
    if path.suffix.lower() == ".csv":
        return _read_csv(spec, text)
    return _read_json(path, text)


def _import(workspace: Workspace, spec: DocumentSpec, path: Path) -> int:
    """Write the file's rows; the masks of a masked export are left out (the stored values
    stay), and a row whose id is a mask is refused (it addresses no row)."""
    results = []
    fields = ["id", *(c.name for c in spec.columns)]
    skipped = dict.fromkeys(fields, 0)
    for n, row in enumerate(_read_rows(spec, path), 1):
        for name in row.masked:
            skipped[name] = skipped.get(name, 0) + 1
        item = row.item
        addressed = item.get("id") not in (None, "") or (
            spec.id_column is not None and item["data"].get(spec.id_column) not in (None, "")
        )
        if not addressed and row.masked & {"id", spec.id_column}:
            results.append(
                WriteResult(
                    f"row {n}",
                    "refused",
                    "its id is masked in this file (an export without --show-pii), so it "
                    "addresses no row: nothing written; import a --show-pii export instead",
                )
            )
            continue
        results += workspace.write(spec.name, [item], "human")
    if any(skipped.values()):
        cells = ", ".join(f"{name} ({count})" for name, count in skipped.items() if count)
        print(
            f"workspace: {path.name} is a masked export: the masked cells of {cells} were "
            f"left as they are, not stored as {MASK!r} (a --show-pii export restores them)",
            file=sys.stderr,
        )
    return _report(results)


def masked_fields(spec: DocumentSpec, row: Mapping[str, Any]) -> list[str]:
    """The fields `masked` masks in this row: `id` (when the id column is pii), then its pii
    columns that hold a value."""
    pii = [c.name for c in spec.columns if c.pii]
    found = ["id"] if spec.id_column in pii else []
    return found + [n for n in pii if row["data"].get(n) not in (None, "")]


def _export(spec: DocumentSpec, rows: list[dict[str, Any]], fmt: str, show_pii: bool) -> str:
    """The rows as JSON or CSV; masked unless `show_pii`, saying which values are masks."""
    if fmt == "json":
        shown = []
        for row in rows:
            marks = [] if show_pii else masked_fields(spec, row)
            shown.append({**masked(spec, row), MASKED_KEY: marks} if marks else row)
        return json.dumps(shown, indent=2, ensure_ascii=False) + "\n"
    names = [c.name for c in spec.columns]
    pii = set() if show_pii else {c.name for c in spec.columns if c.pii}
    header = [
        "id" + (MASKED_HEADER if spec.id_column in pii else ""),
        *(n + MASKED_HEADER if n in pii else n for n in names),
        "archived",
        "version",
        "created_at",
        "updated_at",
    ]
    clash = [h for h in header if h.endswith(MASKED_HEADER) and spec.column(h) is not None]
    if clash:
        raise WorkspaceError(
            f"a masked CSV export would head a masked column {clash[0]!r}, the name of another "
            f"column of {spec.name!r}: export --format json, or with --show-pii"
        )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows if show_pii else [masked(spec, row) for row in rows]:
        cells = ["" if row["data"].get(n) is None else row["data"][n] for n in names]
        cells = [str(c).lower() if isinstance(c, bool) else c for c in cells]
        writer.writerow(
            [
                row["id"],
                *cells,
                str(row["archived"]).lower(),
                row["version"],
                row["created_at"],
                row["updated_at"],
            ]
        )
    return out.getvalue()


def workspace_command(
    argv: Sequence[str],
    workspace: Workspace,
    command: str,
    runs: RunRecords | None = None,
    url_help: str | None = None,
) -> int:
    """`<command> workspace list|show|edit|import|export|archive|delete ...`; `runs`: the
    run records `delete` also looks through; `url_help`: the help of the `--url` option the
    caller took out of `argv` (LangGraph's: the Agent Server whose store it opened)."""
    args = _parser(command, url_help).parse_args(argv)
    try:
        if args.action == "delete":
            return _delete(args, workspace, runs)
        return _workspace_action(args, workspace)
    except (ValueError, OSError) as error:  # WorkspaceError, bad JSON, undecodable text
        print(f"workspace: {error}", file=sys.stderr)
        return 2


def _report(results: list[WriteResult]) -> int:
    failed = 0
    for result in results:
        line = f"{result.row}: {result.outcome}"
        if result.version is not None:
            line += f" (version {result.version})"
        if result.message:
            line += f": {result.message}"
        print(line, file=sys.stdout if result.outcome == "written" else sys.stderr)
        failed += result.outcome != "written"
    return 1 if failed else 0


def _workspace_action(args: argparse.Namespace, workspace: Workspace) -> int:
    if args.action == "list" and args.document is None:
        for spec in workspace.specs.values():
            count = len(workspace.rows(spec.name))
            print(f"{spec.name}{f' ({spec.type})' if spec.type else ''}: {count} rows")
        return 0
    spec = workspace.spec(args.document)
    if args.action == "list":
        # `#N`: the row's place among the non-archived rows, the N of watch's `*** (#N listed)`
        # (Firing.position), whatever the filter; an archived row has none: `-`.
        places = {r["id"]: f"#{n}" for n, r in enumerate(workspace.rows(spec.name), 1)}
        for row in workspace.rows(spec.name, status=args.status, archived=args.archived):
            line = _row_line(spec, row if args.show_pii else masked(spec, row))
            print(places.get(row["id"], "-"), line)
        return 0
    if args.action == "show":
        row = workspace.row(spec.name, args.id)
        if row is None:
            raise WorkspaceError(f"{spec.name!r} has no row {args.id!r}")
        print(json.dumps(row if args.show_pii else masked(spec, row), indent=2, ensure_ascii=False))
        return 0
    if args.action == "edit":
        data = {}
        for pair in args.values:
            name, sep, value = pair.partition("=")
            column = spec.column(name)
            if not sep or column is None:
                raise WorkspaceError(f"{pair!r}: give COLUMN=VALUE with a column of {spec.name!r}")
            data[name] = coerce(column, value)
        item: dict[str, Any] = {"id": args.id, "data": data}
        if args.version is not None:
            item["version"] = args.version
        return _report(workspace.write(spec.name, [item], "human"))
    if args.action == "import":
        return _import(workspace, spec, Path(args.file))
    if args.action == "export":
        rows = workspace.rows(spec.name, archived=args.archived)
        text = _export(spec, rows, args.format, args.show_pii)
        if args.out and args.show_pii and any(c.pii for c in spec.columns):
            # Unmasked pii values: the file is its owner's only from its first byte on (created
            # so; an existing regular file's mode set before it is written to).
            fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(fd, "w", encoding="utf-8") as out:
                if hasattr(os, "fchmod") and stat.S_ISREG(os.fstat(fd).st_mode):
                    os.fchmod(fd, 0o600)
                out.write(text)
        elif args.out:
            Path(args.out).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    return _report([workspace.archive(spec.name, args.id, not args.undo)])


def pii_values(workspace: Workspace) -> list[str]:
    """Every pii value the store holds (PURGE_MIN_CHARS long or longer), archived rows'
    too: what a run's trace leaves out."""
    found: set[str] = set()
    for spec in workspace.specs.values():
        pii = [c.name for c in spec.columns if c.pii]
        if not pii:
            continue
        for row in workspace.rows(spec.name, archived=True):
            for name in pii:
                value = row["data"].get(name)
                if isinstance(value, str) and len(value) >= PURGE_MIN_CHARS:
                    found.add(value)
    return sorted(found, key=len, reverse=True)


PURGE_ESCAPES = 3
"""How many times over a value may be JSON-escaped in a stored run and still be found."""


def pii_needles(spec: DocumentSpec, row: Mapping[str, Any]) -> list[str]:
    """How a row's pii values may be written in a stored run: as they are, and JSON-escaped
    (ASCII-only, as CrewAI writes its records, or not) up to PURGE_ESCAPES times over: once
    in a run's JSON, twice where that JSON holds an agent's answer quoting a tool's JSON
    answer (a step's output, CrewAI's kickoff record), three times where such an answer is
    quoted again. A value with a quote or a backslash differs in each form. Values under
    PURGE_MIN_CHARS are left out (they would match unrelated runs)."""
    values = [row["data"].get(c.name) for c in spec.columns if c.pii]
    found: set[str] = set()
    for value in values:
        if isinstance(value, str) and len(value) >= PURGE_MIN_CHARS:
            forms = {value}
            for _ in range(PURGE_ESCAPES):
                forms |= {json.dumps(f, ensure_ascii=a)[1:-1] for f in forms for a in (True, False)}
            found |= forms
    return sorted(found)


def _delete(args: argparse.Namespace, workspace: Workspace, runs: RunRecords | None) -> int:
    """Delete the row and, with --purge-runs, the stored runs that hold its pii values (what
    the agents read of it; a run's records go whole, nothing else tells them apart). Runs
    holding them and neither option: nothing is deleted, the runs are listed."""
    spec = workspace.spec(args.document)
    row = workspace.row(spec.name, args.id)
    if row is None:
        raise WorkspaceError(f"{spec.name!r} has no row {args.id!r}")
    needles = pii_needles(spec, row) if runs is not None else []
    held = runs.holding(needles) if runs is not None and needles else []
    if held and not (args.purge_runs or args.keep_runs):
        print(
            f"{len(held)} stored runs ({runs.where if runs else ''}) hold pii values of "
            f"{args.id!r}: {', '.join(held)}. Nothing deleted: add --purge-runs to delete "
            "them with the row, or --keep-runs to delete the row only",
            file=sys.stderr,
        )
        return 2
    workspace.delete(spec.name, args.id)
    print(f"{args.id}: deleted")
    if held and runs is not None:
        if args.purge_runs:
            runs.purge(held)
        done = "deleted" if args.purge_runs else "kept"
        print(f"{done} {len(held)} stored runs holding its pii values ({runs.where}):")
        print("  " + ", ".join(held))
    return 0


def _fired_line(spec: DocumentSpec, firing: Firing) -> str:
    """`workspace <doc>: row <id> has <column>=<status>`. An id that is pii is masked and the
    row named by its place in `workspace list`, where its other values show (a hash of the
    id would name it nowhere a person can look)."""
    column = spec.column(spec.id_column or "")
    named = f"{MASK} (#{firing.position} listed)" if column and column.pii else firing.row["id"]
    pair = f"{firing.trigger.column}={firing.trigger.status}"
    return f"workspace {firing.document}: row {named} has {pair}"


def notify_line(spec: DocumentSpec, firing: Firing) -> str:
    """What a `notify` trigger prints: the document, the row and the pair (no pii)."""
    return f"{_fired_line(spec, firing)} (notify)"


def _post(url: str, body: dict[str, Any]) -> None:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        urllib.request.urlopen(request, timeout=10).close()  # noqa: S310 - the user's own URL
    except Exception as error:  # noqa: BLE001 - a bad URL or a failed post never stops watch
        print(f"watch: the webhook {WEBHOOK_ENV} failed: {error}", file=sys.stderr)


RUN_NOT_STARTED = 2
"""The runners' exit code for a run refused before it started (configuration, inputs)."""


def watch_once(workspace: Workspace, run_team: Callable[[], int]) -> int:
    """Evaluate the triggers once: print (and post) each `notify`, run the team once with
    the rows of every `run` trigger that fired. Fired triggers are recorded first, so a
    status change fires once even when the run fails; a run refused before it started
    (RUN_NOT_STARTED: a variable missing, a bad option) leaves them to fire again."""
    firings = workspace.evaluate()
    runs = []
    for firing in firings:
        spec = workspace.specs[firing.document]
        if firing.trigger.action == "notify":
            print(notify_line(spec, firing), flush=True)
            url = os.environ.get(WEBHOOK_ENV)
            if url:
                pii = {c.name for c in spec.columns if c.pii}
                data = {k: v for k, v in firing.row["data"].items() if k not in pii}
                _post(
                    url,
                    {
                        "document": firing.document,
                        "column": firing.trigger.column,
                        "status": firing.trigger.status,
                        "row": {**masked(spec, firing.row), "data": data},
                    },
                )
        else:
            runs.append(firing)
    if not runs:
        return 0
    for firing in runs:
        spec = workspace.specs[firing.document]
        print(f"{_fired_line(spec, firing)}: running the team", flush=True)
    run_context.TRIGGERED[:] = [
        {
            "document": f.document,
            "trigger": {"column": f.trigger.column, "status": f.trigger.status},
            "row": f.row,
        }
        for f in runs
    ]
    try:
        code = run_team()
    except SystemExit as refused:  # argparse: the run's options after `--`
        code = refused.code if isinstance(refused.code, int) else RUN_NOT_STARTED
    except BaseException:  # a crash or Ctrl-C before the run ended: the triggers stay due
        workspace.unfire(runs)
        raise
    finally:
        run_context.TRIGGERED.clear()
    if code == RUN_NOT_STARTED:
        workspace.unfire(runs)
        print(
            "watch: the run did not start (exit 2): these triggers fire again on the next check",
            file=sys.stderr,
        )
    return code


def watch_command(
    argv: Sequence[str],
    workspace: Workspace,
    run_team: Callable[[list[str]], int],
    command: str,
    url_help: str | None = None,
) -> int:
    """`<command> watch [--once] [--interval S] [-- RUN OPTIONS]` (checks.parse_run_options:
    the grammar of `poll` too); `url_help` as workspace_command's."""
    url = "" if url_help is None else "[--url URL] "
    parser = argparse.ArgumentParser(
        prog=f"{command} watch",
        usage=f"%(prog)s [-h] {url}[--once] [--interval S] {checks.RUN_OPTIONS_USAGE}",
        description="Evaluate the workspace triggers; run the team or notify when one fires. "
        f"RUN OPTIONS go to each run (inputs, --trace, ...: see {command} --help).",
    )
    _url_option(parser, url_help)
    parser.add_argument("--once", action="store_true", help="evaluate once and exit")
    parser.add_argument(
        "--interval", type=_seconds, default=60.0, metavar="S", help="seconds between polls"
    )
    args, run_args = checks.parse_run_options(parser, argv)
    code = 0
    while True:
        code = watch_once(workspace, lambda: run_team(run_args)) or code
        if args.once:
            return code
        time.sleep(args.interval)
