"""A team none of whose gates has a timeout never loads gate_timeouts (issue 37): not when
our `resume` pauses again at a gate (flow_resume._to_decide), nor when `sweep` looks for a
run past a deadline (flow_resume._due), as an AMP resume does not (test_amp_beside_gate.py).

Skipped unless the team is a pipeline with a gate."""

from __future__ import annotations

import dataclasses
import json
import sys

import helpers
import pytest
from fake_llm import FakeModels
from project import main, runtime, team

pytestmark = pytest.mark.skipif(
    team.MODE != "pipeline" or not team.GATES, reason="no pipeline with a gate"
)


@pytest.mark.parametrize("command", ["resume", "sweep"])
def test_a_resume_or_sweep_of_a_team_whose_gates_have_no_timeout_loads_no_gate_timeouts(
    command: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, spec in team.GATES.items():
        untimed = dataclasses.replace(spec, timeout_after=None, timeout_behaviour=None)
        monkeypatch.setitem(team.GATES, name, untimed)
    assert main.main(helpers.run_argv()) == runtime.EXIT_PENDING, capsys.readouterr().err
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    # Loaded by an earlier test, maybe: this command must not load it again.
    monkeypatch.delitem(sys.modules, "envelope_runtime.gate_timeouts", raising=False)

    # No decisions: the resume pauses again at its gate, and the sweep finds nothing due.
    code = main.main(["resume", run_id, "--no-interactive"] if command == "resume" else ["sweep"])

    err = capsys.readouterr().err
    assert code == (runtime.EXIT_PENDING if command == "resume" else runtime.EXIT_OK), err
    assert "envelope_runtime.gate_timeouts" not in sys.modules
