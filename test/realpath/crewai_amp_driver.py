"""Starts an exported CrewAI team as CrewAI AMP starts a deployment, for crewai-amp.test.ts:
run in the project folder, the crew or Flow is the one CrewAI's own discovery finds
(crewai.utilities.project_utils: get_crews in crew.py, get_flows in main.py), built with no
arguments, and kicked off with the API's inputs. Nothing of the export's runner is called.

Usage: python crewai_amp_driver.py crew|flow INPUTS_JSON ANSWERS_JSON (gate -> feedback)
Prints one JSON object: {"error": "<type>: <message>"} when the kickoff raised; for a crew
{"result": <its pydantic output or null>}; for a flow {"pending": <paused at a gate>,
"gate": <the paused gate>, "state": <the flow's state>, "resumable": <the gate from_pending
finds>, "resumed": <the state once resumed with the gate's answer>, "resume_error"?}.
"""

from __future__ import annotations

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
        # As AMP resumes a paused run: the class's from_pending, by the run's id alone, and
        # the reviewer's answer (one action for every record), in this same process.
        resumed = type(target).from_pending(target.state.id)
        report["resumable"] = resumed.pending_feedback.metadata.get("gate")
        try:
            resumed.resume(answers[report["gate"]])
        except Exception as error:  # noqa: BLE001 - the test reads the message
            report["resume_error"] = f"{type(error).__name__}: {error}"
        report["resumed"] = resumed.state.model_dump(mode="json")
    return report


if __name__ == "__main__":
    print(
        json.dumps(main(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])))
    )
