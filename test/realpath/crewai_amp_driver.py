"""Starts an exported CrewAI team as CrewAI AMP starts a deployment, for crewai-amp.test.ts:
run in the project folder, the crew or Flow is the one CrewAI's own discovery finds
(crewai.utilities.project_utils: get_crews in crew.py, get_flows in main.py), built with no
arguments, and kicked off with the API's inputs. Nothing of the export's runner is called.

Usage: python crewai_amp_driver.py crew|flow INPUTS_JSON ANSWERS_JSON (gate -> feedback)
Prints one JSON object: {"error": "<type>: <message>"} when the kickoff raised; for a crew
{"result": <its pydantic output or null>}; for a flow {"pending": <paused at a gate>,
"gate": <the paused gate>, "state": <the flow's state>, "resumable": <the gate from_pending
finds>, "resumes": [{"gate": <the gate resumed with its answer>, "state": <the flow's state
after>, "pending": <paused again>}, …] (one a resume, until the run no longer pauses),
"resumed": <the first resume's state>, "resume_error"?: <what the last resume raised>}.
"""

from __future__ import annotations

import atexit
import json
import sys
from pathlib import Path
from typing import Any

from crewai.flow.async_feedback import HumanFeedbackPending
from crewai.utilities.project_utils import get_crews, get_flows


def main(kind: str, inputs: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    found: list[Any] = (
        get_crews("crew.py", require=True) if kind == "crew" else get_flows()
    )
    if not found:
        return {"error": "discovery found nothing"}
    target = found[0]
    try:
        outcome = target.kickoff(inputs=inputs)
    except Exception as error:  # noqa: BLE001 - the test reads the message
        return {"error": f"{type(error).__name__}: {error}"}
    if kind == "crew":
        return {"result": outcome.pydantic.model_dump() if outcome.pydantic else None}
    pending = isinstance(outcome, HumanFeedbackPending)
    report: dict[str, Any] = {
        "pending": pending,
        "state": target.state.model_dump(mode="json"),
    }
    if pending:
        report["gate"] = outcome.context.metadata.get("gate")
        # What the run's store holds once the kickoff returned: our `resume RUN_ID` and
        # `sweep` take a run that says it is pending.
        saved = Path(".envelope-runs", f"{target.state.id}.json")
        report["saved_status"] = json.loads(saved.read_text("utf-8"))["status"]
        report["resumes"] = resumes(type(target), target.state.id, answers, report)
        report["resumable"] = report["resumes"][0]["gate"]
        report["resumed"] = report["resumes"][0]["state"]
    return report


def resumes(
    flow_class: Any, run_id: str, answers: dict[str, str], report: dict[str, Any]
) -> list[dict[str, Any]]:
    """As AMP resumes a paused run, again while it pauses (a gate waiting beside the one
    resumed, a gate that waits again): the class's from_pending, by the run's id alone, and
    the reviewer's answer (one action for every record), in this same process. Each resume's
    gate and the state it left; what a resume raised ends them, in the report. At most ten:
    a gate that waited on for ever would not end them."""
    done: list[dict[str, Any]] = []
    for _ in range(10):
        resumed = flow_class.from_pending(run_id)
        gate = resumed.pending_feedback.metadata.get("gate")
        try:
            outcome = resumed.resume(answers[gate])
        except Exception as error:  # noqa: BLE001 - the test reads the message
            report["resume_error"] = f"{type(error).__name__}: {error}"
            outcome = None
        pending = isinstance(outcome, HumanFeedbackPending)
        done.append(
            {
                "gate": gate,
                "state": resumed.state.model_dump(mode="json"),
                "pending": pending,
            }
        )
        if not pending:
            break
    return done


if __name__ == "__main__":
    report = main(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]))
    # Printed at exit, once the interpreter has joined its threads: a flow's step still at
    # work in one when the kickoff failed (runMs) prints its end to stdout after it, and the
    # test reads the last line.
    atexit.register(print, json.dumps(report))
