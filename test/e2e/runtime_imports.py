"""Which runtime modules exported teams load: `python runtime_imports.py [--run] TARGET PACKAGE...`.

Imports the team's entry modules (main; crew.py and flow.py for CrewAI, graph.py and server.py
for LangGraph, each when the export has it), then builds what a run builds before its first
model call, with models that are never called: CrewAI's crew object (a hierarchy's team crew,
or a pipeline's flow and its first step's crew), LangGraph's compiled graph. Then prints, as
one JSON line on stdout, every runtime module in sys.modules with its file: `envelope_runtime`
and its submodules, and a team package's own copied `envelope_support` modules (exports made
before the runtime became a library); and ("mcp") the third-party MCP client modules the team
loaded beyond what the framework imports by itself. The caller puts each export's src/ (and the
library it measures) first on PYTHONPATH. Used by test/e2e/runtime-imports.test.ts and
bench/lines.ts.

With `--run`, what a team's first run loads instead: the team runs offline through its target's
`run_offline` (the harness of the export's own whole-team test, tests/test_team*.py: scripted
models, test values for its environment), first command only: the team's console script
(CrewAI: run_offline(max_rounds=0), main.py's COMMANDS; LangGraph: main.main with the
harness's ScriptedModels through ENVELOPE_MODEL_FACTORY, since its run_offline invokes the
graph, not the command), `--no-interactive` where the team has gates: a gated pipeline stops
at its first gate, as a non-interactive run does. The answer has the same shape, `modules`
without the harness's own modules (HARNESS: they serve the offline test, a real run never
loads them; listed under "harness"), plus "codes": the command's exit codes (0 done, 3 waiting
at a gate), and "harness_imports": the other runtime modules importing the harness loaded
before the run, which count only if the team loads them itself.

Each package is measured in a process of its own, forked from this one once it has imported
the framework (no runtime module is loaded by then), so the framework's import is paid once
per target, not once per team. A package that fails prints {"package": ..., "error": ...}.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

# What the exports' own offline tests set (tests/conftest.py), before any framework import.
_HOME = tempfile.mkdtemp(prefix="runtime-imports-home-")
os.environ.update(
    {
        "CREWAI_DISABLE_TELEMETRY": "true",
        "CREWAI_DISABLE_TRACKING": "true",
        "CREWAI_TRACING_ENABLED": "false",
        "CREWAI_DISABLE_VERSION_CHECK": "true",
        "OTEL_SDK_DISABLED": "true",
        "HOME": _HOME,
        "XDG_DATA_HOME": os.path.join(_HOME, "data"),
    }
)


def _optional(name: str) -> ModuleType | None:
    """The module `name` when the export has it."""
    return importlib.import_module(name) if importlib.util.find_spec(name) else None


def _fake_mcp_server(request: Any) -> Any:
    """An MCP server (streamable HTTP, JSON answers) with one tool: what the exports' own tests
    give a team with MCP packs (templates/python-common/partials/conftest-mcp.hbs)."""
    import httpx

    if request.method != "POST":
        return httpx.Response(405)
    message = json.loads(request.content)
    if "id" not in message:
        return httpx.Response(202)
    if message["method"] == "initialize":
        result: dict[str, object] = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fake", "version": "1.0.0"},
        }
    elif message["method"] == "tools/list":
        lookup = {"type": "object", "properties": {"query": {"type": "string"}}}
        result = {"tools": [{"name": "lookup", "description": "Looks up.", "inputSchema": lookup}]}
    else:
        error = {"code": -32601, "message": message["method"]}
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "error": error})
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "result": result})


def _offline_mcp(target: str, team: ModuleType) -> None:
    """A team with MCP packs lists its servers' tools when its agents are built: a fake server
    answers, and its credentials get test values (a team without packs skips this)."""
    servers = getattr(team, "MCP_SERVERS", None)
    if not servers:
        return
    import httpx

    transport = httpx.MockTransport(_fake_mcp_server)
    tools = importlib.import_module(f"envelope_runtime.{target}.connection_tools")
    setter = getattr(tools, "set_mcp_transport", None)
    if setter is not None:
        setter(transport)
    else:  # a runtime without the public setter: the module attribute it would set
        tools.MCP_TRANSPORT = transport
    for server in servers.values():
        for name in server.auth.env:
            os.environ.setdefault(name, f"test-value-of-{name.lower()}")


def _build_crewai(package: str, team: ModuleType) -> list[str]:
    from crewai import BaseLLM

    class NoModel(BaseLLM):
        """Every agent's model: never called."""

        def call(self, *args: Any, **kwargs: Any) -> str:
            raise AssertionError("a model was called")

    built = []
    models = importlib.import_module(f"{package}.models")
    models.llm_for = lambda key: NoModel(model=f"none/{key}")  # type: ignore[attr-defined]
    crew = importlib.import_module(f"{package}.crew")
    flow = _optional(f"{package}.flow")
    team_crew = crew.TeamCrew()
    built.append("crew.TeamCrew()")
    if flow is None:
        team_crew.crew()
        built.append("TeamCrew().crew()")
    else:
        flow.TeamFlow(suppress_flow_events=True)
        built.append("flow.TeamFlow()")
        first = next(iter(team.PIPELINE))
        team_crew.step_crew(first, "", {})
        built.append(f"TeamCrew().step_crew({first!r})")
    return built


def _build_langgraph(package: str) -> list[str]:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.outputs import ChatResult

    class NoModel(BaseChatModel):
        """Every agent's chat model: never called."""

        @property
        def _llm_type(self) -> str:
            return "no-model"

        def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
            raise AssertionError("a model was called")

    graph = importlib.import_module(f"{package}.graph")  # builds `graph` for langgraph.json
    _optional(f"{package}.server")
    graph.build_graph(model_for=lambda key: NoModel())
    return ["graph.graph (at import)", "graph.build_graph(model_for=<no model>)"]


# Third-party MCP clients (the MCP SDK, LangChain's adapters): loaded only for MCP packs.
MCP_CLIENTS = ("mcp", "langchain_mcp_adapters")


def _measure(target: str, package: str, baseline: set[str]) -> dict[str, Any]:
    team = importlib.import_module(f"{package}.team")
    for name in (*team.SECRETS, *team.VARIABLES):
        os.environ.setdefault(name, f"test-{name.lower()}")
    importlib.import_module(f"{package}.main")
    _offline_mcp(target, team)
    built = _build_crewai(package, team) if target == "crewai" else _build_langgraph(package)
    modules = _runtime_modules(package)
    mcp = sorted(
        name for name in sys.modules if name.split(".")[0] in MCP_CLIENTS and name not in baseline
    )
    return {"package": package, "target": target, "built": built, "modules": modules, "mcp": mcp}


# The offline harness (run_offline and what serves it): loaded by `--run`, not counted, since a
# real run never imports it.
HARNESS = {
    "crewai": ("envelope_runtime.testing", "envelope_runtime.crewai.testing"),
    "langgraph": ("envelope_runtime.testing", "envelope_runtime.langgraph.testing"),
}


def _runtime_modules(package: str) -> dict[str, str]:
    """envelope_runtime's modules in sys.modules (and the package's copied envelope_support)."""
    copied = f"{package}.envelope_support"
    return {
        name: os.path.realpath(module.__file__)
        for name, module in sorted(sys.modules.items())
        if (name == "envelope_runtime" or name.startswith("envelope_runtime."))
        or (name == copied or name.startswith(f"{copied}."))
        if getattr(module, "__file__", None)
    }


_SCRIPTED: list[Any] = []
"""The LangGraph run's ScriptedModels, for _scripted_model."""


def _scripted_model(agent_key: str) -> Any:
    """ENVELOPE_MODEL_FACTORY of a LangGraph `--run`: the harness's scripted chat model."""
    return _SCRIPTED[0].model_for(agent_key)


def _run_langgraph(package: Any, directory: str) -> list[int]:
    """The team's console script (main.main), first command, with the harness's scripted models
    through the models' public seam: LangGraph's run_offline invokes the graph, not the command,
    and would miss what the command loads (run_client, a paused gate's report)."""
    from envelope_runtime.langgraph.llms import FACTORY_ENV
    from envelope_runtime.langgraph.testing import ScriptedModels
    from envelope_runtime.testing import offline_env, sample

    _SCRIPTED.append(ScriptedModels(package))
    os.environ.update({**offline_env(package), FACTORY_ENV: f"{__name__}:_scripted_model"})
    team = package.team
    inputs = sample(team.TeamInputs.model_json_schema())
    gated = ["--no-interactive"] if team.GATES else []
    state = ["--state-dir", os.path.join(directory, "runs")]
    return [package.module("main").main(["--inputs", json.dumps(inputs), *gated, *state])]


def _run(target: str, package: str, baseline: set[str]) -> dict[str, Any]:
    for name in HARNESS[target]:
        importlib.import_module(name)
    harness_imports = sorted(set(_runtime_modules(package)) - set(HARNESS[target]))
    team_package = importlib.import_module("envelope_runtime.team_package").TeamPackage(package)
    _offline_mcp(target, team_package.team)
    directory = tempfile.mkdtemp(prefix="runtime-imports-run-")
    os.chdir(directory)  # the run's state, if any, stays out of the caller's directory
    if target == "crewai":
        from envelope_runtime.crewai.testing import run_offline

        codes = run_offline(team_package, Path(directory), max_rounds=0).codes
        ran = "crewai.testing.run_offline(max_rounds=0): main.py's COMMANDS, first command"
    else:
        codes = _run_langgraph(team_package, directory)
        ran = "main.main(--inputs ...): langgraph.testing.ScriptedModels as ENVELOPE_MODEL_FACTORY"
    loaded = _runtime_modules(package)
    modules = {name: file for name, file in loaded.items() if name not in HARNESS[target]}
    harness = {name: file for name, file in loaded.items() if name in HARNESS[target]}
    mcp = sorted(
        name for name in sys.modules if name.split(".")[0] in MCP_CLIENTS and name not in baseline
    )
    return {
        "package": package,
        "target": target,
        "ran": ran,
        "modules": modules,
        "mcp": mcp,
        "codes": codes,
        "harness": harness,
        "harness_imports": harness_imports,
    }


# What every team of a target imports anyway: loaded before forking, shared by the children.
FRAMEWORK = {
    "crewai": ("crewai", "crewai.flow", "crewai.project"),
    "langgraph": ("langgraph.graph", "langchain.agents", "langchain_core.language_models"),
}


def main(argv: list[str]) -> int:
    run = argv[:1] == ["--run"]
    argv = argv[1:] if run else argv
    if len(argv) < 2 or argv[0] not in FRAMEWORK:
        print(__doc__, file=sys.stderr)
        return 2
    target, packages = argv[0], argv[1:]
    measure = _run if run else _measure
    for name in FRAMEWORK[target]:
        importlib.import_module(name)
    assert not [m for m in sys.modules if m.startswith("envelope_runtime")], "loaded too early"
    baseline = set(sys.modules)  # what the framework loads by itself
    failed = 0
    for package in packages:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            # stdout holds only the answer: what the framework prints goes to stderr.
            answer = os.fdopen(os.dup(1), "w")
            os.dup2(2, 1)
            code = 0
            try:
                result = measure(target, package, baseline)
            except BaseException as error:  # noqa: BLE001 - reported as the package's answer
                traceback.print_exc()
                result, code = {"package": package, "error": f"{type(error).__name__}: {error}"}, 1
            answer.write(json.dumps(result) + "\n")
            answer.flush()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        failed += os.waitstatus_to_exitcode(status) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
