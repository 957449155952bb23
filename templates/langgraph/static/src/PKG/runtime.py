"""Definition data types and run-time checks every exported Envelope team shares.

The generated `team.py` describes the team with the types below (inputs, agents, pipeline
steps). This module also checks the environment (requiredSecrets / requiredVariables) and
the run inputs (`inputs`), holds the reducers of the graph state (`state.py`), the clock of
gates, secret redaction and the runner's exit codes. Nothing here calls a model or imports
LangGraph.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

T = TypeVar("T")

InputType = Literal["string", "number", "boolean", "object", "array"]

# Exit codes of the runner (documented in the README).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2
EXIT_PENDING = 3
EXIT_HALTED = 4
EXIT_TIMEOUT = 124


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


@dataclass(frozen=True)
class InputSpec:
    """One entry of the definition's `inputs`."""

    type: InputType = "string"
    description: str = ""
    required: bool = False
    enum: tuple[str, ...] | None = None
    default: Any = NO_DEFAULT
    flag: str | None = None
    """The runner's flag for this input; None when the key cannot be one (a flag another
    input or the runner already uses, or a key that is no plain flag): --inputs JSON only."""


@dataclass(frozen=True)
class AgentSpec:
    """One entry of the definition's `agents`, as the static modules need it."""

    name: str
    """The agent's identifier: create_agent(name=...), its manager's `ask_<name>` tool."""
    description: str = ""
    """What the agent is for (name, title, role, capabilities), for its manager's tool."""
    reports_to: str | None = None
    """The key of the agent's manager (agents[].reportsToKey); None for the entry agent."""


@dataclass(frozen=True)
class StepSpec:
    """One entry of the definition's `pipeline`."""

    agent_key: str
    label: str
    depends_on: tuple[str, ...] = ()
    """The steps this one waits for (dependsOn, or the previous step when omitted)."""


# --- environment ---------------------------------------------------------

EnvRequirement = str | tuple[str, ...]
"""A variable name, or alternatives of which one must be set."""


def missing_env(requirements: Sequence[EnvRequirement], environ: Mapping[str, str]) -> list[str]:
    """Every unmet requirement at once, in declaration order, without duplicates."""
    missing: list[str] = []
    for requirement in requirements:
        names = (requirement,) if isinstance(requirement, str) else requirement
        if any(environ.get(name) for name in names):
            continue
        label = names[0] if len(names) == 1 else " or ".join(names)
        if label not in missing:
            missing.append(label)
    return missing


def format_missing_env(missing: Sequence[str]) -> str:
    lines = [f"Missing {len(missing)} required environment variable(s):"]
    lines += [f"  - {name}" for name in missing]
    lines.append("Set them in the environment or in .env (see .env.example).")
    return "\n".join(lines)


class MissingEnvError(RuntimeError):
    """Required environment variables are not set; `missing` lists every one of them."""

    def __init__(self, missing: Sequence[str]) -> None:
        super().__init__(format_missing_env(missing))
        self.missing = list(missing)


# --- inputs --------------------------------------------------------------


class InputError(ValueError):
    """Invalid run inputs; `problems` lists every one of them."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def _type_ok(kind: InputType, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    return isinstance(value, list)


def coerce_flag(kind: InputType, raw: str) -> Any:
    """Turn a command-line string into a value of the input's declared type."""
    if kind == "string":
        return raw
    if kind == "boolean":
        lowered = raw.strip().lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
        raise ValueError(f"expected true or false, got {raw!r}")
    if kind == "number":
        try:
            return int(raw)
        except ValueError:
            try:
                return float(raw)
            except ValueError:
                raise ValueError(f"expected a number, got {raw!r}") from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"expected JSON ({kind}): {error.msg}") from None


def resolve_inputs(specs: Mapping[str, InputSpec], supplied: Mapping[str, Any]) -> dict[str, Any]:
    """Check types, enums and required inputs, apply defaults; raise InputError."""
    problems = [f"unknown input {name!r}" for name in supplied if name not in specs]
    resolved: dict[str, Any] = {}
    for name, spec in specs.items():
        if name in supplied and supplied[name] is not None:
            value = supplied[name]
        elif spec.default is not NO_DEFAULT:
            value = spec.default
        else:
            if spec.required:
                problems.append(f"input {name!r} is required")
            continue
        if not _type_ok(spec.type, value):
            problems.append(f"input {name!r} must be of type {spec.type}")
            continue
        if spec.enum is not None and value not in spec.enum:
            allowed = ", ".join(spec.enum)
            problems.append(f"input {name!r} must be one of: {allowed}")
            continue
        resolved[name] = value
    if problems:
        raise InputError(problems)
    return resolved


def parse_inputs_json(text: str) -> dict[str, Any]:
    """`--inputs` accepts a JSON object, or @path to a file holding one."""
    if text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise InputError([f"--inputs: cannot read {error.filename}"]) from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError([f"--inputs is not valid JSON: {error.msg}"]) from None
    if not isinstance(value, dict):
        raise InputError(["--inputs must be a JSON object"])
    return value


# --- graph state ---------------------------------------------------------

GateStates = dict[str, dict[str, Any]]
"""Gate name -> gates.GateState as JSON data (checkpoints hold plain data only)."""


def merge(left: Mapping[str, T] | None, right: Mapping[str, T] | None) -> dict[str, T]:
    """Reducer of the state's dicts keyed by step or gate: parallel writes never collide."""
    return {**(left or {}), **(right or {})}


def first_reason(left: str | None, right: str | None) -> str | None:
    """Reducer of `halted`: the first reason to halt the run wins."""
    return left or right


def utc_now() -> datetime:
    """The clock of gates (tests replace it)."""
    return datetime.now(UTC)


# --- secrets -------------------------------------------------------------

REDACTED = "[redacted]"


def redact(data: T, secret_values: Sequence[str]) -> T:
    """`data` (str, or JSON-like dicts and lists) with every secret value replaced."""
    values = [value for value in secret_values if value]
    if not values:
        return data
    return _redact(data, values)  # type: ignore[no-any-return]


def _redact(data: Any, values: Sequence[str]) -> Any:
    if isinstance(data, str):
        for value in values:
            # Also the value as written inside a JSON string (quotes and backslashes
            # escaped), since answers often hold JSON text.
            for form in {
                value,
                json.dumps(value)[1:-1],
                json.dumps(value, ensure_ascii=False)[1:-1],
            }:
                data = data.replace(form, REDACTED)
        return data
    if isinstance(data, dict):
        return {key: _redact(item, values) for key, item in data.items()}
    if isinstance(data, list | tuple):
        return [_redact(item, values) for item in data]
    return data
