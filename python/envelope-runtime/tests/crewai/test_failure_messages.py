"""What a failed run or crew command says on stderr: never a secret's value, even when the
error's text carries one (a provider error echoing a prompt with `{{SECRET}}` filled in)."""

from __future__ import annotations

from typing import Any

import helpers
import pytest
from fake_llm import FakeModels
from project import crew_base, main, runtime, team

if team.MODE != "hierarchy":
    pytest.skip("a pipeline run fails through flow_runner", allow_module_level=True)


def test_a_failed_runs_message_carries_no_secret_value(
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    values = [team_env[name] for name in team.SECRETS if team_env.get(name)]
    if not values:
        pytest.skip("the team has no secrets")

    def failing(crew: Any) -> Any:
        raise RuntimeError("provider said: " + " ".join(values))

    monkeypatch.setattr(crew_base, "kickoff", failing)
    code = main.main(helpers.run_argv())
    err = capsys.readouterr().err
    assert code == runtime.EXIT_FAILED
    assert "Run failed: RuntimeError: provider said:" in err
    assert not [value for value in values if value in err]
