"""What state.RunStore writes of a run: no secret value of the team, wherever in the run
it shows (a gate's message and problems quote what a reviewer or a step gave)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from envelope_runtime.crewai import state
from envelope_runtime.crewai.state import RunState, RunStore
from envelope_runtime.gates import GateRecord, GateState

SECRET = "s3cret-value-5e7a91"


def test_a_saved_run_shows_no_secret_value_of_its_gates(tmp_path: Path) -> None:
    gate = GateState(
        status="halted",
        message=f"gate g: halted by the reviewer, who wrote {SECRET}",
        problems=[f"record 'r1': unknown action {SECRET!r}"],
        records=[GateRecord(id="r1", round=1, data={"note": SECRET}, feedback=SECRET)],
    )
    run = RunState(status="halted", message=f"halted: {SECRET}", gates={"g": gate})
    store = RunStore(tmp_path, [SECRET])
    store.save_state(run.id, "review", run)
    text = store.text(run.id) or ""
    assert SECRET not in text
    assert "halted by the reviewer" in text and "unknown action" in text


def test_a_saved_run_is_on_disk_before_its_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an unsynced rename a power cut can leave an empty run file (ext4, XFS)."""
    calls: list[str] = []
    fsync, replace = os.fsync, os.replace
    monkeypatch.setattr(state.os, "fsync", lambda fd: (calls.append("fsync"), fsync(fd))[1])
    monkeypatch.setattr(
        state.os, "replace", lambda a, b: (calls.append("rename"), replace(a, b))[1]
    )
    run = RunState(status="running")
    RunStore(tmp_path).save_state(run.id, "runner", run)
    assert calls[:2] == ["fsync", "rename"]
