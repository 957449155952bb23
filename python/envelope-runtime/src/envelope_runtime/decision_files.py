"""The decisions file a run waiting at its gates gets beside its state (both targets):
never written over a reviewer's work, and written whole."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Collection, Mapping
from itertools import count
from pathlib import Path
from typing import Any

Lists = Callable[[Any], Mapping[str, Any] | None]
"""A decisions file's data -> each gate's list of decisions, by gate (None: not its shape)."""


def filled(
    path: Path, decision_lists: Lists, waiting: Mapping[str, Collection[str]] | None = None
) -> bool:
    """Whether a decisions file holds a reviewer's work for the records `waiting` now (gate ->
    record ids; None: for any record): an action or feedback for one of them, or text that is
    not a template (half-edited JSON is someone's work too)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True
    lists = decision_lists(data)
    if lists is None:
        return True
    for gate, items in lists.items():
        for item in items if isinstance(items, list) else [None]:
            if not isinstance(item, dict):
                return True
            given = any(str(item.get(key) or "").strip() for key in ("action", "feedback"))
            if given and (waiting is None or str(item.get("record")) in waiting.get(gate, ())):
                return True
    return False


def must_keep(
    path: Path, given: Path | None, decision_lists: Lists, waiting: Mapping[str, Collection[str]]
) -> bool:
    """Whether a template must not replace `path`: it holds a reviewer's work for the records
    waiting now that this command did not read (`given`: the decisions file it read)."""
    return not _read_here(path, given) and filled(path, decision_lists, waiting)


def move_aside_stale(path: Path, given: Path | None, decision_lists: Lists) -> None:
    """Before a template replaces `path` (must_keep answered no): a file this command did not
    read that still holds work (on records decided since, or applied before the run paused
    again) is moved to `<name>.1` (`.2`, …), so the run is not stranded and no one's work is
    lost."""
    if _read_here(path, given) or not filled(path, decision_lists):
        return
    aside = next(
        path.with_name(f"{path.name}.{n}")
        for n in count(1)
        if not path.with_name(f"{path.name}.{n}").exists()
    )
    os.replace(path, aside)
    print(
        f"Moved {path} to {aside}: its decisions are on records no longer waiting.",
        file=sys.stderr,
    )


def _read_here(path: Path, given: Path | None) -> bool:
    """Whether `path` is the decisions file this command read and applied."""
    try:
        return given is not None and given.samefile(path)
    except OSError:
        return False


def write_atomically(path: Path, text: str) -> None:
    """Through a temporary file beside `path`, then a rename: a reader (or a crash) never
    sees half a file. Both reach the disk before we return: after an unsynced rename a power
    cut can leave an empty file (ext4, XFS delay the writes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    try:  # the folder holds the rename; a platform that cannot open one (Windows) skips it
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
