"""A pipeline run's state (the Flow's state) and where it is kept.

`RunStore` is a CrewAI `FlowPersistence`: one JSON file per run, `<run id>.json`, holding
the state and, while the run waits at a gate, CrewAI's pending-feedback context (what
`Flow.from_pending` resumes); with DATABASE_URL set, the same text in a row of that database
(database.RunTable), so any process sharing the URL resumes the run. Secret values are
redacted before anything is written.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from crewai.flow.async_feedback.types import PendingFeedbackContext
from crewai.flow.flow import FlowState
from crewai.flow.persistence import FlowPersistence
from pydantic import BaseModel, BeforeValidator, Field, PrivateAttr

from ..redaction import redact, secret_values

__all__ = ["RunState", "RunStatus", "RunStore", "StepOutput", "new_run_id", "utc_now"]

RunStatus = Literal["running", "pending", "halted", "done", "failed", "timed_out"]


def _gate_states(value: Any) -> Any:
    """Saved gates as GateState: only a run with gates loads the gate rules (gates.py)."""
    if not isinstance(value, dict) or not value:
        return value
    from ..gates import GateState

    return {name: GateState.model_validate(gate) for name, gate in value.items()}


if TYPE_CHECKING:
    from typing_extensions import Self

    from ..gates import GateState

    GateStates = dict[str, GateState]
else:
    GateStates = Annotated[dict[str, Any], BeforeValidator(_gate_states)]


def utc_now() -> datetime:
    """The clock of gates and runs (tests replace it)."""
    return datetime.now(timezone.utc)


def new_run_id() -> str:
    return utc_now().strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(3)


class StepOutput(BaseModel):
    text: str
    records: list[dict[str, Any]] | None = None
    """Structured records, for a step that feeds a gate."""
    attempts: int = 1


class RunState(FlowState):
    """The Flow's state; `id` is the run id (a new run's: new_run_id, also when CrewAI makes it)."""

    id: str = Field(default_factory=lambda: new_run_id())
    team: str = ""
    version: str = ""
    created_at: datetime | None = Field(default_factory=lambda: utc_now())
    status: RunStatus = "running"
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, StepOutput] = Field(default_factory=dict)
    gates: GateStates = Field(default_factory=dict)
    result: dict[str, Any] | None = None
    message: str | None = None
    spent_ms: int = 0
    """Working time so far, across resumes (timeout.runMs bounds it; review time is not)."""

    def over(self, pipeline: Mapping[str, Any]) -> bool:
        """Whether nothing is left to run: halted, or every step (team.PIPELINE) answered."""
        return self.status == "halted" or self.outputs.keys() >= pipeline.keys()


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


class RunStore(FlowPersistence):
    """`<run id>.json` files in a directory, written atomically, free text redacted: answers,
    records, feedback, the result and messages. Ids, timestamps and the inputs (the
    caller's own) are kept as they are: a short secret such as `20` must not corrupt them."""

    directory: Path = Path(".envelope-runs")
    """The runs' files; with DATABASE_URL, only the decisions templates (flow_runner.py)."""
    _secrets: list[str] = PrivateAttr(default_factory=list)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    _url: str | None = PrivateAttr(default=None)

    def __init__(self, directory: Path | str = ".envelope-runs", secret_values: Sequence[str] = ()):
        super().__init__(directory=Path(directory).absolute())
        self._secrets = [value for value in secret_values if value]
        self._url = os.environ.get("DATABASE_URL") or None

    @classmethod
    def of(cls, team: Any, directory: Path | str = ".envelope-runs") -> Self:
        """The store of a team's runs, redacting the values of its secrets (team.SECRETS)."""
        return cls(directory, secret_values(team.SECRETS))

    def init_db(self) -> None:
        """Nothing to set up: the directory (or the database's table) is made on first use."""

    @property
    def _table(self) -> Any:
        """The database's runs (connected on first use, not when pipeline.py is imported)."""
        from ..database import RunTable

        return RunTable(self._url or "")

    def path(self, run_id: str) -> Path:
        return self.directory / f"{run_id}.json"

    @property
    def database(self) -> str | None:
        """Which database holds the runs (DATABASE_URL's, its password hidden), else None."""
        return self._table.where if self._url else None

    def where(self, run_id: str) -> str:
        """Where the run is kept, for messages."""
        return f"run {run_id} in {self.database}" if self._url else str(self.path(run_id))

    def text(self, run_id: str) -> str | None:
        """The run as stored (JSON), None when there is no such run."""
        if self._url:
            return self._table.read(run_id)
        path = self.path(run_id)
        return path.read_text(encoding="utf-8") if path.exists() else None

    def run_ids(self) -> list[str]:
        if self._url:
            return self._table.ids()
        paths = sorted(self.directory.glob("*.json"))
        return [p.stem for p in paths if not p.name.endswith(".decisions.json")]

    def remove(self, run_id: str) -> None:
        if self._url:
            self._table.remove(run_id)
        else:
            self.path(run_id).unlink(missing_ok=True)

    def _read(self, run_id: str) -> dict[str, Any] | None:
        text = self.text(run_id)
        return None if text is None else json.loads(text)

    def claimed(self, run_id: str) -> bool:
        """Whether this store's claim took the run: a resume's store claims
        (flow_resume.ClaimingStore), this one never does."""
        return False

    def _write(self, run_id: str, state: Any, pending: dict[str, Any] | None) -> None:
        data = RunState.model_validate(state).model_dump(mode="json")
        data["outputs"] = self._redact(data["outputs"])  # answers and records; keys are kept
        for gate in data["gates"].values():  # its message and problems quote what was given
            gate.update(self._redact({"message": gate["message"], "problems": gate["problems"]}))
            for record in gate["records"]:
                record.update(
                    self._redact({"data": record["data"], "feedback": record["feedback"]})
                )
        data.update(self._redact({"result": data["result"], "message": data["message"]}))
        if pending is not None:
            data["pending"] = {**pending, "method_output": self._redact(pending["method_output"])}
        text = _text(data)
        if self._url:
            self._table.write(run_id, text)
            return
        target = self.path(run_id)
        with self._lock:
            self.directory.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".json.partial")
            with open(partial, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())  # on disk before the rename: a power cut leaves no empty run
            os.replace(partial, target)

    def _redact(self, value: Any) -> Any:
        return redact(value, self._secrets)

    def save_state(self, flow_uuid: str, method_name: str, state_data: Any) -> None:
        saved = self._read(flow_uuid) or {}
        self._write(flow_uuid, state_data, saved.get("pending"))

    def load_state(self, flow_uuid: str) -> dict[str, Any] | None:
        data = self._read(flow_uuid)
        return None if data is None else {k: v for k, v in data.items() if k != "pending"}

    def save_pending_feedback(
        self, flow_uuid: str, context: PendingFeedbackContext, state_data: Any
    ) -> None:
        self._write(flow_uuid, state_data, context.to_dict())
        self.directory.mkdir(parents=True, exist_ok=True)  # the decisions template's place

    def load_pending_feedback(self, flow_uuid: str) -> tuple[dict[str, Any], Any] | None:
        """The run's latest state (work finished beside the pause included) and its context."""
        data = self._read(flow_uuid) or {}
        pending = data.pop("pending", None)
        return (data, PendingFeedbackContext.from_dict(pending)) if pending else None

    def clear_pending_feedback(self, flow_uuid: str) -> None:
        data = self.load_state(flow_uuid)
        if data is not None:
            self._write(flow_uuid, data, None)

    def load(self, run_id: str) -> RunState:
        data = self.load_state(run_id)
        if data is None:
            raise FileNotFoundError(2, "no such run", self.where(run_id))
        return RunState.model_validate(data)
