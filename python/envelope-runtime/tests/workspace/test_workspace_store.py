"""The workspace store's rules (envelope_runtime.workspace), run on the module itself, on each
backend: stdlib SQLite, LangGraph's SqliteStore and InMemoryStore, and the database of
DATABASE_URL (envelope_runtime.database, SQLAlchemy) on SQLite and, when
ENVELOPE_TEST_DATABASE_URL names a server, on PostgreSQL."""

from __future__ import annotations

import importlib
import os
import sys
import uuid
from pathlib import Path

import pytest

# The library's source: this checkout's, whether or not it is installed.
SRC = Path(__file__).parents[2] / "src"


@pytest.fixture(scope="module")
def ws_module():
    sys.path.insert(0, str(SRC))
    yield importlib.import_module("envelope_runtime.workspace")
    sys.path.remove(str(SRC))


@pytest.fixture(scope="module")
def postgres_url():
    """A database of its own on ENVELOPE_TEST_DATABASE_URL's server, dropped afterwards."""
    server = os.environ.get("ENVELOPE_TEST_DATABASE_URL")
    if not server:
        pytest.skip("no ENVELOPE_TEST_DATABASE_URL: the PostgreSQL backend is not tested here")
    sqlalchemy = pytest.importorskip("sqlalchemy")
    url = sqlalchemy.make_url(server).set(drivername="postgresql+psycopg")
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    name = f"envelope_ws_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    yield url.set(database=name).render_as_string(hide_password=False)
    sql = sys.modules.get("envelope_runtime.database")
    if sql is not None:  # its pooled connections would keep the database in use
        for engine in sql._ENGINES.values():
            engine.dispose()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
    admin.dispose()


def sql_backend(url):
    pytest.importorskip("sqlalchemy")
    return importlib.import_module("envelope_runtime.database").SqlBackend(url)


def sqlite_store_backend(m, path):
    """LangGraph's own SqliteStore behind StoreBackend (where langgraph is installed)."""
    sqlite = pytest.importorskip("langgraph.store.sqlite")
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    store = sqlite.SqliteStore(sqlite3.connect(path, check_same_thread=False, isolation_level=None))
    store.setup()
    return m.StoreBackend(store)


def leads_spec(m):
    return m.DocumentSpec(
        "leads",
        (
            m.Column("email", "agent", id=True, pii=True),
            m.Column("status", "both"),
            m.Column("note", "human"),
            m.Column("score", "agent", type="number"),
        ),
        status_values=("new", "ready"),
        status_columns=("status",),
        triggers=(m.Trigger("status", "ready", "run"), m.Trigger("status", "new", "notify")),
        agents=("a",),
    )


@pytest.fixture(params=["sqlite", "langgraph-store", "memory-store", "sql-sqlite", "sql-postgres"])
def ws(ws_module, tmp_path, request):
    m = ws_module
    spec = leads_spec(m)
    path = tmp_path / "db" / "ws.sqlite"
    if request.param == "sqlite":
        backend = m.SqliteBackend(path)
    elif request.param == "memory-store":  # the store `langgraph dev` brings
        memory = pytest.importorskip("langgraph.store.memory")
        backend = m.StoreBackend(memory.InMemoryStore())
    elif request.param == "sql-sqlite":
        path.parent.mkdir(parents=True)
        backend = sql_backend(f"sqlite:///{path}")
    elif request.param == "sql-postgres":
        url = request.getfixturevalue("postgres_url")
        backend = sql_backend(url)
        # one database for the module: each test starts from no rows
        for table in ("envelope_workspace_rows", "envelope_workspace_fired"):
            with backend.engine.begin() as conn:
                conn.exec_driver_sql(f"DELETE FROM {table}")
    else:
        backend = sqlite_store_backend(m, path)
    return m.Workspace({"leads": spec}, backend)


def outcome(results):
    return [(r.outcome, r.version) for r in results]


def test_agent_writes_and_id_column_addresses(ws):
    assert outcome(ws.write("leads", [{"data": {"email": "a@b.c", "status": "new"}}], "agent")) == [
        ("written", 1)
    ]
    assert ws.row("leads", "a@b.c")["data"] == {"email": "a@b.c", "status": "new"}


def test_human_column_refused_for_agents_only(ws):
    [refused] = ws.write("leads", [{"data": {"email": "a@b.c", "note": "x"}}], "agent")
    assert refused.outcome == "refused" and "people only" in refused.message
    assert ws.row("leads", "a@b.c") is None
    assert outcome(ws.write("leads", [{"data": {"email": "a@b.c", "note": "x"}}], "human")) == [
        ("written", 1)
    ]


def test_undeclared_status_and_wrong_type_refused(ws):
    [bad] = ws.write("leads", [{"data": {"email": "a@b.c", "status": "bogus"}}], "agent")
    assert bad.outcome == "refused" and "use one of new, ready" in bad.message
    [typed] = ws.write("leads", [{"data": {"email": "a@b.c", "score": "high"}}], "agent")
    assert typed.outcome == "refused"


def test_both_column_compare_and_set(ws):
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new"}}], "agent")
    [blind] = ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "agent")
    # no version to retry blindly with: the answer shows the shared values, read_ gives it
    assert (blind.outcome, blind.version) == ("conflict", None)
    assert '"status": "new"' in blind.message
    assert outcome(
        ws.write("leads", [{"version": 1, "data": {"email": "a@b.c", "status": "ready"}}], "agent")
    ) == [("written", 2)]
    [stale] = ws.write(
        "leads", [{"version": 1, "data": {"email": "a@b.c", "status": "new"}}], "agent"
    )
    assert stale.outcome == "conflict" and '"status": "ready"' in stale.message
    assert ws.row("leads", "a@b.c")["data"]["status"] == "ready"


def test_a_stale_version_is_a_conflict_even_when_the_row_holds_its_values(ws):
    # Two workers read score 1 at version 1 and both add one: the second write is stale, not
    # "no change", or one of the adds is lost.
    ws.write("leads", [{"data": {"email": "a@b.c", "score": 1}}], "agent")
    [first] = ws.write("leads", [{"id": "a@b.c", "version": 1, "data": {"score": 2}}], "agent")
    [second] = ws.write("leads", [{"id": "a@b.c", "version": 1, "data": {"score": 2}}], "agent")
    assert (first.outcome, first.version) == ("written", 2)
    assert second.outcome == "conflict"
    [current] = ws.write("leads", [{"id": "a@b.c", "version": 2, "data": {"score": 2}}], "agent")
    assert (current.outcome, current.version) == ("written", 2)  # at the current version: no change


def test_a_deleted_row_is_not_brought_back_by_a_write_that_read_it(ws):
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new"}}], "agent")
    ws.delete("leads", "a@b.c")
    [late] = ws.write("leads", [{"id": "a@b.c", "version": 1, "data": {"score": 3}}], "agent")
    assert late.outcome == "conflict" and "no row" in late.message
    assert ws.row("leads", "a@b.c") is None


def test_the_id_column_holds_the_row_id(ws):
    [moved] = ws.write("leads", [{"id": "a@b.c", "data": {"email": "x@y.z"}}], "human")
    assert moved.outcome == "refused" and "cannot change" in moved.message
    [new] = ws.write("leads", [{"data": {"score": 1}}], "agent")
    assert new.outcome == "refused" and "needs its id column 'email'" in new.message
    ws.write("leads", [{"id": "a@b.c", "data": {"score": 1}}], "human")
    assert ws.row("leads", "a@b.c")["data"] == {"score": 1, "email": "a@b.c"}


def test_an_unchanged_value_of_a_column_people_own_is_no_write(ws):
    ws.write("leads", [{"data": {"email": "a@b.c", "note": "keep"}}], "human")
    [same] = ws.write("leads", [{"id": "a@b.c", "data": {"note": "keep", "score": 2}}], "agent")
    assert same.outcome == "written"
    [noop] = ws.write("leads", [{"id": "a@b.c", "data": {"score": 2}}], "agent")
    assert (noop.outcome, noop.version) == ("written", 2)  # no change: no new version


def test_numbers_exact_and_finite(ws_module):
    column = ws_module.Column("n", "human", type="number")
    assert ws_module.coerce(column, "12345678901234567890") == 12345678901234567890
    for text in ("nan", "inf", "-inf"):
        with pytest.raises(ws_module.WorkspaceError):
            ws_module.coerce(column, text)


def test_rows_written_around_the_rules_do_not_break_the_document(ws_module, tmp_path):
    m = ws_module
    backend = sqlite_store_backend(m, tmp_path / "store.sqlite")  # the Store API is LangGraph's
    spec = m.DocumentSpec(
        "leads", (m.Column("email", "agent", id=True), m.Column("status", "both"))
    )
    ws = m.Workspace({"leads": spec}, backend)
    backend.store.put(("envelope_workspace", "leads"), "sdk1", {"data": {"status": "bogus"}})
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new"}}], "agent")
    assert [r["id"] for r in ws.rows("leads")] == ["a@b.c"]
    assert ws.row("leads", "sdk1") is None


def test_trigger_fires_once_per_status_change(ws):
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "human")
    assert [f.trigger.action for f in ws.evaluate()] == ["run"]
    assert ws.evaluate() == []
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new"}}], "human")
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "human")
    assert [f.trigger.action for f in ws.evaluate()] == ["run"]
    ws.archive("leads", "a@b.c")
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new"}}], "human")
    assert ws.evaluate() == []


def test_delete_is_hard_and_pii_masked(ws_module, ws):
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "human")
    ws.evaluate()
    shown = ws_module.masked(ws.specs["leads"], ws.row("leads", "a@b.c"))
    assert shown["id"] == "***" and shown["data"]["email"] == "***"
    assert ws.delete("leads", "a@b.c")
    assert ws.row("leads", "a@b.c") is None and ws.backend.fired("leads") == set()


def test_a_deleted_row_and_run_leave_no_bytes_in_a_sqlite_database_file(ws_module, tmp_path):
    """DATABASE_URL naming a SQLite file: what is deleted is overwritten (secure_delete), not
    left readable in the file's free pages, as with the SQLite file backend."""
    m = ws_module
    sqlalchemy = pytest.importorskip("sqlalchemy")

    # SQLite's default is secure_delete off, Debian's build turns it on: every connection
    # starts with it off here, as with SQLite's default (class-level listeners run before an
    # engine's own), so only the backend's own pragma can overwrite what is deleted.
    def off(dbapi_conn, _record):
        dbapi_conn.execute("PRAGMA secure_delete = OFF")

    sqlalchemy.event.listen(sqlalchemy.pool.Pool, "connect", off)
    try:
        plain = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'plain.sqlite'}")
        with plain.begin() as conn:  # that start leaves a deleted value in the file
            conn.exec_driver_sql("CREATE TABLE t (v TEXT)")
            conn.exec_driver_sql("INSERT INTO t VALUES ('left-in-free-space')")
            conn.exec_driver_sql("DELETE FROM t")
        plain.dispose()
        assert b"left-in-free-space" in (tmp_path / "plain.sqlite").read_bytes()
        _deleted_row_and_run_are_overwritten(m, tmp_path)
    finally:
        sqlalchemy.event.remove(sqlalchemy.pool.Pool, "connect", off)


def _deleted_row_and_run_are_overwritten(m, tmp_path):
    path = tmp_path / "shared.sqlite"
    url = f"sqlite:///{path}"
    spec = m.DocumentSpec("leads", (m.Column("email", "agent", id=True, pii=True),))
    ws = m.Workspace({"leads": spec}, sql_backend(url))
    secret = "gone-person@deleted.example"
    ws.write("leads", [{"data": {"email": secret}}], "human")
    ws.write("leads", [{"data": {"email": "kept@example.com"}}], "human")
    runs = importlib.import_module("envelope_runtime.database").RunTable(url)
    runs.write("r1", '{"inputs": {"who": "run-of-' + secret + '"}}')
    runs.write("r2", '{"inputs": {}}')
    assert secret.encode() in path.read_bytes()
    assert ws.delete("leads", secret)
    runs.remove("r1")
    assert ws.row("leads", "kept@example.com") is not None and runs.ids() == ["r2"]
    runs.engine.dispose()  # every pooled connection closed: the file is all there is
    assert secret.encode() not in path.read_bytes()


@pytest.mark.parametrize("server", ["sqlite", "postgres"])
def test_a_database_url_s_passwords_are_not_shown(ws_module, tmp_path, request, server):
    """Where messages name DATABASE_URL's database (RunTable.where), its passwords are hidden:
    the user's, and a `password` or `sslpassword` query parameter (libpq and psycopg take
    both from the URL's query)."""
    sqlalchemy = pytest.importorskip("sqlalchemy")
    database = importlib.import_module("envelope_runtime.database")
    if server == "sqlite":
        base = f"sqlite:///{tmp_path / 'runs.db'}"
    else:
        with_user = sqlalchemy.make_url(request.getfixturevalue("postgres_url"))
        base = with_user.set(password="in-user-part").render_as_string(hide_password=False)
    url = f"{base}?password=hunter22&sslpassword=Key%26Pass&application_name=envelope"
    if server == "sqlite":
        url = url.replace("application_name=envelope", "timeout=5")
    where = database.RunTable(url).where
    for secret in ("hunter22", "Key&Pass", "Key%26Pass", "in-user-part"):
        assert secret not in where
    assert where.startswith(f"the database at {base.split('://')[0]}://")
    assert "password=***" in where and "sslpassword=***" in where
    assert ("timeout=5" if server == "sqlite" else "application_name=envelope") in where


def test_tool_names_stay_within_64_characters(ws_module):
    m = ws_module
    assert m.tool_ident("speaker-queue") == "speaker_queue"
    long = "a" * 30 + "-" + "b" * 29
    ident = m.tool_ident(long)
    assert len(f"write_{ident}_rows") <= 64
    # the same as the exporter's toolIdent (src/targets/python-common/workspace-view.ts)
    assert ident == "a" * 30 + "_" + "b" * 10 + "_4bc0c9b3"
    assert m.tool_ident(long) != m.tool_ident(long[:-1] + "c")


def test_write_tool_takes_any_column_name(ws_module, tmp_path):
    m = ws_module
    spec = m.DocumentSpec(
        "odd",
        (
            m.Column("first name", "agent", id=True),
            m.Column("model_config", "agent"),
            m.Column("_hidden", "human"),
        ),
    )
    workspace = m.Workspace({"odd": spec}, m.SqliteBackend(tmp_path / "odd.sqlite"))
    schema = m.write_schema(spec)
    args = schema.model_validate(
        {"rows": [{"data": {"first name": "Ann", "model_config": "x", "_hidden": "y"}}]}
    )
    tools = m.DocumentTools(spec, lambda: workspace)
    answer = tools.write_rows(args.rows)
    assert '"outcome": "refused"' in answer and "_hidden" in answer
    args = schema.model_validate({"rows": [{"data": {"first name": "Ann", "model_config": "x"}}]})
    assert '"outcome": "written"' in tools.write_rows(args.rows)
    assert workspace.row("odd", "Ann")["data"] == {"first name": "Ann", "model_config": "x"}


def test_write_schema_takes_a_column_pydantic_cannot_name(ws_module):
    m = ws_module
    spec = m.DocumentSpec("d", (m.Column("_internal", "agent"), m.Column("a", "agent")))
    rows = m.write_schema(spec).model_validate({"rows": [{"data": {"_internal": "x", "a": "y"}}]})
    assert rows.model_dump(by_alias=True)["rows"][0]["data"] == {"_internal": "x", "a": "y"}


def test_a_run_refused_before_it_started_leaves_its_trigger_to_fire_again(ws_module, ws):
    m = ws_module
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "human")
    runs = []

    def refused() -> int:
        runs.append(list(m.run_context.TRIGGERED))
        return m.RUN_NOT_STARTED

    assert m.watch_once(ws, refused) == m.RUN_NOT_STARTED
    assert m.watch_once(ws, lambda: 1) == 1  # fired again; a failed run is not retried
    assert m.watch_once(ws, lambda: 0) == 0
    assert len(runs) == 1 and runs[0][0]["row"]["id"] == "a@b.c"
    assert [f.trigger.action for f in ws.evaluate()] == []


def test_bad_run_options_after_the_separator_are_a_refused_run(ws_module, ws):
    m = ws_module
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "human")

    def bad_options() -> int:
        raise SystemExit(2)

    assert m.watch_once(ws, bad_options) == 2
    assert [f.trigger.status for f in ws.evaluate(mark=False)] == ["ready"]


def test_people_export_and_import_rows_as_csv_and_json(ws_module, ws, tmp_path, capsys):
    m = ws_module
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new", "score": 3}}], "agent")
    ws.write("leads", [{"id": "a@b.c", "data": {"note": "call back"}}], "human")
    for fmt in ("csv", "json"):
        out = tmp_path / f"leads.{fmt}"
        code = m.workspace_command(["export", "leads", "--format", fmt, "--out", str(out)], ws, "t")
        assert code == 0
        assert "a@b.c" not in out.read_text()  # pii masked unless asked
        args = ["export", "leads", "--format", fmt, "--out", str(out), "--include-pii"]
        assert m.workspace_command(args, ws, "t") == 0
        assert "a@b.c" in out.read_text()
    # A spreadsheet's CSV (with a BOM) changes the row; a JSON file adds one.
    csv_file = tmp_path / "in.csv"
    csv_file.write_text("\ufeffemail,status,note,score\na@b.c,ready,called,4\n", encoding="utf-8")
    assert m.workspace_command(["import", "leads", str(csv_file)], ws, "t") == 0
    assert ws.row("leads", "a@b.c")["data"] == {
        "email": "a@b.c",
        "status": "ready",
        "note": "called",
        "score": 4,
    }
    json_file = tmp_path / "in.json"
    json_file.write_text('[{"email": "d@e.f", "status": "new"}]', encoding="utf-8")
    assert m.workspace_command(["import", "leads", str(json_file)], ws, "t") == 0
    assert [r["id"] for r in ws.rows("leads")] == ["a@b.c", "d@e.f"]
    capsys.readouterr()
    # What an import refuses is said, with exit 2, and writes nothing.
    for bad in (
        '["x", "y"]',
        '{"email": "x@y.z"}',
        '[{"data": {"email": "x@y.z"}, "archived": "no"}]',
    ):
        json_file.write_text(bad, encoding="utf-8")
        assert m.workspace_command(["import", "leads", str(json_file)], ws, "t") == 2
        assert "workspace:" in capsys.readouterr().err
    json_file.write_bytes(b"\xff\xfe not utf-8")
    assert m.workspace_command(["import", "leads", str(json_file)], ws, "t") == 2
    # Text that is not JSON: the file named, and what an import takes.
    capsys.readouterr()
    json_file.write_text("email status\nx@y.z ready\n", encoding="utf-8")
    assert m.workspace_command(["import", "leads", str(json_file)], ws, "t") == 2
    said = capsys.readouterr().err
    assert str(json_file) in said and "a .csv file or a JSON list of rows" in said
    assert len(ws.rows("leads")) == 2


def test_people_archive_and_bring_back_a_row(ws_module, ws):
    m = ws_module
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "ready"}}], "human")
    assert m.workspace_command(["archive", "leads", "a@b.c"], ws, "t") == 0
    assert ws.rows("leads") == [] and ws.evaluate() == []
    assert [r["id"] for r in ws.rows("leads", archived=True)] == ["a@b.c"]
    assert m.workspace_command(["archive", "leads", "a@b.c", "--undo"], ws, "t") == 0
    assert [f.trigger.action for f in ws.evaluate()] == ["run"]
    assert m.workspace_command(["delete", "leads", "nobody"], ws, "t") == 2


def test_rows_keep_their_creation_order_when_written(ws):
    for email in ("a@b.c", "d@e.f"):
        ws.write("leads", [{"data": {"email": email, "status": "new"}}], "human")
    ws.write("leads", [{"id": "a@b.c", "data": {"note": "later"}}], "human")
    assert [r["id"] for r in ws.rows("leads")] == ["a@b.c", "d@e.f"]


def test_a_masked_export_says_which_values_are_masks(ws_module, ws, tmp_path):
    m = ws_module
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new", "note": "***"}}], "human")
    for fmt in ("csv", "json"):
        out = tmp_path / f"leads.{fmt}"
        assert (
            m.workspace_command(["export", "leads", "--format", fmt, "--out", str(out)], ws, "t")
            == 0
        )
        text = out.read_text()
        assert "a@b.c" not in text
        if fmt == "csv":
            header = text.splitlines()[0].split(",")
            assert header[:3] == ["id (masked)", "email (masked)", "status"]
        else:
            [row] = m.json.loads(text)
            assert row["masked"] == ["id", "email"]
            assert row["data"]["note"] == "***"  # a person's value, not a mask: unmarked


def test_an_import_skips_the_masks_of_a_masked_export(ws_module, ws, tmp_path, capsys):
    m = ws_module
    ws.write("leads", [{"data": {"email": "a@b.c", "status": "new", "score": 1}}], "human")
    before = ws.row("leads", "a@b.c")
    for fmt in ("csv", "json"):
        out = tmp_path / f"leads.{fmt}"
        assert (
            m.workspace_command(["export", "leads", "--format", fmt, "--out", str(out)], ws, "t")
            == 0
        )
        capsys.readouterr()
        # The id column is pii: the row cannot be addressed, so nothing is written.
        assert m.workspace_command(["import", "leads", str(out)], ws, "t") == 1
        err = capsys.readouterr().err
        assert "row 1: refused: its id is masked in this file" in err
        assert "masked cells of id (1), email (1) were left as they are" in err
        assert ws.rows("leads") == [before]
    # A value typed into a masked column is a value; "***" there is the mask.
    typed = tmp_path / "typed.csv"
    typed.write_text("id (masked),email (masked),score\n***,d@e.f,2\n***,***,3\n", encoding="utf-8")
    assert m.workspace_command(["import", "leads", str(typed)], ws, "t") == 1
    out = capsys.readouterr()
    assert "d@e.f: written (version 1)" in out.out
    assert "row 2: refused: its id is masked" in out.err
    assert [r["id"] for r in ws.rows("leads")] == ["a@b.c", "d@e.f"]
    # Without the marker "***" is what a person typed, and it is stored.
    plain = tmp_path / "plain.json"
    plain.write_text('[{"id": "a@b.c", "data": {"note": "***"}}]', encoding="utf-8")
    assert m.workspace_command(["import", "leads", str(plain)], ws, "t") == 0
    assert ws.row("leads", "a@b.c")["data"]["note"] == "***"
    plain.write_text('[{"id": "a@b.c", "data": {}, "masked": "email"}]', encoding="utf-8")
    assert m.workspace_command(["import", "leads", str(plain)], ws, "t") == 2
    assert "masked is a list of field names" in capsys.readouterr().err


def test_a_shown_export_round_trips_exactly(ws_module, ws, tmp_path, capsys):
    m = ws_module
    ws.write("leads", [{"data": {"email": "***", "status": "new", "score": 1.5}}], "human")
    ws.write("leads", [{"data": {"email": "a@b.c", "note": 'x, "y"\nz', "score": 7}}], "human")
    ws.archive("leads", "a@b.c")
    (tmp_path / "leads.json").write_text("an older file, open to all", encoding="utf-8")
    (tmp_path / "leads.json").chmod(0o644)
    for fmt in ("csv", "json"):
        out = tmp_path / f"leads.{fmt}"
        args = ["export", "leads", "--archived", "--format", fmt, "--out", str(out), "--show-pii"]
        assert m.workspace_command(args, ws, "t") == 0
        # Unmasked pii: readable by its owner only, a new file and an existing one alike.
        assert out.stat().st_mode & 0o777 == 0o600
        rows = ws.rows("leads", archived=True)
        assert m.workspace_command(["import", "leads", str(out)], ws, "t") == 0
        assert capsys.readouterr().err == ""
        assert ws.rows("leads", archived=True) == rows  # no change, no new version


def test_a_masked_csv_export_whose_header_would_name_another_column_is_refused(
    ws_module, tmp_path, capsys
):
    m = ws_module
    spec = m.DocumentSpec(
        "people",
        (m.Column("email", "human", id=True, pii=True), m.Column("email (masked)", "human")),
    )
    ws = m.Workspace({"people": spec}, m.SqliteBackend(tmp_path / "p.sqlite"))
    ws.write("people", [{"data": {"email": "a@b.c", "email (masked)": "a…"}}], "human")
    out = tmp_path / "people.csv"
    assert (
        m.workspace_command(["export", "people", "--format", "csv", "--out", str(out)], ws, "t")
        == 2
    )
    assert "'email (masked)', the name of another column" in capsys.readouterr().err
    assert not out.exists()
    args = ["export", "people", "--format", "json", "--out", str(out)]
    assert m.workspace_command(args, ws, "t") == 0


def test_a_writer_that_claimed_the_version_first_wins_on_a_store_without_a_lock(ws_module):
    """Two replicas of a server share its store and no lock: the write after version n
    goes to the first claim stored, another writer's conflicts; a stale claim (a writer
    that stopped before writing) does not block the row."""
    memory = pytest.importorskip("langgraph.store.memory")
    m = ws_module
    store = memory.InMemoryStore()
    backend = m.StoreBackend(store)
    record = {"id": "r1", "version": 1, "data": {}, "created_at": "t", "updated_at": "t"}
    record["archived"] = False
    assert backend.put("leads", "r1", record, 0)
    claims = ("envelope_workspace_claims", "leads")
    other = f"{m._claim_prefix('r1')}{1:012d}:another-replica"
    store.put(claims, other, {"claimed": True})
    assert not backend.put("leads", "r1", {**record, "version": 2}, 1)
    assert backend.get("leads", "r1")["version"] == 1
    on_version_1 = [i.key for i in store.search(claims) if ":000000000001:" in i.key]
    assert on_version_1 == [other]  # the losing writer took its claim back

    backend.CLAIM_TTL_S = 0  # the other replica's claim is now stale
    assert backend.put("leads", "r1", {**record, "version": 2}, 1)
    assert backend.get("leads", "r1")["version"] == 2
    backend.delete("leads", "r1")
    assert store.search(claims) == []


def test_a_killed_watcher_s_claim_is_deleted_once_stale(ws_module):
    """A watcher killed between its claim on a firing and the firing's mark (a store without
    a lock) left its claim in the store for good, only ignored once stale. The next claim in
    the document deletes every stale one: this firing's, and another's whose watcher was
    killed after its mark, before taking its claim back."""
    memory = pytest.importorskip("langgraph.store.memory")
    m = ws_module
    store = memory.InMemoryStore()
    ws = m.Workspace({"leads": leads_spec(m)}, m.StoreBackend(store))
    ready_rows(ws, 1)
    [marker] = [f.marker for f in ws.evaluate(mark=False)]
    claims = ("envelope_workspace_fired_claims", "leads")
    store.put(claims, m._claim_prefix(marker) + "killed", {"claimed": True})
    store.put(claims, m._claim_prefix("fired before") + "killed", {"claimed": True})
    assert ws.evaluate() == []  # fresh: the killed watcher may yet mark it
    ws.backend.CLAIM_TTL_S = 0  # both claims are now stale
    assert [f.marker for f in ws.evaluate()] == [marker]
    assert store.search(claims) == []


def test_concurrent_writers_lose_no_row_and_no_update(ws):
    """Writers at once (threads here; processes on PostgreSQL in test/realpath): every new
    row is kept, and a note each writer extends by read-then-write at the version it read
    (again after a conflict) ends with every writer's every addition: no update is lost."""
    import threading

    ws.write("leads", [{"data": {"email": "shared@x", "note": ""}}], "human")

    def writer(n: int) -> None:
        for i in range(8):
            ws.write("leads", [{"data": {"email": f"w{n}-{i}@x", "status": "new"}}], "agent")
            while True:
                row = ws.row("leads", "shared@x")
                item = {"id": "shared@x", "version": row["version"]}
                item["data"] = {"note": f"{row['data']['note']} w{n}-{i}"}
                if ws.write("leads", [item], "human")[0].outcome == "written":
                    break

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ws.rows("leads")) == 1 + 4 * 8
    note = ws.row("leads", "shared@x")["data"]["note"].split()
    assert sorted(note) == sorted(f"w{n}-{i}" for n in range(4) for i in range(8))


def evaluate_at_once(workspaces):
    """Each workspace's evaluate() in a thread of its own, all having read the rows (and the
    fired triggers before them) before any marks a firing: the watchers' race, every time."""
    import threading

    barrier = threading.Barrier(len(workspaces), timeout=60)  # a failed thread: no hang
    fired, errors = [[] for _ in workspaces], []

    def watcher(n, ws):
        try:
            fired[n] = [f.marker for f in ws.evaluate()]
        except Exception as error:  # reported below, not lost in the thread
            errors.append(error)
            barrier.abort()

    backends = {id(ws.backend): ws.backend for ws in workspaces}.values()
    for backend in backends:
        backend.all = lambda doc, read=backend.all: (read(doc), barrier.wait())[0]
    threads = [threading.Thread(target=watcher, args=item) for item in enumerate(workspaces)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for backend in backends:
        del backend.all
    assert errors == []
    return [marker for markers in fired for marker in markers]


def ready_rows(ws, count=3):
    rows = [{"data": {"email": f"{n}@x", "status": "ready"}} for n in range(count)]
    assert [r.outcome for r in ws.write("leads", rows, "human")] == ["written"] * count


def test_watchers_at_once_fire_each_change_once(ws):
    """Four `watch` threads of one process evaluate at once: each change fires in one."""
    ready_rows(ws)
    fired = evaluate_at_once([ws] * 4)
    assert len(fired) == 3 and len(set(fired)) == 3
    assert ws.evaluate() == []


class OneOpAtATime:
    """A store whose every operation is atomic, as a database's are (InMemoryStore's are not
    across threads): the store of a server's replicas, with no lock across them."""

    def __init__(self, store):
        import threading

        self.store, self.lock = store, threading.Lock()

    def __getattr__(self, name):
        op = getattr(self.store, name)

        def locked(*args, **kwargs):
            with self.lock:
                return op(*args, **kwargs)

        return locked


@pytest.mark.parametrize("shared", ["file-lock", "claims"])
def test_watchers_of_their_own_processes_fire_each_change_once(
    ws_module, tmp_path, monkeypatch, shared
):
    """`watch` processes over one store (each backend with a lock of its own, as each
    process's is): on open_store's file its lock decides, so one fires each change; on a
    store without a lock (a server's PostgreSQL) claims do: at most one fires it, maybe none
    when they contend, and then the next evaluation does."""
    import threading

    m = ws_module
    if shared == "file-lock":
        pytest.importorskip("langgraph.store.sqlite")
        store_module = importlib.import_module("envelope_runtime.langgraph.workspace_store")
        monkeypatch.setenv(m.DB_ENV, str(tmp_path / "ws.sqlite"))
        monkeypatch.delenv("DATABASE_URL", raising=False)
        stores = [store_module.open_store() for _ in range(3)]
    else:
        memory = pytest.importorskip("langgraph.store.memory")
        stores = [OneOpAtATime(memory.InMemoryStore())] * 3
    workspaces = []
    for store in stores:
        backend = m.StoreBackend(store)
        backend._lock = threading.Lock()
        workspaces.append(m.Workspace({"leads": leads_spec(m)}, backend))
    ready_rows(workspaces[0])
    fired = evaluate_at_once(workspaces)
    assert len(fired) == len(set(fired))
    if shared == "file-lock":
        assert len(fired) == 3
    fired += [f.marker for f in workspaces[1].evaluate()]
    assert len(fired) == 3 and len(set(fired)) == 3
    assert workspaces[2].evaluate() == []


def test_watch_names_a_row_whose_id_is_pii_by_its_place_in_the_list(ws_module, ws, capsys):
    """`row ***` told the reader nothing: a row whose id is pii is named by its place in
    `workspace list` (archived rows left out, as there), and no pii value is printed."""
    m = ws_module
    # ids in creation order: a Store lists the rows of one second by id
    rows = [("a-gone@x.org", "new"), ("b-quiet@x.org", None), ("c-new@x.org", "new")]
    rows.append(("d-ready@x.org", "ready"))
    for email, status in rows:
        data = {"email": email} if status is None else {"email": email, "status": status}
        assert ws.write("leads", [{"data": data}], "human")[0].outcome == "written"
    ws.archive("leads", "a-gone@x.org")
    assert m.watch_once(ws, lambda: 0) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "workspace leads: row *** (#2 listed) has status=new (notify)",
        "workspace leads: row *** (#3 listed) has status=ready: running the team",
    ]
    assert m.workspace_command(["list", "leads"], ws, "t") == 0
    listed = capsys.readouterr().out.splitlines()
    assert 'status="new"' in listed[1] and 'status="ready"' in listed[2]
    assert "@x.org" not in out + err + "".join(listed)


LISTED = {
    "archived": '- *** v2 (archived) email="***" status="new"',
    "ready": '#1 *** v1 email="***" status="ready"',
    "new": '#2 *** v1 email="***" status="new"',
}


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ([], ["ready", "new"]),
        (["--archived"], ["archived", "ready", "new"]),
        (["--status", "new"], ["new"]),
        (["--status", "new", "--archived"], ["archived", "new"]),
    ],
)
def test_workspace_list_numbers_its_rows_as_watch_names_them(ws_module, ws, capsys, options, shown):
    """`workspace list` printed no place: a person counted rows to find watch's
    `*** (#N listed)`, wrongly in a --status or --archived list. Each non-archived row leads
    with the #N watch's lines use; an archived row (not counted) with `-`."""
    m = ws_module
    for email, status in (("a-gone@x.org", "new"), ("b@x.org", "ready"), ("c@x.org", "new")):
        ws.write("leads", [{"data": {"email": email, "status": status}}], "human")
    ws.archive("leads", "a-gone@x.org")
    assert m.watch_once(ws, lambda: 0) == 0
    assert capsys.readouterr().out.splitlines() == [
        "workspace leads: row *** (#2 listed) has status=new (notify)",
        "workspace leads: row *** (#1 listed) has status=ready: running the team",
    ]
    assert m.workspace_command(["list", "leads", *options], ws, "t") == 0
    assert capsys.readouterr().out.splitlines() == [LISTED[s] for s in shown]


def test_the_store_file_is_readable_by_its_owner_only(ws_module, tmp_path, monkeypatch):
    # Its rows hold pii: created 0600 (SQLite gives its journal the same mode); a file the
    # user made keeps the mode it has.
    import stat

    m = ws_module
    mode = lambda p: stat.S_IMODE(p.stat().st_mode)  # noqa: E731
    m.SqliteBackend(tmp_path / "core" / "ws.sqlite")
    assert mode(tmp_path / "core" / "ws.sqlite") == 0o600
    mine = tmp_path / "mine.sqlite"
    mine.touch(mode=0o640)
    mine.chmod(0o640)
    m.SqliteBackend(mine)
    assert mode(mine) == 0o640


def test_the_langgraph_runners_store_file_is_readable_by_its_owner_only(
    ws_module, tmp_path, monkeypatch
):
    import stat

    pytest.importorskip("langgraph.store.sqlite")  # LangGraph's environment only
    from envelope_runtime.langgraph import workspace_store

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ENVELOPE_WORKSPACE_DB", str(tmp_path / "runner" / "ws.sqlite"))
    workspace_store.open_store()
    assert stat.S_IMODE((tmp_path / "runner" / "ws.sqlite").stat().st_mode) == 0o600


@pytest.mark.parametrize("interval", ["0", "-5", "nan", "soon"])
def test_watch_refuses_an_interval_that_is_not_a_pause(ws_module, ws, interval, capsys):
    # 0 would evaluate the triggers in a loop without a pause.
    with pytest.raises(SystemExit) as stopped:
        ws_module.watch_command(["--once", "--interval", interval], ws, lambda _: 0, "t")
    assert stopped.value.code == 2
    assert "a number of seconds above 0" in capsys.readouterr().err
