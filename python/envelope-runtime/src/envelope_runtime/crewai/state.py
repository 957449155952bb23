"""The state of a run, kept in one JSON file so a paused run can be resumed.

It holds the inputs, each finished step's output and each gate's records and
decisions. Secret values are never written: the free text is redacted before saving.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from ..redaction import redact

__all__ = ["RunState", "RunStatus", "RunStore", "StepOutput", "new_run_id", "utc_now"]

RunStatus = Literal["running", "pending", "halted", "done", "failed", "timed_out"]


def _gate_states(value: Any) -> Any:
    """A run's gates as GateState, read from a saved run: only a run with gates has any, so
    only a team with gates loads the gate rules (gates.py)."""
    if not isinstance(value, dict) or not value:
        return value  # none, or not a mapping (which the dict type then refuses)
    from ..gates import GateState

    return {name: GateState.model_validate(gate) for name, gate in value.items()}


if TYPE_CHECKING:
    from ..gates import GateState

    GateStates = dict[str, GateState]
else:
    # Validated by _gate_states (a run's saved gates); serialized as the GateState values are.
    GateStates = Annotated[dict[str, Any], BeforeValidator(_gate_states)]


def utc_now() -> datetime:
    """The clock of gates and runs (tests replace it)."""
    return datetime.now(timezone.utc)


class StepOutput(BaseModel):
    text: str
    records: list[dict[str, Any]] | None = None
    """Structured records, for a step that feeds a gate."""
    attempts: int = 1


class RunState(BaseModel):
    run_id: str = ""
    team: str = ""
    version: str = ""
    created_at: datetime | None = None
    status: RunStatus = "running"
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, StepOutput] = Field(default_factory=dict)
    gates: GateStates = Field(default_factory=dict)
    result: dict[str, Any] | None = None
    message: str | None = None
    spent_ms: int = 0
    """Working time so far, across resumes (timeout.runMs bounds it; review time is not)."""


def new_run_id() -> str:
    return utc_now().strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(3)


class RunStore:
    """One `<run id>.json` per run in a directory; writes are atomic."""

    def __init__(self, directory: Path, secret_values: Sequence[str] = ()) -> None:
        self.directory = directory.absolute()  # fixed even if the cwd changes later
        self._secrets = [value for value in secret_values if value]
        self._lock = threading.Lock()

    def path(self, run_id: str) -> Path:
        return self.directory / f"{run_id}.json"

    def save(self, run: RunState) -> Path:
        text = json.dumps(self._redacted(run), indent=2, ensure_ascii=False)
        target = self.path(run.run_id)
        with self._lock:
            self.directory.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".json.partial")
            partial.write_text(text + "\n", encoding="utf-8")
            os.replace(partial, target)
        return target

    def _redacted(self, run: RunState) -> dict[str, Any]:
        """The run as JSON data with its free text redacted: answers, records, reviewer
        feedback, the result and the run's message. Its own fields (id, timestamps,
        statuses) and its inputs (the caller's own) are kept as they are: a short secret
        such as `2026` must not corrupt a timestamp the run is loaded from again."""
        data = run.model_dump(mode="json")
        for output in data["outputs"].values():
            output["text"] = redact(output["text"], self._secrets)
            output["records"] = redact(output["records"], self._secrets)
        for gate in data["gates"].values():
            for record in gate["records"]:
                record["data"] = redact(record["data"], self._secrets)
                record["feedback"] = redact(record["feedback"], self._secrets)
        data["result"] = redact(data["result"], self._secrets)
        data["message"] = redact(data["message"], self._secrets)
        return data

    def load(self, run_id: str) -> RunState:
        return RunState.model_validate_json(self.path(run_id).read_text(encoding="utf-8"))
