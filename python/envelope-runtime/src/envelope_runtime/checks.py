"""The checks of a run that reads its inputs as `InputSpec`s (LangGraph's team.INPUTS):
their types, enums and required inputs (resolve_inputs), and the runner's helpers the
targets share. The shared pieces (inputs.py: flags, sources, the environment, echoes) are
named here too. Nothing here imports a framework.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .echo import ECHO_LIMIT as ECHO_LIMIT
from .inputs import MAX_INPUT_PROBLEMS as MAX_INPUT_PROBLEMS
from .inputs import NO_DEFAULT as NO_DEFAULT
from .inputs import Ask as Ask
from .inputs import EnvRequirement as EnvRequirement
from .inputs import InputError as InputError
from .inputs import InputSpec as InputSpec
from .inputs import InputType as InputType
from .inputs import add_input_flags as add_input_flags
from .inputs import coerce_flag as coerce_flag
from .inputs import collect as collect
from .inputs import cut as cut
from .inputs import env_file_problems as env_file_problems
from .inputs import input_env_name as input_env_name
from .inputs import missing_env as missing_env
from .inputs import parse_inputs_json as parse_inputs_json
from .inputs import quoted as quoted
from .inputs import report_problems as report_problems
from .inputs import resume_options as resume_options
from .inputs import strict_json as strict_json
from .model_env import load_problems as load_problems


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


def collect_inputs(
    args: argparse.Namespace,
    inputs: Mapping[str, InputSpec],
    *,
    inputs_file: str | None = None,
    environ: Mapping[str, str] | None = None,
    base: Mapping[str, Any] | None = None,
    ask: Ask | None = None,
) -> dict[str, Any]:
    """inputs.collect, checked against `inputs` (resolve_inputs)."""

    def resolve(supplied: Mapping[str, Any], reported: Sequence[str]) -> dict[str, Any]:
        return resolve_inputs(inputs, supplied, reported)

    return collect(
        args, inputs, resolve, inputs_file=inputs_file, environ=environ, base=base, ask=ask
    )
