"""Issue 34 on the Agent Server: resumes a gate with the langgraph-sdk client, as the exported
README documents (`Command(resume={"decisions": [...]})`), with the values a reviewer must
not get stored: a 2 MB action, then feedback holding a secret's value. Prints one JSON report.

    python gate_values_driver.py URL GRAPH_ID INPUTS_JSON FEEDBACK

The team has one gate (content-studio's, onReject rerun): its first record rejected with
FEEDBACK and the others skipped sends them back to their step; the next round is approved.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from langgraph_sdk import get_sync_client

HUGE = 2_000_000


def interrupts_of(client: Any, thread_id: str) -> list[dict[str, Any]]:
    state = client.threads.get_state(thread_id)
    return [i for task in state.get("tasks", []) for i in task.get("interrupts", [])]


def decide(records: list[dict[str, Any]], first: str, feedback: str, rest: str) -> dict[str, Any]:
    return {
        "decisions": [
            {"record": r["id"], "action": first if n == 0 else rest, "feedback": feedback if n == 0 else ""}
            for n, r in enumerate(records)
        ]
    }


def status_of(call: Any) -> int | str:
    """The HTTP status a request was refused with (or 'accepted')."""
    try:
        call()
    except Exception as error:  # langgraph-sdk raises httpx's HTTPStatusError
        response = getattr(error, "response", None)
        return response.status_code if response is not None else repr(error)[:300]
    return "accepted"


def main() -> int:
    url, graph_id, inputs, feedback = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
    client = get_sync_client(url=url, timeout=600)
    assistant = next(a for a in client.assistants.search(graph_id=graph_id))
    thread_id = client.threads.create()["thread_id"]
    wait = lambda **kw: client.runs.wait(thread_id, assistant["assistant_id"], raise_error=False, **kw)  # noqa: E731
    report: dict[str, Any] = {"thread_id": thread_id, "outputs": [wait(input=inputs)]}

    # A 2 MB action: refused, and asked again with the problems.
    waiting = interrupts_of(client, thread_id)
    records = waiting[0]["value"]["records"]
    report["outputs"].append(wait(command={"resume": decide(records, "x" * HUGE, "", "")}))
    again = interrupts_of(client, thread_id)
    report["problems"] = again[0]["value"]["problems"] if again else None

    # Protocol v2's input.respond (what langgraph-sdk's thread streams send to resume, to
    # POST /threads/<id>/commands) is refused: its resume would be stored unredacted. So is a
    # run request larger than the middleware's limit (8 MiB).
    respond = {
        "id": 1,
        "method": "input.respond",
        "params": {"interrupt_id": again[0].get("id", ""), "namespace": [], "response": decide(records, "reject", feedback, "skip")},
    }
    report["refused"] = [status_of(lambda: client.http.post(f"/threads/{thread_id}/commands", json=respond))]
    big = {"command": {"resume": decide(records, "approve", "y" * 9_000_000, "approve")}, "assistant_id": assistant["assistant_id"]}
    report["refused"].append(status_of(lambda: client.http.post(f"/threads/{thread_id}/runs/wait", json=big)))
    report["interrupted_still"] = bool(interrupts_of(client, thread_id))

    # The first record rejected with feedback holding a secret, the rest skipped: they go
    # back to their step with the feedback, and the new round is approved.
    report["outputs"].append(wait(command={"resume": decide(records, "reject", feedback, "skip")}))
    rounds = 0
    while (waiting := interrupts_of(client, thread_id)) and rounds < 4:
        rounds += 1
        records = waiting[0]["value"]["records"]
        report["outputs"].append(wait(command={"resume": decide(records, "approve", "", "approve")}))
    state = client.threads.get_state(thread_id)
    report["next"] = state.get("next")
    report["values"] = state.get("values")
    report["history"] = client.threads.get_history(thread_id, limit=1000)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
