"""What state.RunStore writes of a run: no secret value of the team, wherever in the run
it shows (a gate's message and problems quote what a reviewer or a step gave)."""

from __future__ import annotations

from pathlib import Path

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
