"""`--url` runs as the Agent Server receives them, through a fake langgraph-sdk client: a
resume goes on with the assistant the thread's runs used (its context), and a `watch --url`
run carries the triggering workspace rows to the server's nodes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import helpers
import pytest
from langchain_core.runnables import RunnableLambda
from langgraph.pregel.remote import RemoteGraph
from project import TEAM, main, prompts, runtime, team

from envelope_runtime import run_context
from envelope_runtime.langgraph import run_client

pytestmark = pytest.mark.anyio


def _state(thread_id: str, values: dict[str, Any], next_nodes: list[str]) -> dict[str, Any]:
    """A thread's state as the server's JSON gives it (threads.get_state)."""
    where = {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": "c-1"}
    return {
        "values": values,
        "next": next_nodes,
        "checkpoint": where,
        "metadata": {},
        "created_at": "2026-01-01T00:00:00+00:00",
        "parent_checkpoint": None,
        "tasks": [],
        "interrupts": [],
    }


class FakeServer:
    """langgraph-sdk's async client, for the calls a run and a resume make: a thread that
    stopped on an error (`states[0]`), finished by the next run (`states[1]`)."""

    def __init__(self, thread_metadata: dict[str, Any]) -> None:
        self.thread_metadata = thread_metadata
        self.states: list[dict[str, Any]] = []
        self.runs_started: list[dict[str, Any]] = []
        self.threads = self
        self.runs = self

    async def get(self, thread_id: str, **_: Any) -> dict[str, Any]:
        return {"thread_id": thread_id, "metadata": self.thread_metadata}

    async def get_state(self, thread_id: str, **_: Any) -> dict[str, Any]:
        if not self.states:  # a new thread: the server's 404
            raise RuntimeError("Thread not found")
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]

    async def stream(self, **run: Any) -> AsyncIterator[Any]:
        self.runs_started.append(run)
        self.states = [_state(run["thread_id"], {"result": {"done": True}}, [])]
        return
        yield  # an async generator that streams nothing


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> FakeServer:
    fake = FakeServer({"graph_id": run_client.command_name(TEAM), "assistant_id": "a-chosen"})

    class Served(RemoteGraph):
        def __init__(self, assistant_id: str, *, url: str) -> None:
            super().__init__(assistant_id, client=fake)  # type: ignore[arg-type]

    monkeypatch.setattr(run_client, "RemoteGraph", Served)
    return fake


@pytest.mark.parametrize("metadata", [{"assistant_id": "a-chosen"}, {}], ids=["named", "none"])
async def test_a_served_resume_goes_on_with_the_threads_assistant(
    metadata: dict[str, Any],
    team_env: dict[str, str],
    server: FakeServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server.thread_metadata = metadata
    thread_id = "5d0e4a8e-0000-4000-8000-000000000001"
    stopped = _state(thread_id, {"inputs": {}, "work": []}, [next(iter(team.AGENTS))])
    server.states = [stopped]

    code = await main.amain(
        ["resume", thread_id, *helpers.interactive_flag(False), "--url", "http://agent-server.test"]
    )

    assert code == runtime.EXIT_OK, capsys.readouterr().err
    [run] = server.runs_started
    # the assistant the thread's runs used, else the graph (langgraph.json names it so)
    assert run["assistant_id"] == (metadata.get("assistant_id") or run_client.command_name(TEAM))


async def test_a_watch_url_run_sends_the_triggering_rows_to_the_servers_nodes(
    team_env: dict[str, str],
    server: FakeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not hasattr(team, "WORKSPACE"):
        pytest.skip("the team has no workspace")
    rows = [{"document": "d", "trigger": {"column": "c", "status": "s"}, "row": {"id": "r-1"}}]
    monkeypatch.setattr(run_context, "TRIGGERED", list(rows))
    await run_client.start_run(TEAM, [*helpers.run_argv(), "--url", "http://agent-server.test"])
    [run] = server.runs_started
    sent = run["config"]["configurable"][run_context.CONFIG_KEY]
    assert sent == rows, capsys.readouterr().err

    # On the server (another process: TRIGGERED empty there), a node's task reads them
    # from the run's config, as they would be read here.
    monkeypatch.setattr(run_context, "TRIGGERED", [])
    here = run_context.trigger_text(rows)
    assert here and prompts.triggered_text(TEAM) == ""  # outside a run: none
    node = RunnableLambda(lambda _: prompts.triggered_text(TEAM))
    assert node.invoke(None, {"configurable": run["config"]["configurable"]}) == here
