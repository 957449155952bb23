"""Decisions given after a gate's deadline lose to its timeout (the README says so), and are
named as such, in the words LangGraph's runner uses: they came after the gate's deadline
and were not applied; a halt's message says so too. A resume without decisions (a sweep)
says nothing of them."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import main, runtime, state, team

if not team.GATES or team.MODE != "pipeline":
    pytest.skip("the team has no gates", allow_module_level=True)

LATE = "decisions given after the gate's deadline (timeout.after 1h, waiting since "


def _paused(monkeypatch: pytest.MonkeyPatch, behaviour: str, capsys: Any) -> dict[str, Any]:
    """Every gate timed out after 1h with `behaviour`; a run paused at its first gates."""
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(spec, timeout_after="1h", timeout_behaviour=behaviour)
        monkeypatch.setitem(team.GATES, name, timed)
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    pending: dict[str, Any] = json.loads(out.out)
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    return pending


@pytest.mark.parametrize("behaviour", ["halt", "proceed"])
def test_late_decisions_are_named_not_applied(
    behaviour: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    pending = _paused(monkeypatch, behaviour, capsys)
    run_id = pending["run_id"]
    path = helpers.write_decisions(tmp_path / "late.json", run_id, helpers.approve_all(pending))

    code = main.main(["resume", run_id, "--decisions", str(path)])

    err = capsys.readouterr().err
    named = [name for name in pending["gates"] if f"gate {name}: {LATE}" in err]
    # A halt stops the run at the first gate past its deadline; proceed reaches each.
    assert named if behaviour == "halt" else named == list(pending["gates"]), err
    assert f"were not applied: timeout.behaviour {behaviour} applies instead" in err
    if behaviour == "halt":
        assert code == runtime.EXIT_HALTED, err
        assert f"no decision within 1h (halt); {LATE}" in err
        saved = json.loads((Path(".envelope-runs") / f"{run_id}.json").read_text("utf-8"))
        assert LATE in saved["message"]


def test_a_sweep_names_no_late_decisions(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _paused(monkeypatch, "halt", capsys)

    assert main.main(["sweep"]) == runtime.EXIT_OK

    err = capsys.readouterr().err
    assert "no decision within 1h (halt)" in err and "decisions given" not in err
