"""Definition data types and run-time checks every exported Envelope team shares.

The generated `team.py` describes the team with the types below (inputs, agents,
pipeline steps). This module also checks the environment (requiredSecrets /
requiredVariables) and the run inputs (`inputs`), and enforces the whole-run deadline
(`timeout.runMs`). Nothing here calls a model.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from crewai.hooks import HookAborted, LLMCallHookContext, register_before_llm_call_hook

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

    method: str
    """The agent's @agent method in crew.py and its entry in config/agents.yaml."""
    reports_to: str | None = None
    """agents[].reportsToKey: the key of the agent's manager; None for a root."""


@dataclass(frozen=True)
class StepSpec:
    """One entry of the definition's `pipeline`."""

    agent_key: str
    label: str
    depends_on: tuple[str, ...] = ()


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


# --- whole-run deadline (timeout.runMs) ----------------------------------


class RunTimeout(Exception):
    """The whole run went past timeout.runMs."""


class Deadline:
    """A wall-clock budget; time spent waiting for a human reviewer is excluded."""

    def __init__(self, ms: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.ms = ms
        self._clock = clock
        self._lock = threading.Lock()
        self._ends_at = clock() + ms / 1000
        self._paused_since: float | None = None
        self._pauses = 0

    def remaining(self) -> float:
        with self._lock:
            now = self._paused_since if self._paused_since is not None else self._clock()
            return self._ends_at - now

    def expired(self) -> bool:
        return self.remaining() <= 0

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Stop the clock while a human answers; pauses may overlap."""
        with self._lock:
            if self._pauses == 0:
                self._paused_since = self._clock()
            self._pauses += 1
        try:
            yield
        finally:
            with self._lock:
                self._pauses -= 1
                if self._pauses == 0 and self._paused_since is not None:
                    self._ends_at += self._clock() - self._paused_since
                    self._paused_since = None

    def message(self) -> str:
        return (
            f"Run deadline exceeded: the team did not finish within {self.ms} ms "
            "(timeout.runMs). No further model calls are made."
        )


_active_deadline: ContextVar[Deadline | None] = ContextVar("envelope_run_deadline", default=None)


def active_deadline() -> Deadline | None:
    """The deadline of the run this thread belongs to, if any."""
    return _active_deadline.get()


def _deadline_guard(context: LLMCallHookContext) -> None:
    # Refuses every model call of a run whose deadline has passed. CrewAI copies
    # the context into the threads it starts (flow steps, agent timeouts).
    deadline = _active_deadline.get()
    if deadline is not None and deadline.expired():
        raise HookAborted(deadline.message())


register_before_llm_call_hook(_deadline_guard)


def run_with_deadline(work: Callable[[], T], deadline: Deadline) -> T:
    """Run `work` in a worker thread; raise RunTimeout once the deadline passes.

    A thread cannot be killed: after a timeout the worker may still finish its
    in-flight model call, but the deadline guard refuses every further one.
    """
    box: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        _active_deadline.set(deadline)
        try:
            box["value"] = work()
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller
            box["error"] = error
        finally:
            done.set()

    worker = threading.Thread(target=target, name="envelope-run", daemon=True)
    worker.start()
    while not done.wait(timeout=min(max(deadline.remaining(), 0.0), 0.05)):
        if deadline.expired():
            raise RunTimeout(deadline.message())
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]
