"""The decisions file a run waiting at its gates gets beside its state (both targets):
never written over a reviewer's work, and written whole."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def filled(path: Path, decision_lists: Callable[[Any], Iterable[Any] | None]) -> bool:
    """Whether a decisions file holds a reviewer's work: an action or feedback anywhere, or
    text that is not a template (half-edited JSON is someone's work too).
    `decision_lists`: the file's data -> each gate's list of decisions (None: not its shape)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True
    lists = decision_lists(data)
    if lists is None:
        return True
    for items in lists:
        for item in items if isinstance(items, list) else [None]:
            if not isinstance(item, dict):
                return True
            if any(str(item.get(key) or "").strip() for key in ("action", "feedback")):
                return True
    return False


def kept(path: Path, given: Path | None, decision_lists: Callable[[Any], Any]) -> bool:
    """Whether a template must not replace `path`: it holds a reviewer's work that this
    command did not read (`given`: the decisions file it read, if any)."""
    if not filled(path, decision_lists):
        return False
    try:
        return given is None or not given.samefile(path)
    except OSError:
        return True


def write_atomically(path: Path, text: str) -> None:
    """Through a temporary file beside `path`, then a rename: a reader (or a crash) never
    sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, "utf-8")
    os.replace(temporary, path)
