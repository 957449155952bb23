"""The runner's schedule commands, CrewAI's side (the generic part: schedules.py).

    <team> serve-webhook [--host H] [--port P] [--max-bytes N]   schedule.type "event"
    <team> poll [--once] [--interval S] [-- RUN OPTIONS]         schedule.type "condition"

`poll` asks team.CONDITION_PROMPT of the condition agent's crewai.LLM (llms.build_llm:
MODEL_OVERRIDE and MODEL_<AGENT> apply) with a structured answer (`ConditionAnswer`, a
`response_model`: a json_schema response format where the provider has one).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .. import schedules
from ..inputs import env_file_problems, missing_env, report_problems
from ..schedules import ConditionAnswer
from ..team_package import TeamPackage
from . import llms, runner

__all__ = ["condition_holds", "main"]


def _ready(package: TeamPackage, env_file: str | None, also: Sequence[str]) -> bool:
    """Every variable a run needs (and `also`), checked like a run's, all problems at once."""
    missing = runner._missing_env(package, env_file)
    missing += [name for name in missing_env(list(also), os.environ) if name not in missing]
    problems = env_file_problems(env_file) + llms.factory_problems(package.models.MODELS)
    return not report_problems(missing, problems, env_file or ".env")


def condition_holds(package: TeamPackage) -> tuple[bool, str]:
    """Ask the condition of the condition agent's model: (met, reason)."""
    team = package.team
    prompt = getattr(team, "CONDITION_PROMPT", None)
    if prompt is None:
        return True, "no schedule.conditionPrompt: every check runs the team"
    text = schedules.condition_text(prompt, team.VARIABLES, os.environ)
    agent = str(vars(team)["CONDITION_AGENT"])
    llm = llms.build_llm(agent, package.models.MODELS[agent])
    messages = [
        {"role": "system", "content": schedules.CONDITION_SYSTEM},
        {"role": "user", "content": text},
    ]
    answer = llm.call(messages, response_model=ConditionAnswer)  # type: ignore[arg-type]
    if not isinstance(answer, ConditionAnswer):
        answer = ConditionAnswer.model_validate_json(str(answer))
    return answer.met, answer.reason


def main(package: TeamPackage, argv: Sequence[str]) -> int | None:
    """Run `serve-webhook` or `poll` when argv names the one this team's schedule has."""

    def ready(env_file: str | None, also: Sequence[str]) -> bool:
        return _ready(package, env_file, also)

    return schedules.main(
        argv, package.team, runner.command_of(package), ready, lambda: condition_holds(package)
    )
