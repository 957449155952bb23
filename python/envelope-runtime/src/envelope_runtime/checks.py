"""Checks every exported Envelope team makes before any model call.

The definition's `inputs` as `InputSpec`s (the generated `team.py` lists them), the
runner's input flags, the run inputs checked against them, and the environment checked
against requiredSecrets / requiredVariables and the models' keys. Every problem is
reported at once. This module is
the same in every target (templates/python-common); nothing here imports a framework.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "Ask",
    "ECHO_LIMIT",
    "EnvRequirement",
    "InputError",
    "InputSpec",
    "InputType",
    "MAX_INPUT_PROBLEMS",
    "NO_DEFAULT",
    "RUN_OPTIONS_USAGE",
    "add_input_flags",
    "coerce_flag",
    "collect_inputs",
    "cut",
    "env_file_problems",
    "env_inputs",
    "format_missing_env",
    "input_env_name",
    "load_problems",
    "missing_env",
    "parse_inputs_json",
    "parse_run_options",
    "quoted",
    "report_problems",
    "resolve_inputs",
    "resume_options",
    "strict_json",
]

InputType = Literal["string", "number", "boolean", "object", "array"]


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


def format_missing_env(missing: Sequence[str], env_file: str = ".env") -> str:
    lines = [f"Missing {len(missing)} required environment variable(s):"]
    lines += [f"  - {name}" for name in missing]
    lines.append(f"Set them in the environment or in {env_file} (see .env.example).")
    return "\n".join(lines)


def env_file_problems(env_file: str | None) -> list[str]:
    """An --env-file given on the command line must exist (the default .env may not)."""
    if env_file is None or os.path.isfile(env_file):
        return []
    return [f"--env-file: no such file {env_file!r}"]


def resume_options(state_dir: str, default_state_dir: str, env_file: str | None) -> list[str]:
    """The options a later `resume` needs to find a run: where its state is, and its .env."""
    options: list[str] = []
    if state_dir != default_state_dir:
        options += ["--state-dir", state_dir]
    if env_file is not None:
        options += ["--env-file", env_file]
    return options


def load_problems(env_name: str, load: Callable[[], object]) -> list[str]:
    """The function an environment variable names (`module:function`), loaded now, so a
    wrong name is reported with every other problem before the run starts."""
    named = os.environ.get(env_name, "").strip()
    try:
        found = load()
    except Exception as error:  # importing someone's module can raise anything
        return [f"{env_name}: cannot load {named!r} ({type(error).__name__}: {error})"]
    if found is not None and not callable(found):
        return [f"{env_name}: {named!r} is not a function"]
    return []


# --- echoes of what a person gave ---------------------------------------

ECHO_LIMIT = 200
"""The most characters of a value a person gave (an input's name or value, a record id, an
action) that a problem quotes; a longer one is cut to its start and its length (cut).
Problems are printed, and on LangGraph they are kept in the run's error and the gate's state:
a 2 MB value must not be kept there whole."""

MAX_INPUT_PROBLEMS = 20
"""The most problems one set of run inputs lists; the rest are counted."""


def cut(text: str) -> str:
    """`text` whole when it has at most ECHO_LIMIT characters, else its start and
    `… (N characters)`, ECHO_LIMIT characters in all (so cutting again changes nothing)."""
    if len(text) <= ECHO_LIMIT:
        return text
    suffix = f"… ({len(text)} characters)"
    return text[: ECHO_LIMIT - len(suffix)] + suffix


def quoted(value: object) -> str:
    """`value` (what a person gave) as a problem quotes it: the repr of its cut()."""
    return repr(cut(value if isinstance(value, str) else str(value)))


# --- inputs --------------------------------------------------------------


class InputError(ValueError):
    """Invalid run inputs; `problems` lists every one of them."""

    def __init__(self, problems: Sequence[str]) -> None:
        listed = list(problems[:MAX_INPUT_PROBLEMS])
        if len(problems) > MAX_INPUT_PROBLEMS:
            listed.append(f"and {len(problems) - MAX_INPUT_PROBLEMS} more problems")
        super().__init__("; ".join(listed))
        self.problems = listed


def _type_ok(kind: InputType, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        # NaN and the infinities are no JSON numbers: the model would get invalid JSON.
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
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
        raise ValueError(f"expected true or false, got {quoted(raw)}")
    if kind == "number":
        try:
            return int(raw)
        except ValueError:
            try:
                number = float(raw)
            except ValueError:
                raise ValueError(f"expected a number, got {quoted(raw)}") from None
            if not math.isfinite(number):
                raise ValueError(f"expected a finite number, got {quoted(raw)}") from None
            return number
    try:
        return strict_json(raw)
    except ValueError as error:
        raise ValueError(f"expected JSON ({kind}): {error}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{cut(text)} is out of range")
    return number


def strict_json(text: str) -> Any:
    """json.loads without Python's NaN / Infinity extensions, nor numbers (1e999) that would
    become infinite: none of them can be written back as JSON."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        raise ValueError(error.msg) from None


def resolve_inputs(
    specs: Mapping[str, InputSpec],
    supplied: Mapping[str, Any],
    reported: Sequence[str] = (),
) -> dict[str, Any]:
    """Check types, enums and required inputs, apply defaults; raise InputError.

    `reported` names inputs whose value was already found invalid (a flag): not checked again.
    """
    problems = [f"unknown input {quoted(name)}" for name in supplied if name not in specs]
    resolved: dict[str, Any] = {}
    for name, spec in specs.items():
        if name in reported:
            continue
        if name in supplied and supplied[name] is not None:
            value = supplied[name]
        elif spec.default is not NO_DEFAULT:
            value = spec.default
        else:
            if spec.required:
                problems.append(f"input {name!r} is required")
            continue
        if not _type_ok(spec.type, value):
            finite = " (a finite number)" if spec.type == "number" else ""
            problems.append(f"input {name!r} must be of type {spec.type}{finite}")
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
        value = strict_json(text)
    except ValueError as error:
        raise InputError([f"--inputs is not valid JSON: {error}"]) from None
    if not isinstance(value, dict):
        raise InputError(["--inputs must be a JSON object"])
    return value


# --- the runner's input flags --------------------------------------------


def add_input_flags(parser: argparse.ArgumentParser, inputs: Mapping[str, InputSpec]) -> None:
    """`--inputs JSON` and one flag per input that has one (InputSpec.flag)."""
    parser.add_argument(
        "--inputs", metavar="JSON", help="all inputs as a JSON object, or @file.json"
    )
    for name, spec in inputs.items():
        if spec.flag is None:
            continue
        details = [spec.type, "required" if spec.required else "optional"]
        if spec.enum is not None:
            details.append("one of " + ", ".join(spec.enum))
        if spec.default is not NO_DEFAULT:
            details.append(f"default {json.dumps(spec.default, ensure_ascii=False)}")
        parser.add_argument(
            spec.flag,
            dest=f"input_{name}",
            metavar="VALUE",
            help=f"{spec.description} ({'; '.join(details)})".replace("%", "%%"),
        )


RUN_OPTIONS_USAGE = "[-- RUN OPTIONS]"
"""The usage line's last part of every command that starts runs (`watch`, `poll`)."""


def parse_run_options(
    parser: argparse.ArgumentParser, argv: Sequence[str]
) -> tuple[argparse.Namespace, list[str]]:
    """A command that starts runs (`watch`, `poll`): its own options, and those it gives each
    run. Run options go after `--`, one grammar for every such command; options before it
    that the command does not know go to the runs too (`poll`'s first form), in order."""
    argv = list(argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    args, unknown = parser.parse_known_args(argv[:cut])
    return args, [*unknown, *argv[cut + 1 :]]


def input_env_name(key: str) -> str:
    """The environment variable that sets an input: INPUT_ + the key upper-cased, every
    character other than A-Z, 0-9 and _ as _ (`ticket-id` -> INPUT_TICKET_ID)."""
    return "INPUT_" + "".join(
        c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in key.upper()
    )


def env_inputs(inputs: Mapping[str, InputSpec], environ: Mapping[str, str]) -> dict[str, str]:
    """Inputs set in the environment, raw; a name two keys share sets the first one only."""
    found: dict[str, str] = {}
    taken: set[str] = set()
    for name in inputs:
        variable = input_env_name(name)
        if variable in taken:
            continue
        taken.add(variable)
        if environ.get(variable):
            found[name] = environ[variable]
    return found


Ask = Callable[[str, InputSpec], str | None]
"""Asks for one missing required input at a terminal; None when nothing was given."""


def collect_inputs(
    args: argparse.Namespace,
    inputs: Mapping[str, InputSpec],
    *,
    inputs_file: str | None = None,
    environ: Mapping[str, str] | None = None,
    base: Mapping[str, Any] | None = None,
    ask: Ask | None = None,
) -> dict[str, Any]:
    """The run's inputs, checked; raise InputError with every problem (bad flags and the
    rest together). From lowest to highest: `inputs_file` (when it exists and --inputs is
    not given), INPUT_<NAME> variables of `environ`, `base`, `--inputs`, the flags; then
    `ask` for each required input still missing."""
    supplied: dict[str, Any] = {}
    problems: list[str] = []
    bad_flags: list[str] = []
    if not args.inputs and inputs_file is not None and os.path.isfile(inputs_file):
        try:
            supplied.update(parse_inputs_json("@" + inputs_file))
        except InputError as error:
            problems += [f"{inputs_file}: {problem}" for problem in error.problems]

    def coerce(name: str, raw: str, source: str) -> None:
        try:
            supplied[name] = coerce_flag(inputs[name].type, raw)
        except ValueError as error:
            problems.append(f"{source}: {error}")
            bad_flags.append(name)

    for name, raw in env_inputs(inputs, environ or {}).items():
        coerce(name, raw, input_env_name(name))
    supplied.update(base or {})
    if args.inputs:
        try:
            supplied.update(parse_inputs_json(args.inputs))
        except InputError as error:
            problems += error.problems
    for name, spec in inputs.items():
        raw = getattr(args, f"input_{name}", None)
        if raw is not None:
            coerce(name, raw, str(spec.flag))
    for name, spec in inputs.items() if ask is not None else ():
        if not spec.required or spec.default is not NO_DEFAULT or name in bad_flags:
            continue
        if supplied.get(name) is not None:
            continue
        answer = ask(name, spec)
        if answer:
            coerce(name, answer, f"input {name!r}")
    try:
        resolved = resolve_inputs(inputs, supplied, bad_flags)
    except InputError as error:
        problems += error.problems
    if problems:
        raise InputError(problems)
    return resolved


def report_problems(
    missing: Sequence[str], problems: Sequence[str], env_file: str = ".env"
) -> bool:
    """Print every missing variable and every invalid input; True when there was any."""
    if missing:
        print(format_missing_env(missing, env_file), file=sys.stderr)
    if problems:
        print("Invalid request:\n" + "\n".join(f"  - {p}" for p in problems), file=sys.stderr)
    return bool(missing or problems)
