"""`run --url`: an Agent Server that stops answering while the run goes on (the stream cut,
or the state read after it refused) is reported as such, with the thread and how to look at
it again, not as a failed run. The server is a scripted one on a local port: each connection
gets the next scripted answer, then the port is closed (a connection refused, as when the
server is down)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator

import helpers
import pytest
from fakes import FakeBoard
from project import main, runtime

pytestmark = pytest.mark.anyio

Answer = Callable[[socket.socket], None]


def _not_found(conn: socket.socket) -> None:
    """The state of a new thread (RemoteGraph.aget_state: POST /threads/<id>/state/checkpoint):
    the server does not know it yet."""
    body = json.dumps({"detail": "Thread not found"}).encode()
    head = (
        f"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
    )
    conn.sendall(f"{head}\r\nConnection: close\r\n\r\n".encode() + body)


def _chunk(text: str) -> bytes:
    data = text.encode()
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def _stream(whole: bool) -> Answer:
    """POST /threads/<id>/runs/stream: the run's first event, then the stream ends (`whole`)
    or the connection is dropped mid-body (the server went down)."""

    def answer(conn: socket.socket) -> None:
        head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked"
        conn.sendall(f"{head}\r\nConnection: close\r\n\r\n".encode())
        conn.sendall(_chunk('event: metadata\ndata: {"run_id": "r-1"}\n\n'))
        if whole:
            conn.sendall(_chunk("event: end\ndata: null\n\n") + b"0\r\n\r\n")

    return answer


def _read_request(conn: socket.socket) -> str:
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        body += conn.recv(65536)
    return head.split(b"\r\n")[0].decode()


@pytest.fixture
def scripted() -> Iterator[Callable[[list[Answer]], tuple[str, list[str]]]]:
    threads: list[threading.Thread] = []

    def serve(script: list[Answer]) -> tuple[str, list[str]]:
        listener = socket.create_server(("127.0.0.1", 0))
        seen: list[str] = []

        def run() -> None:
            with listener:
                for answer in script:
                    conn, _ = listener.accept()
                    with conn:
                        seen.append(_read_request(conn))
                        answer(conn)
            # the listener is closed here: any further request is refused

        threads.append(threading.Thread(target=run, daemon=True))
        threads[-1].start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}", seen

    yield serve
    for thread in threads:
        thread.join(timeout=10)


@pytest.mark.parametrize("whole", [False, True], ids=["stream-cut", "state-refused"])
async def test_a_server_that_goes_down_mid_run_is_named_not_a_failed_run(
    whole: bool,
    team_env: dict[str, str],
    board: FakeBoard,
    scripted: Callable[[list[Answer]], tuple[str, list[str]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, seen = scripted([_not_found, _stream(whole)])

    code = await main.amain([*helpers.run_argv(), "--url", url])

    err = capsys.readouterr().err
    assert code == runtime.EXIT_CONFIG, err
    # One read of the thread's state before the run (it tells "down" from "not found").
    paths = [line.split(" ")[1].split("/")[3:] for line in seen]
    assert paths == [["state", "checkpoint"], ["runs", "stream"]], seen
    thread_id = seen[0].split("/")[2]
    assert f"Thread {thread_id} ({url})" in err
    assert f"cannot reach the Agent Server at {url} (" in err
    assert f"Thread {thread_id} is kept on the server, and its run may still be going on" in err
    assert f"resume {thread_id} " in err and f"--url {url}" in err
    assert "Run failed" not in err and "Traceback" not in err
    assert board.calls == []
