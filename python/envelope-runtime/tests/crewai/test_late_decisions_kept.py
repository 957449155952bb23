"""A decisions file whose decisions came after their gate's deadline was not read: when the run
waits again, the runner names where they are kept (LangGraph's words) and moves the file
aside rather than writing the next template over the reviewer's work.

Skipped for teams with fewer than two gates (nothing waits after the late gate's timeout).
"""

from __future__ import annotations

import dataclasses
import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import helpers
import pytest
from fake_llm import FakeModels, final
from project import main, runtime, state, team

if team.MODE != "pipeline" or len(team.GATES) < 2:
    pytest.skip("the team has fewer than two gates", allow_module_level=True)


def test_a_late_decisions_file_is_kept_when_the_run_waits_again(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    pending: dict[str, Any] = json.loads(out.out)
    late = next(iter(pending["gates"]))  # only this gate times out; the others wait on
    for name, spec in list(team.GATES.items()):
        after = "1h" if name == late else None
        timed = dataclasses.replace(spec, timeout_after=after, timeout_behaviour="proceed")
        monkeypatch.setitem(team.GATES, name, timed)
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    # The reviewer fills in the runner's own decisions file, for the late gate only.
    path = Path(os.path.relpath(pending["decisions_file"]))
    decisions = {late: helpers.approve_all(pending)[late]}
    helpers.write_decisions(path, pending["run_id"], decisions)

    code = main.main(["resume", pending["run_id"], "--decisions", str(path)])

    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    assert f"timeout.behaviour proceed applies instead; {path} keeps them" in out.err
    aside = path.with_name(f"{path.name}.1")
    assert json.loads(aside.read_text("utf-8"))["gates"][late]["decisions"] == decisions[late]
    assert f"{aside.name}: its decisions are on records no longer waiting" in out.err
    assert late not in json.loads(path.read_text("utf-8"))["gates"]  # the new template


def test_late_decisions_are_used_up_by_the_timeout_not_given_to_the_next_round(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Every waiting gate past its deadline, given decisions: the resume answers the paused
    one, and kicks the flow off again for the others with theirs. Their escalation rejects
    every record, so each gate waits again with a new round, which the late decisions (on the
    old round's records) must not reach."""
    code = main.main(helpers.run_argv())
    out = capsys.readouterr()
    assert code == runtime.EXIT_PENDING, out.err
    pending: dict[str, Any] = json.loads(out.out)
    for name, spec in list(team.GATES.items()):
        timed = dataclasses.replace(
            spec, timeout_after="1h", timeout_behaviour="escalate", on_reject="rerun"
        )
        monkeypatch.setitem(team.GATES, name, timed)
    for name, gate in pending["gates"].items():
        rejected = [{"record": i["record"], "action": "reject"} for i in gate["decisions"]]
        fake_models.script_task(f"escalate:{name}", final({"decisions": rejected}))
    later = state.utc_now() + timedelta(hours=2)
    monkeypatch.setattr(state, "utc_now", lambda: later)
    path = helpers.write_decisions(
        tmp_path / "late.json", pending["run_id"], helpers.approve_all(pending)
    )

    code = main.main(["resume", pending["run_id"], "--decisions", str(path)])

    err = capsys.readouterr().err
    assert code == runtime.EXIT_PENDING, err
    assert all(f"gate {name}: decisions given after" in err for name in pending["gates"]), err
    assert "was reviewed already" not in err and "unknown record" not in err
