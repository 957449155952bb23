"""A run input's description (`InputSpec`), apart from the checks of inputs.py: a team's
team.py describes its inputs with it when it is built, and a build should not load the
input sources, flags and messages a run's start needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

InputType = Literal["string", "number", "boolean", "object", "array"]


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


@dataclass(frozen=True)
class InputSpec:
    type: InputType = "string"
    description: str = ""
    required: bool = False
    enum: tuple[str, ...] | None = None
    default: Any = NO_DEFAULT
    flag: str | None = None
    """None when the runner or an earlier input has the flag: --inputs only."""
