"""What started this run besides its inputs: the workspace rows whose trigger fired.

`workspace.py`'s `watch` command sets them before it runs the team; every task text that
carries the run's inputs carries them too (`trigger_text`). Empty for any other run. A run
`watch --url` sends to an Agent Server carries them in its config (CONFIG_KEY), since the
server's process runs the nodes.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "CONFIG_KEY",
    "TRIGGERED",
    "trigger_text",
]

TRIGGERED: list[dict[str, Any]] = []
"""The triggering rows of this run: {"document", "trigger", "row"} each."""
CONFIG_KEY = "envelope_triggered"
"""The run config's `configurable` key holding TRIGGERED for a served run."""


def trigger_text(triggered: list[dict[str, Any]] | None = None) -> str:
    """The triggering rows (default: TRIGGERED) as a task receives them, after the run
    inputs ("" when none)."""
    found = TRIGGERED if triggered is None else triggered
    if not found:
        return ""
    rows = json.dumps(found, indent=2, ensure_ascii=False)
    return f"\n\nWorkspace rows that triggered this run (JSON):\n{rows}"
