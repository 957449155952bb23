"""Invalid runs for the runner's checks, derived from the team's own inputs: each case is
(id, argv, a problem the runner must report). The same in every Envelope target."""

from __future__ import annotations

import json
from typing import Any

import common_helpers
from common_project import input_spec, team

TYPE_ERRORS = {
    "string": "a valid string",
    "number": "a valid number",
    "boolean": "a valid boolean",
    "object": "a valid dictionary",
    "array": "a valid list",
}
"""pydantic's word for a value of another type, by the input's type."""


def invalid_cases() -> list[tuple[str, list[str], str]]:
    """Unknown, malformed and mistyped inputs, enums, missing ones, bad flags, a missing
    --env-file; a bad flag is reported together with the other problems."""
    valid = common_helpers.valid_inputs()
    wrong = {"string": 5, "number": "many", "boolean": "yes", "object": [1], "array": {"a": 1}}

    def with_inputs(changes: dict[str, Any], *, drop: str | None = None) -> list[str]:
        inputs = {**valid, **changes}
        if drop is not None:
            inputs.pop(drop)
        return ["--inputs", json.dumps(inputs)]

    cases = [
        ("unknown", with_inputs({"envelope_unknown": 1}), "unknown input 'envelope_unknown'"),
        ("not-an-object", ["--inputs", "[1]"], "--inputs must be a JSON object"),
        ("not-json", ["--inputs", "{oops"], "--inputs is not valid JSON"),
        # Python's json reads NaN; it is no JSON, and the model would be sent invalid JSON.
        ("nan", ["--inputs", '{"n": NaN}'], "--inputs is not valid JSON: NaN is not JSON"),
        (
            "overflow",
            ["--inputs", '{"n": [1e999]}'],
            "--inputs is not valid JSON: 1e999 is out of range",
        ),
        (
            "env-file",
            [*with_inputs({}), "--env-file", "no-such.env"],
            "--env-file: no such file 'no-such.env'",
        ),
    ]
    required = [
        name
        for name, spec in team.INPUTS.items()
        if spec.required and spec.default is input_spec.NO_DEFAULT
    ]
    for name, spec in team.INPUTS.items():
        # pydantic's message, after the input's name
        kind = "'" if spec.enum else TYPE_ERRORS[spec.type]
        problem = f"input {name!r}: Input should be {kind}"
        cases.append((f"{name}-type", with_inputs({name: wrong[spec.type]}), problem))
        if spec.enum is not None:
            options = [repr(option) for option in spec.enum]
            listed = " or ".join([", ".join(options[:-1]), options[-1]] if options[1:] else options)
            problem = f"input {name!r}: Input should be {listed}"
            cases.append((f"{name}-enum", with_inputs({name: "not-an-option"}), problem))
        if spec.required and spec.default is input_spec.NO_DEFAULT:
            problem = f"input {name!r} is required"
            cases.append((f"{name}-required", with_inputs({}, drop=name), problem))
        if spec.type in ("number", "boolean") and spec.flag is not None:
            problem = f"{spec.flag}: Input should be a valid {spec.type}"
            cases.append((f"{name}-flag", [spec.flag, "many"], problem))
            # Broken --inputs JSON does not hide a bad flag.
            argv = ["--inputs", "{oops", spec.flag, "many"]
            cases.append((f"{name}-flag-and-bad-json", argv, problem))
            # A bad flag does not hide the other problems: all are reported at once.
            if required and required[0] != name:
                other = required[0]
                problem = f"input {other!r} is required"
                argv = [*with_inputs({}, drop=other), spec.flag, "many"]
                cases.append((f"{name}-flag-and-{other}-required", argv, problem))
        if spec.type == "number" and spec.flag is not None:
            problem = f"{spec.flag}: Input should be a finite number, got 'inf'"
            cases.append((f"{name}-flag-inf", [spec.flag, "inf"], problem))
    return cases
