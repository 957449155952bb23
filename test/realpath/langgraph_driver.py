"""Drives a `langgraph dev` server with the langgraph-sdk client, the way an exported
LangGraph README documents it. Prints one JSON report.

    python langgraph_driver.py schemas URL
        every assistant's graph id -> its input, output and context schemas
    python langgraph_driver.py drive URL GRAPH_ID INPUTS_JSON
        start a run with the team's (flat) inputs, answer every review gate with
        `Command(resume=...)` until the run ends: each gate's first record approved, the
        others skipped (several waiting gates answered at once, by interrupt id); a bad
        resume value first, which must not poison the thread; the report also holds what
        Studio shows of the team: the graph's nodes drawn with xray, and the messages
        checkpointed in each subgraph namespace of the thread (read from its history)
    python langgraph_driver.py run URL GRAPH_ID INPUTS_JSON [CONTEXT_JSON] [VERB] [THREAD_ID]
        one run with that context (on the run and on every resume, each a run of its own),
        every record of every gate decided with VERB (default: approve), on a new thread
        or on THREAD_ID (a thread that ran before: Studio's next run on it)
"""

from __future__ import annotations

import json
import sys
from typing import Any

from langgraph_sdk import get_sync_client

MAX_ROUNDS = 10


def decisions_for(value: Any) -> tuple[dict[str, Any], list[str], list[str]]:
    """The resume value of one gate interrupt, and the record ids approved / skipped."""
    records = value.get("records", []) if isinstance(value, dict) else []
    approved, skipped, items = [], [], []
    for index, record in enumerate(records):
        record_id = record.get("record") or record.get("id")
        verb = "approve" if index == 0 else "skip"
        (approved if index == 0 else skipped).append(record_id)
        items.append({"record": record_id, "action": verb})
    return {"decisions": items}, approved, skipped


def conversations(client: Any, thread_id: str) -> dict[str, list[str]]:
    """Node path ("team/ask-x/x") -> the texts of the messages checkpointed there, found by
    following each history entry's subgraph tasks (their `checkpoint` namespace)."""
    found: dict[str, list[str]] = {}
    seen: set[str] = set()

    def walk(namespace: str | None, path: list[str]) -> None:
        checkpoint = {"checkpoint_ns": namespace} if namespace else None
        for entry in client.threads.get_history(thread_id, limit=1000, checkpoint=checkpoint):
            values = entry.get("values")
            messages = values.get("messages") if isinstance(values, dict) else None
            texts = found.setdefault("/".join(path), []) if path else []
            texts += [str(message.get("content")) for message in messages or []]
            for task in entry.get("tasks", []):
                child = (task.get("checkpoint") or {}).get("checkpoint_ns")
                if child and child not in seen:
                    seen.add(child)
                    walk(child, [*path, task["name"]])

    walk(None, [])
    return found


def schemas(url: str) -> dict[str, Any]:
    client = get_sync_client(url=url)
    found: dict[str, Any] = {}
    for assistant in client.assistants.search(limit=100):
        got = client.assistants.get_schemas(assistant["assistant_id"])
        found[assistant["graph_id"]] = {
            name: got.get(name) for name in ("input_schema", "output_schema", "context_schema")
        }
    return found


def interrupts_of(client: Any, thread_id: str) -> list[dict[str, Any]]:
    state = client.threads.get_state(thread_id)
    return [i for task in state.get("tasks", []) for i in task.get("interrupts", [])]


def run(
    url: str, graph_id: str, inputs: Any, context: Any, verb: str, thread_id: str | None
) -> dict[str, Any]:
    client = get_sync_client(url=url)
    assistant = next(a for a in client.assistants.search(graph_id=graph_id))
    thread = client.threads.get(thread_id) if thread_id else client.threads.create()
    outputs = [
        client.runs.wait(
            thread["thread_id"],
            assistant["assistant_id"],
            input=inputs,
            context=context,
            raise_error=False,  # a failed run reports its __error__
        )
    ]
    for _ in range(MAX_ROUNDS):
        interrupts = interrupts_of(client, thread["thread_id"])
        if not interrupts:
            break
        resume = {
            i["id"]: {
                "decisions": [
                    {"record": record["id"], "action": verb}
                    for record in (i.get("value") or {}).get("records", [])
                ]
            }
            for i in interrupts
        }
        command = {"resume": next(iter(resume.values())) if len(resume) == 1 else resume}
        outputs.append(
            client.runs.wait(
                thread["thread_id"], assistant["assistant_id"], command=command, context=context
            )
        )
    state = client.threads.get_state(thread["thread_id"])
    return {
        "thread_id": thread["thread_id"],
        "outputs": outputs,
        "next": state.get("next"),
        "values": state.get("values"),
    }


def main() -> int:
    mode = sys.argv[1]
    if mode == "schemas":
        print(json.dumps(schemas(sys.argv[2])))
        return 0
    if mode == "run":
        context = json.loads(sys.argv[5]) if len(sys.argv) > 5 else None
        verb = sys.argv[6] if len(sys.argv) > 6 else "approve"
        thread_id = sys.argv[7] if len(sys.argv) > 7 else None
        inputs = json.loads(sys.argv[4])
        print(json.dumps(run(sys.argv[2], sys.argv[3], inputs, context, verb, thread_id)))
        return 0
    url, graph_id, inputs = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    client = get_sync_client(url=url)
    assistant = next(a for a in client.assistants.search(graph_id=graph_id))
    got = client.assistants.get_schemas(assistant["assistant_id"])
    thread = client.threads.create()
    report: dict[str, Any] = {
        "input_schema": got.get("input_schema"),
        "output_schema": got.get("output_schema"),
        "context_schema": got.get("context_schema"),
        "rounds": [],
    }
    result = client.runs.wait(thread["thread_id"], assistant["assistant_id"], input=inputs)
    report["refused"] = []
    for round_index in range(MAX_ROUNDS):
        state = client.threads.get_state(thread["thread_id"])
        interrupts = [i for task in state.get("tasks", []) for i in task.get("interrupts", [])]
        if not interrupts:
            break
        if round_index == 0:
            # A reviewer's typo first: it must not poison the thread. The gates ask again,
            # with the problems, and the good answers below are read afresh.
            bad = {
                i["id"]: {"decisions": [{"record": "r999", "action": "aprove"}]} for i in interrupts
            }
            command = {"resume": next(iter(bad.values())) if len(bad) == 1 else bad}
            client.runs.wait(thread["thread_id"], assistant["assistant_id"], command=command)
            state = client.threads.get_state(thread["thread_id"])
            interrupts = [i for task in state.get("tasks", []) for i in task.get("interrupts", [])]
            report["refused"] = [i.get("value", {}).get("problems") for i in interrupts]
        resume: dict[str, Any] = {}
        round_report = []
        for interrupt in interrupts:
            value, approved, skipped = decisions_for(interrupt.get("value"))
            resume[interrupt["id"]] = value
            round_report.append(
                {
                    "value": interrupt.get("value"),
                    "approved": approved,
                    "skipped": skipped,
                }
            )
        report["rounds"].append(round_report)
        command = {"resume": next(iter(resume.values())) if len(resume) == 1 else resume}
        result = client.runs.wait(thread["thread_id"], assistant["assistant_id"], command=command)
    state = client.threads.get_state(thread["thread_id"])
    report["next"] = state.get("next")
    report["result"] = result
    report["values"] = state.get("values")
    drawn = client.assistants.get_graph(assistant["assistant_id"], xray=True)
    report["drawn"] = [node["id"] for node in drawn.get("nodes", [])]
    report["conversations"] = conversations(client, thread["thread_id"])
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
