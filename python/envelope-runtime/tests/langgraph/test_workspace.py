"""The workspace on LangGraph's Store (envelope_runtime.langgraph.workspace_store): compare-and-set
holds across connections to the store file (a run, `watch`, a person's command and
`langgraph dev` each have their own), and a tool outside any graph uses the file."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from project import TEAM, team, workspace_store

pytestmark = pytest.mark.skipif(not hasattr(team, "WORKSPACE"), reason="the team has no workspace")


@pytest.fixture
def store_file(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("ENVELOPE_WORKSPACE_DB", str(tmp_path / "workspace.sqlite3"))
    workspace_store.forget_store_files()
    yield tmp_path / "workspace.sqlite3"
    workspace_store.forget_store_files()


def test_compare_and_set_waits_for_another_connection_holding_the_lock(store_file: Any) -> None:
    doc = next(iter(team.WORKSPACE))
    other = workspace_store.open_store()
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with other.exclusive():
            held.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    started = time.monotonic()
    threading.Timer(0.5, release.set).start()
    backend = workspace_store.open_workspace(TEAM, workspace_store.open_store()).backend
    record = {
        "id": "r1",
        "version": 1,
        "archived": False,
        "created_at": "",
        "updated_at": "",
        "data": {},
    }
    assert backend.put(doc, "r1", record, 0)
    waited = time.monotonic() - started
    holder.join()
    assert waited >= 0.4, waited
    assert not backend.put(doc, "r1", record, 0)  # it exists now: version 0 no longer holds


def test_a_tool_outside_a_graph_uses_the_store_file(store_file: Any) -> None:
    doc, spec = next(iter(team.WORKSPACE.items()))
    agent = spec.agents[0]
    listed = next(
        t for t in workspace_store.workspace_tools(TEAM, agent) if t.name.startswith("list_")
    )
    assert listed.invoke({}) == "[]"
    assert store_file.exists()
    assert workspace_store.open_workspace(TEAM).rows(doc) == []
