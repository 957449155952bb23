"""Offline test setup: no tracing, no network, fake models, a fresh working directory.

This suite tests envelope-export's LangGraph support code against an export (see
project.py); python-common's modules are tested by python/envelope-runtime/tests/common/, run with
it (whose input_cases.py this suite imports).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path as _Path

# This folder's helpers, and python-common's (../common/), whatever
# pytest's import mode and wherever it is run from.
sys.path[:0] = [
    str(_Path(__file__).parent),
    str(_Path(__file__).parents[1] / "common"),
]

# LangSmith tracing would send runs over the network (and serialize the fakes' state).
for _name in [name for name in os.environ if name.startswith(("LANGSMITH_", "LANGCHAIN_"))]:
    del os.environ[_name]

# A team with an MCP pack lists its server's tools when graph.py builds the graph, at import:
# the server is the fake one (mcp_fake.py) from before project.py is imported.
import common_project  # noqa: E402
from mcp_fake import FakeMcpServer  # noqa: E402

if getattr(common_project.team, "MCP_SERVERS", None):
    from envelope_runtime.langgraph.connection_tools import set_mcp_transport

    set_mcp_transport(FakeMcpServer().transport())
    for _server in common_project.team.MCP_SERVERS.values():
        for _env in _server.auth.env:
            os.environ.setdefault(_env, f"test-{_env.lower()}")

from pathlib import Path  # noqa: E402

import helpers  # noqa: E402
import httpx  # noqa: E402
import pytest  # noqa: E402
from fakes import FakeBoard  # noqa: E402
from project import llms, models, tools  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in its own directory (no stray .env) without model settings."""
    monkeypatch.delenv(llms.FACTORY_ENV, raising=False)
    monkeypatch.delenv(llms.MODEL_ENV, raising=False)
    # Nor a model override or endpoint from the shell (model_env.py, llms.BASE_URL_ENV).
    base_urls = [name for names in llms.BASE_URL_ENV.values() for name in names]
    for name in [name for name in os.environ if name.startswith("MODEL_")] + base_urls:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def team_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Every required secret, variable and provider key, with test values."""
    env = helpers.test_env()
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> FakeBoard:
    """Fake models for every agent; also behind models.model_for, which the runner uses."""
    fakes = FakeBoard(list_length=helpers.list_length())
    monkeypatch.setattr(models, "model_for", fakes.model_for)
    return fakes


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[httpx.Request]:
    """Every http_request tool uses a transport that records the request and fails it."""
    seen: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        raise AssertionError(f"unexpected network request: {request.method} {request.url}")

    monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(refuse))
    return seen
