"""decision_files: a decisions file is kept while it holds a reviewer's work for the records
waiting now, and only then (a file applied before must not block the run's next pause)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from envelope_runtime import decision_files


def _lists(data: Any) -> dict[str, Any] | None:  # LangGraph's shape: gate -> decisions
    return data if isinstance(data, dict) else None


def test_only_work_for_records_waiting_now_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "t.decisions.json"
    text = json.dumps({"g": [{"record": "r1", "action": "approve", "feedback": ""}]})
    path.write_text(text)
    assert decision_files.filled(path, _lists, {"g": {"r1", "r2"}})
    assert decision_files.filled(path, _lists)  # any record's
    # applied before: the run now waits for round 2's records (or another gate)
    assert not decision_files.filled(path, _lists, {"g": {"r3"}})
    assert not decision_files.filled(path, _lists, {"other": {"r1"}})
    assert decision_files.must_keep(path, None, _lists, {"g": {"r1"}})
    # the file this command read is its own to replace, not to move aside
    assert not decision_files.must_keep(path, path, _lists, {"g": {"r1"}})
    decision_files.move_aside_stale(path, path, _lists)
    assert path.read_text() == text
    assert list(tmp_path.iterdir()) == [path]


def test_work_on_records_no_longer_waiting_is_moved_aside_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "t.decisions.json"
    text = json.dumps({"g": [{"record": "r1", "action": "approve", "feedback": ""}]})
    path.write_text(text)
    (tmp_path / "t.decisions.json.1").write_text("an earlier one")

    assert not decision_files.must_keep(path, None, _lists, {"g": {"r3"}})  # a template may come
    assert path.read_text() == text  # the question moves nothing
    decision_files.move_aside_stale(path, None, _lists)

    assert not path.exists()
    assert (tmp_path / "t.decisions.json.2").read_text() == text
    assert (tmp_path / "t.decisions.json.1").read_text() == "an earlier one"
    # a template (no one's work) is simply replaced
    path.write_text(json.dumps({"g": [{"record": "r3", "action": "", "feedback": ""}]}))
    assert not decision_files.must_keep(path, None, _lists, {"g": {"r4"}})
    decision_files.move_aside_stale(path, None, _lists)
    assert path.exists() and not (tmp_path / "t.decisions.json.3").exists()


def test_a_file_that_is_no_template_is_someones_work(tmp_path: Path) -> None:
    path = tmp_path / "t.decisions.json"
    assert not decision_files.filled(path, _lists, {"g": {"r1"}})  # none yet
    path.write_text('{"g": [{"record": "r1", "action": "appr')
    assert decision_files.filled(path, _lists, {})
    path.write_text(json.dumps({"g": ["r1"]}))
    assert decision_files.filled(path, _lists, {})
    path.write_text(json.dumps({"g": [{"record": "r1", "action": "", "feedback": " "}]}))
    assert not decision_files.filled(path, _lists, {"g": {"r1"}})


def test_a_template_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "t.decisions.json"
    decision_files.write_atomically(path, "{}\n")
    assert path.read_text() == "{}\n"
    assert [p.name for p in path.parent.iterdir()] == ["t.decisions.json"]


def test_a_write_reaches_the_disk_before_and_after_its_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file is synced before the rename, the folder after it."""
    calls: list[str] = []
    fsync, replace = decision_files.os.fsync, decision_files.os.replace

    def synced(fd: int) -> None:
        calls.append("folder" if Path(f"/proc/self/fd/{fd}").resolve() == tmp_path else "file")
        fsync(fd)

    def renamed(src: Path, dst: Path) -> None:
        calls.append("rename")
        replace(src, dst)

    monkeypatch.setattr(decision_files.os, "fsync", synced)
    monkeypatch.setattr(decision_files.os, "replace", renamed)
    decision_files.write_atomically(tmp_path / "d.json", "{}\n")

    assert calls == ["file", "rename", "folder"]
    assert (tmp_path / "d.json").read_text() == "{}\n"
