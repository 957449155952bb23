"""A run input's description (`InputSpec`) read from the team's `TeamInputs`, apart from
the checks of inputs.py: team.py derives its INPUTS with `input_specs` when it is built,
and a build should not load the input sources, flags and messages a run's start needs.
Also `Number`, the type of a number output in `TeamResult` (every team loads this module)."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import PlainSerializer
from pydantic_core import PydanticUndefined

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

InputType = Literal["string", "number", "boolean", "object", "array"]

NO_DEFAULT: Any = PydanticUndefined  # a required field's default, as pydantic has it


@dataclass(frozen=True)
class InputSpec:
    type: InputType = "string"
    description: str = ""
    required: bool = False
    enum: tuple[str, ...] | None = None
    default: Any = NO_DEFAULT
    flag: str | None = None
    """None when the runner or an earlier input has the flag: --inputs only."""


# the runner's own options (src/targets/python-common/team-view.ts RUNNER_FLAGS: the same)
RUNNER_FLAGS = ("--help", "--inputs", "--env-file", "--state-dir", "--interactive")
RUNNER_FLAGS += ("--no-interactive", "--verbose", "--trace")
_TYPES: dict[object, InputType] = {str: "string", bool: "boolean", dict: "object", list: "array"}


def _spec(field: FieldInfo, flag: str | None) -> InputSpec:
    union = typing.get_origin(field.annotation) in (typing.Union, types.UnionType)
    kinds = typing.get_args(field.annotation) if union else (field.annotation,)
    origins = [typing.get_origin(k) or k for k in kinds if k is not type(None)]
    enum = tuple(typing.get_args(kinds[0])) if origins == [Literal] else None
    kind = "string" if enum else "number" if float in origins else _TYPES[origins[0]]
    default = NO_DEFAULT if field.default is None else field.default  # None: not given
    return InputSpec(kind, field.description or "", field.is_required(), enum, default, flag)


def input_specs(model: type[BaseModel], channels: Mapping[str, str] = {}) -> dict[str, InputSpec]:
    """The team's inputs (`TeamInputs`' fields, by key: the field's alias, or the key
    `channels` maps to the field's name), each with its runner flag: `--` + the key with
    `_` as `-`, unless the runner or an earlier input has it."""
    keys = {field: key for key, field in channels.items()}
    taken, specs = set(RUNNER_FLAGS), {}
    for name, field in model.model_fields.items():
        key = field.alias if field.alias is not None else keys.get(name, name)  # "" is a key
        flag = "--" + key.replace("_", "-")
        specs[key] = _spec(field, flag if key and flag not in taken else None)
        taken.add(flag)
    return specs


def _number(value: float) -> int | float:
    # an int (a default) stays one; past 2**53 a float's digits are not the ones the model wrote
    exact = isinstance(value, float) and value.is_integer() and abs(value) <= 2**53
    return int(value) if exact else value


# A number output: validated as a float, so the JSON schema a model is shown (CrewAI's prompt,
# structured output) stays {"type": "number"}; written as an int when integral, so a count the
# model answers as 3 is 3 in the run's result, not 3.0. Only the serialization schema changes.
Number = Annotated[float, PlainSerializer(_number)]
