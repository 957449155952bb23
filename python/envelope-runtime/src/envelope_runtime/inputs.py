"""A run's inputs from their sources (flags, --inputs, INPUT_<NAME>, inputs.json, the
terminal), checked by the team's `TeamInputs`, and the variables it needs: every problem is
named, all at once."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from .echo import cut, quoted
from .input_spec import NO_DEFAULT, InputSpec, input_specs

# --- problems -----------------------------------------------------------

MAX_INPUT_PROBLEMS = 20


class InputError(ValueError):
    """Invalid run inputs; `problems` lists every one of them."""

    def __init__(self, problems: Sequence[str]) -> None:
        listed = list(problems[:MAX_INPUT_PROBLEMS])
        if len(problems) > MAX_INPUT_PROBLEMS:
            listed.append(f"and {len(problems) - MAX_INPUT_PROBLEMS} more problems")
        super().__init__("; ".join(listed))
        self.problems = listed


# --- values ---------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{cut(text)} is out of range")
    return number


def strict_json(text: str) -> Any:
    """json.loads without NaN, Infinity or 1e999: no JSON can carry them to a model."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        raise ValueError(error.msg) from None


# a string's reading as a number or a boolean: pydantic's (true/false, yes/no, on/off, 1/0)
_READ = {
    "number": TypeAdapter(int | float, config=ConfigDict(allow_inf_nan=False)),
    "boolean": TypeAdapter(bool),
}


def parse_inputs_json(text: str, source: str = "--inputs") -> dict[str, Any]:
    """`--inputs` accepts a JSON object, or @path to a file holding one (`source`: what the
    messages name, inputs.json when the runner reads it)."""
    if text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise InputError([f"{source}: cannot read {error.filename}"]) from None
    try:
        value = strict_json(text)
    except ValueError as error:
        raise InputError([f"{source} is not valid JSON: {error}"]) from None
    if not isinstance(value, dict):
        raise InputError([f"{source} must be a JSON object"])
    return value


def checked(
    model: type[BaseModel],
    supplied: Mapping[str, Any],
    reported: Sequence[str] = (),
    channels: Mapping[str, str] = {},
) -> dict[str, Any]:
    """The inputs as `model` validates them (a None value counts as not given), by key,
    without the optional ones not given; raise InputError naming each bad input.
    `reported`: inputs already found invalid (a flag), not checked again. `channels`: key ->
    the field's name, for the fields named otherwise (LangGraph's state.INPUT_CHANNELS)."""
    keys = {field: key for key, field in channels.items()}
    given = {k: v for k, v in supplied.items() if v is not None and k not in reported}
    # a renamed field's name is no key: given as one, it is an unknown input
    problems = {k: f"unknown input {quoted(k)}" for k in given if k in keys and k not in channels}
    fields = {channels.get(k, k): v for k, v in given.items() if k not in problems}
    try:
        valid = model.model_validate(fields)
    except ValidationError as error:
        for found in error.errors():  # an `int | float` has two errors: the last, float's
            key = keys.get(str(found["loc"][0]), str(found["loc"][0]))
            if found["type"] == "extra_forbidden":
                problems[key] = f"unknown input {quoted(key)}"
            elif found["type"] != "missing":
                problems[key] = f"input {key!r}: {found['msg']}"
            elif key not in reported:
                problems[key] = f"input {key!r} is required"
        raise InputError(list(problems.values())) from None
    if problems:
        raise InputError(list(problems.values()))
    values = valid.model_dump(by_alias=True)
    return {keys.get(k, k): value for k, value in values.items() if value is not None}


# --- the command line -----------------------------------------------------


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


def collect_inputs(
    args: argparse.Namespace,
    model: type[BaseModel],
    channels: Mapping[str, str] = {},
    *,
    inputs_file: str | None = None,
    environ: Mapping[str, str] | None = None,
    base: Mapping[str, Any] | None = None,
    ask: Callable[[str, InputSpec], str | None] | None = None,
) -> dict[str, Any]:
    """The run's inputs from every source (see above), checked by the team's inputs `model`
    (`channels`: see checked); raise InputError with every problem (bad flags and the rest
    together). `ask` asks for a missing required input at a terminal (None: no answer)."""
    inputs = input_specs(model, channels)
    environ = environ or {}
    supplied: dict[str, Any] = {}
    problems: list[str] = []
    bad: list[str] = []
    unreadable = False  # a JSON source that cannot be read may hold the required inputs
    if not args.inputs and inputs_file is not None and os.path.isfile(inputs_file):
        try:
            supplied.update(parse_inputs_json("@" + inputs_file, inputs_file))
        except InputError as error:
            problems += error.problems
            unreadable = True

    def coerce(name: str, raw: str, source: str) -> None:
        """A string (a flag, INPUT_<NAME>, an answer) as a value of the input's type."""
        kind = inputs[name].type
        try:  # " yes" as typed at a terminal is yes, as " 3" is 3
            if kind in _READ:
                supplied[name] = _READ[kind].validate_strings(raw.strip())
            else:
                supplied[name] = raw if kind == "string" else strict_json(raw)
        except ValidationError as error:  # int | float: the last error is float's
            forms = " (true/false, yes/no, on/off, 1/0)" if kind == "boolean" else ""
            problems.append(f"{source}: {error.errors()[-1]['msg']}{forms}, got {quoted(raw)}")
            bad.append(name)
        except ValueError as error:
            problems.append(f"{source}: expected JSON ({kind}): {error}")
            bad.append(name)

    seen: set[str] = set()  # a variable two keys share sets the first one only
    for name in inputs:
        variable = "INPUT_" + re.sub(r"[^A-Z0-9_]", "_", name.upper())  # the key upper-cased
        if variable not in seen and environ.get(variable):
            coerce(name, environ[variable], variable)
        seen.add(variable)
    supplied.update(base or {})
    if args.inputs:
        try:
            supplied.update(parse_inputs_json(args.inputs))
        except InputError as error:
            problems += error.problems
            unreadable = True
    for name, spec in inputs.items():
        raw = getattr(args, f"input_{name}", None)
        if raw is not None:
            coerce(name, raw, str(spec.flag))
    for name, spec in inputs.items() if ask is not None else ():
        if spec.required and name not in bad:
            answer = None if supplied.get(name) is not None else ask(name, spec)
            if answer:
                coerce(name, answer, f"input {name!r}")
    try:
        resolved = checked(model, supplied, bad, channels)
    except InputError as error:
        required = [p for p in error.problems if p.endswith(" is required")]
        problems += [p for p in error.problems if not (unreadable and p in required)]
    if problems:
        raise InputError(problems)
    return resolved


# --- the environment --------------------------------------------------------

EnvRequirement = str | tuple[str, ...]
"""A variable name, or alternatives of which one must be set."""


def missing_env(requirements: Sequence[EnvRequirement], environ: Mapping[str, str]) -> list[str]:
    """Every unmet requirement at once, in declaration order, without duplicates."""
    missing: list[str] = []
    for requirement in requirements:
        names = (requirement,) if isinstance(requirement, str) else requirement
        label = " or ".join(names)
        if not any(environ.get(name) for name in names) and label not in missing:
            missing.append(label)
    return missing


def env_file_problems(env_file: str | None) -> list[str]:
    """An --env-file given on the command line must exist (the default .env may not)."""
    if env_file is None or os.path.isfile(env_file):
        return []
    return [f"--env-file: no such file {env_file!r}"]


def report_problems(
    missing: Sequence[str], problems: Sequence[str], env_file: str = ".env"
) -> bool:
    """Print every missing variable and every invalid input; True when there was any."""
    if missing:
        lines = [f"Missing {len(missing)} required environment variable(s):"]
        lines += [f"  - {name}" for name in missing]
        lines.append(f"Set them in the environment or in {env_file} (see .env.example).")
        print("\n".join(lines), file=sys.stderr)
    if problems:
        print("Invalid request:\n" + "\n".join(f"  - {p}" for p in problems), file=sys.stderr)
    return bool(missing or problems)
