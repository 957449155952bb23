"""The runner's schedule commands, LangGraph's side (the generic part: schedules.py).

    <team> serve-webhook [--host H] [--port P] [--max-bytes N]   schedule.type "event"
    <team> poll [--once] [--interval S] [-- RUN OPTIONS]         schedule.type "condition"

`poll` asks the team's CONDITION_PROMPT (team.py) of the condition agent's chat model
(llms.build_chat_model: MODEL_OVERRIDE and MODEL_<AGENT> apply) through LangChain's
`with_structured_output(ConditionAnswer)`: a json_schema response format for OpenAI's
models, the provider's tool calling for the others.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .. import schedules
from ..inputs import env_file_problems, missing_env, report_problems
from ..schedules import ConditionAnswer
from ..team_package import TeamPackage
from . import llms, run_client, runner

__all__ = ["condition_holds", "main", "wants"]


def wants(package: TeamPackage, argv: Sequence[str]) -> bool:
    """Whether argv is a schedule command of the team: `serve-webhook` (schedule.type "event")
    or `poll` ("condition")."""
    data = vars(package.team)
    return (argv[:1] == ["serve-webhook"] and "WEBHOOK_SECRET_ENV" in data) or (
        argv[:1] == ["poll"] and "CONDITION_INTERVAL_S" in data
    )


def _ready(package: TeamPackage, env_file: str | None, also: Sequence[str]) -> bool:
    """Every variable a run needs (and `also`), checked like a run's, all problems at once."""
    missing = run_client._missing_env(package, env_file, None)
    missing += [name for name in missing_env(list(also), os.environ) if name not in missing]
    problems = env_file_problems(env_file) + llms.factory_problems(package.models.MODELS)
    return not report_problems(missing, problems, env_file or ".env")


def condition_holds(package: TeamPackage) -> tuple[bool, str]:
    """Ask the condition of the condition agent's model: (met, reason)."""
    team, models = package.team, package.models
    prompt = getattr(team, "CONDITION_PROMPT", None)
    if prompt is None:
        return True, "no schedule.conditionPrompt: every check runs the team"
    text = schedules.condition_text(prompt, team.VARIABLES, os.environ)
    agent = str(vars(team)["CONDITION_AGENT"])
    spec = models.MODELS[agent]
    method = "json_schema" if llms.provider(llms.model_id(spec, agent)) == "openai" else None
    chat = llms.build_chat_model(agent, spec)
    structured = chat.with_structured_output(ConditionAnswer, method=method or "function_calling")
    answer = structured.invoke([("system", schedules.CONDITION_SYSTEM), ("human", text)])
    if not isinstance(answer, ConditionAnswer):
        answer = ConditionAnswer.model_validate(answer)
    return answer.met, answer.reason


def main(package: TeamPackage, argv: Sequence[str]) -> int | None:
    """Run `serve-webhook` or `poll` when argv names the one this team's schedule has."""
    return schedules.main(
        argv,
        package.team,
        runner.command_name(package),
        lambda env_file, also: _ready(package, env_file, also),
        lambda: condition_holds(package),
    )
