"""The workspace on LangGraph's Store (envelope_runtime.langgraph.workspace_store): compare-and-set
holds across connections to the store file (a run, `watch`, a person's command and
`langgraph dev` each have their own), and a tool outside any graph uses the file."""

from __future__ import annotations

import sys
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


EXCLUSIVE = workspace_store.WorkspaceStore.exclusive.__wrapped__.__code__  # type: ignore[attr-defined]
"""The code of the store's lock (`exclusive`, under its @contextmanager)."""


def _waiting_in_the_lock(thread: threading.Thread) -> bool:
    """The thread is in the store's `exclusive`, connected to the lock file and not yet
    holding the lock: sqlite waits there (in C, so that frame is the thread's innermost)
    while another connection holds it."""
    frame = sys._current_frames().get(thread.ident or 0)
    return frame is not None and frame.f_code is EXCLUSIVE and "lock" in frame.f_locals


def test_compare_and_set_waits_for_another_connection_holding_the_lock(store_file: Any) -> None:
    doc = next(iter(team.WORKSPACE))
    other = workspace_store.open_store()
    backend = workspace_store.open_workspace(TEAM, workspace_store.open_store()).backend
    record = {
        "id": "r1",
        "version": 1,
        "archived": False,
        "created_at": "",
        "updated_at": "",
        "data": {},
    }
    events: list[str] = []
    stored: list[bool] = []

    def put() -> None:
        stored.append(backend.put(doc, "r1", record, 0))
        events.append("put")

    putter = threading.Thread(target=put)
    with other.exclusive():
        putter.start()
        # Until the put waits for the lock (or, not waiting, is done): no time is guessed.
        for _ in range(30_000):  # a bound that only stops a broken test
            if _waiting_in_the_lock(putter) or not putter.is_alive():
                break
            time.sleep(0.001)
        events.append("released")
    putter.join(timeout=30)

    assert not putter.is_alive()
    assert events == ["released", "put"], "the put did not wait for the other connection"
    assert stored == [True]
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
