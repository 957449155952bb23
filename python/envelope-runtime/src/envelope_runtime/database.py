"""A CrewAI team's runs and workspace in the database DATABASE_URL names (SQLAlchemy Core),
so processes on several machines share them: a gate paused by one resumes from another, and
workers writing rows lose none. Imported only when DATABASE_URL is set (the `postgres`
extra); without it runs are JSON files and the workspace a SQLite file, as before.

Tables: `envelope_runs` (a run's state, the text its JSON file would hold),
`envelope_workspace_rows` and `envelope_workspace_fired` (workspace.Backend's). A row's write
is compare-and-set in one statement (an UPDATE on the version it read, an INSERT that the
primary key refuses twice), so it is atomic on any database SQLAlchemy speaks.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote_plus

from sqlalchemy import (
    Column,
    Engine,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

__all__ = ["RunTable", "SqlBackend", "engine", "shown_url"]

_META = MetaData()
# Text keys: a row's id is whatever its id column holds, with no length of its own.
RUNS = Table(
    "envelope_runs",
    _META,
    Column("id", Text, primary_key=True),
    Column("data", Text, nullable=False),
)
ROWS = Table(
    "envelope_workspace_rows",
    _META,
    # Creation order: rows list in it, as on SQLite (its rowid).
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("doc", Text, nullable=False),
    Column("id", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("record", Text, nullable=False),
    UniqueConstraint("doc", "id"),
)
FIRED = Table(
    "envelope_workspace_fired",
    _META,
    Column("doc", Text, primary_key=True),
    Column("marker", Text, primary_key=True),
)


_ENGINES: dict[str, Engine] = {}


def engine(url: str) -> Engine:
    """One engine (connection pool) per URL in a process, its tables made if missing. A
    libpq URL (`postgresql://`, what LangGraph's and most hosts' DATABASE_URL is) means
    psycopg 3, the driver the `postgres` extra installs (SQLAlchemy's default is psycopg2)."""
    if url not in _ENGINES:
        parsed = make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        # An error's message names no statement parameters: they are rows' values (PII).
        made = create_engine(parsed, pool_pre_ping=True, hide_parameters=True)
        if made.dialect.name == "sqlite":
            event.listen(made, "connect", _secure_delete)
        try:
            _META.create_all(made)  # the tables that are missing
        except DBAPIError:  # made meanwhile by another process starting at the same moment
            _META.create_all(made)
        _ENGINES[url] = made
    return _ENGINES[url]


def _secure_delete(dbapi_conn: Any, _record: Any) -> None:
    """A SQLite file overwrites what is deleted (a deleted person's row, a purged run) instead
    of leaving it readable in its free pages, as workspace.SqliteBackend's does: whatever the
    build's default (SQLite's own is off; Debian's build turns it on)."""
    cursor = dbapi_conn.cursor()
    try:
        cursor.execute("PRAGMA secure_delete = ON")
    finally:
        cursor.close()


_SECRET_QUERY = ("password", "sslpassword")
"""Query parameters that hold a password: libpq and psycopg take their connection keywords from
a URL's query too (`postgresql://host/db?password=...`), as SQLAlchemy's drivers pass them."""


def shown_url(url: str) -> str:
    """`url` for messages: its password hidden, the user's and any in its query."""
    parsed = make_url(url)
    query = [
        f"{quote_plus(key)}={'***' if key.lower() in _SECRET_QUERY else quote_plus(one)}"
        for key, value in parsed.query.items()
        for one in ((value,) if isinstance(value, str) else value)
    ]
    text = parsed.set(query={}).render_as_string(hide_password=True)
    return f"{text}?{'&'.join(query)}" if query else text


class RunTable:
    """The runs (state.RunStore's storage when DATABASE_URL is set): one row per run."""

    def __init__(self, url: str) -> None:
        self.engine = engine(url)
        self.where = f"the database at {shown_url(url)}"

    def read(self, run_id: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.scalar(select(RUNS.c.data).where(RUNS.c.id == run_id))

    def write(self, run_id: str, text: str) -> None:
        with self.engine.begin() as conn:
            if conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(data=text)).rowcount:
                return
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(RUNS).values(id=run_id, data=text))
        except IntegrityError:  # inserted meanwhile by another process: the last write wins
            with self.engine.begin() as conn:
                conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(data=text))

    def swap(self, run_id: str, read: str, text: str) -> bool:
        """`text` in place of `read`, only if the row still holds it (compare-and-set: of two
        processes that read one version, the second's UPDATE waits for the first's and then
        matches no row)."""
        where = (RUNS.c.id == run_id) & (RUNS.c.data == read)
        with self.engine.begin() as conn:
            return bool(conn.execute(update(RUNS).where(where).values(data=text)).rowcount)

    def ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.scalars(select(RUNS.c.id).order_by(RUNS.c.id)))

    def remove(self, run_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(RUNS).where(RUNS.c.id == run_id))


class SqlBackend:
    """workspace.Backend on the database: `put` is compare-and-set on the row's version."""

    def __init__(self, url: str) -> None:
        self.engine = engine(url)

    def _row(self, doc: str, row_id: str) -> Any:
        return (ROWS.c.doc == doc) & (ROWS.c.id == row_id)

    def get(self, doc: str, row_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            found = conn.scalar(select(ROWS.c.record).where(self._row(doc, row_id)))
        return None if found is None else json.loads(found)

    def put(self, doc: str, row_id: str, record: dict[str, Any], expected: int | None) -> bool:
        values = {"version": record["version"], "record": json.dumps(record, ensure_ascii=False)}
        if expected != 0:
            # The row at the version read, else nothing: of two writers after one version,
            # the second's UPDATE waits for the first's and then matches no row.
            where = self._row(doc, row_id)
            if expected is not None:
                where = where & (ROWS.c.version == expected)
            with self.engine.begin() as conn:
                if conn.execute(update(ROWS).where(where).values(**values)).rowcount:
                    return True
            if expected is not None:
                return False
        try:  # a new row: the unique (doc, id) refuses a second
            with self.engine.begin() as conn:
                conn.execute(insert(ROWS).values(doc=doc, id=row_id, **values))
            return True
        except IntegrityError:
            return False

    def delete(self, doc: str, row_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(ROWS).where(self._row(doc, row_id)))

    def all(self, doc: str) -> list[dict[str, Any]]:
        query = select(ROWS.c.record).where(ROWS.c.doc == doc).order_by(ROWS.c.seq)
        with self.engine.connect() as conn:
            return [json.loads(record) for record in conn.scalars(query)]

    def fired(self, doc: str) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.scalars(select(FIRED.c.marker).where(FIRED.c.doc == doc)))

    def mark(self, doc: str, marker: str) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(FIRED).values(doc=doc, marker=marker))
            return True
        except IntegrityError:  # another watcher marked it first: it fires there
            return False

    def unmark(self, doc: str, prefix: str) -> None:
        with self.engine.begin() as conn:
            where = (FIRED.c.doc == doc) & FIRED.c.marker.startswith(prefix, autoescape=True)
            conn.execute(delete(FIRED).where(where))
