"""Offline test setup. CrewAI reads these switches once, when first imported,
so they are set here, before any test module imports crewai.

This suite tests envelope-export's CrewAI support code against an export (see project.py);
python-common's modules are tested by python/envelope-runtime/tests/common/, run with it (whose
input_cases.py this suite imports).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path as _Path

# This folder's helpers, and python-common's (../common/), whatever
# pytest's import mode (an export's pyproject sets importlib, which adds no folder to
# sys.path).
sys.path[:0] = [
    str(_Path(__file__).parent),
    str(_Path(__file__).parents[1] / "common"),
]

_HOME = tempfile.mkdtemp(prefix="envelope-tests-home-")
os.environ.update(
    {
        "CREWAI_DISABLE_TELEMETRY": "true",
        "OTEL_SDK_DISABLED": "true",
        "CREWAI_DISABLE_TRACKING": "true",
        "CREWAI_TRACING_ENABLED": "false",
        "CREWAI_TESTING": "true",
        "CREWAI_DISABLE_VERSION_CHECK": "true",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HOME": _HOME,
        "XDG_DATA_HOME": os.path.join(_HOME, "data"),
    }
)

# A team with an MCP pack lists its server's tools when a crew kicks off: the server is the
# fake one (mcp_fake.py), as in the LangGraph suite.
import common_project  # noqa: E402
from mcp_fake import FakeMcpServer  # noqa: E402

if getattr(common_project.team, "MCP_SERVERS", None):
    from envelope_runtime.crewai.connection_tools import set_mcp_transport

    set_mcp_transport(FakeMcpServer().transport())
    for _server in common_project.team.MCP_SERVERS.values():
        for _env in _server.auth.env:
            os.environ.setdefault(_env, f"test-{_env.lower()}")

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import helpers  # noqa: E402
import httpx  # noqa: E402
import pytest  # noqa: E402
from fake_llm import FakeModels  # noqa: E402
from project import llms, models, tools  # noqa: E402


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test gets its own HOME, data dir and working directory (no stray .env), and
    leaves no run deadline behind (a test dispatching CrewAI's INPUT hook by hand starts a
    kickoff's, which no EXECUTION_END ends)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(llms.FACTORY_ENV, raising=False)
    monkeypatch.delenv("MODEL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)  # runs and rows in files (test_database.py)
    # Nor a model override or endpoint from the shell (model_env.py, llms.BASE_URL_ENV).
    base_urls = [name for names in llms.BASE_URL_ENV.values() for name in names]
    for name in [name for name in os.environ if name.startswith("MODEL_")] + base_urls:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    yield
    deadline = sys.modules.get("envelope_runtime.crewai.deadline")  # not imported for this
    if deadline is not None:
        deadline._active_deadline.set(None)


@pytest.fixture
def team_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Every required secret, variable and provider key, with test values."""
    env = helpers.test_env()
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@pytest.fixture
def fake_models(monkeypatch: pytest.MonkeyPatch) -> FakeModels:
    """Replaces the model seam, models.llm_for, with fakes sharing one board."""
    board = FakeModels(helpers.roles(), list_length=helpers.list_length())
    monkeypatch.setattr(models, "llm_for", board.llm_for)
    return board


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[httpx.Request]:
    """Every HTTP request tool uses a transport that records the request and fails it."""
    seen: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        raise AssertionError(f"unexpected network request: {request.method} {request.url}")

    if tools is not None:  # a team without egress ships no HTTP tool
        monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(refuse))
    return seen
