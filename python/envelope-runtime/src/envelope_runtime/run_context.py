"""What started this run besides its inputs: the workspace rows whose trigger fired.

`workspace.py`'s `watch` command sets them before it runs the team; every task text that
carries the run's inputs carries them too (`trigger_text`). Empty for any other run.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "TRIGGERED",
    "trigger_text",
]

TRIGGERED: list[dict[str, Any]] = []
"""The triggering rows of this run: {"document", "trigger", "row"} each."""


def trigger_text() -> str:
    """The triggering rows as a task receives them, after the run inputs ("" when none)."""
    if not TRIGGERED:
        return ""
    rows = json.dumps(TRIGGERED, indent=2, ensure_ascii=False)
    return f"\n\nWorkspace rows that triggered this run (JSON):\n{rows}"
