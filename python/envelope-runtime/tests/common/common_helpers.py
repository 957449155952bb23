"""Test helpers both targets' suites share: sample inputs of the team, sample values of a
JSON schema (what the fake models answer), and a tricky prompt's names and values.
Imported by each target's helpers.py, fakes and prompt tests (helpers and fakes re-export
theirs), through the sys.path their conftest.py sets; a subprocess that loads the fakes
gets this folder on PYTHONPATH too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from common_project import input_spec, placeholders, team


def list_length() -> int:
    """Records per synthesized list: enough to approve a threshold and reject one more."""
    counts = [spec.threshold_count or 1 for spec in team.GATES.values()]
    return max([2, *(count + 1 for count in counts)])


def sample_input(name: str, spec: input_spec.InputSpec) -> Any:
    if spec.enum is not None:
        return spec.enum[-1]
    values: dict[str, Any] = {
        "string": f"sample {name}",
        "number": 7,
        "boolean": True,
        "object": {"key": "value"},
        "array": ["item"],
    }
    return values[spec.type]


def valid_inputs() -> dict[str, Any]:
    """A value for every input, of its declared type (and allowed, for an enum)."""
    return {name: sample_input(name, spec) for name, spec in team.INPUTS.items()}


def sample(schema: Mapping[str, Any], list_length: int = 2) -> Any:
    """A value valid against a (pydantic) JSON schema; strings name their path."""
    root = schema

    def resolve(reference: str) -> Mapping[str, Any]:
        node: Any = root
        for part in reference.removeprefix("#/").split("/"):
            node = node[part]
        return node  # type: ignore[no-any-return]

    def build(node: Mapping[str, Any], path: str) -> Any:
        if "$ref" in node:
            return build(resolve(node["$ref"]), path)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return next(value for value in node["enum"] if value is not None)
        for combinator in ("anyOf", "oneOf", "allOf"):
            if combinator in node:
                options = [o for o in node[combinator] if o.get("type") != "null"]
                return build(options[0], path) if options else None
        kind = node.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object":
            properties: Mapping[str, Any] = node.get("properties", {})
            return {
                name: build(sub, f"{path}.{name}" if path else name)
                for name, sub in properties.items()
            }
        if kind == "array":
            items: Mapping[str, Any] = node.get("items") or {}
            return [build(items, f"{path}[{index}]") for index in range(list_length)]
        if kind == "integer":
            return 1
        if kind == "number":
            return 1.5
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return f"sample {path}"

    return build(schema, "")


# --- a tricky prompt: everything a template engine could touch (test_texts.py, test_prompts.py)

TRICKY_ENV_VALUE = "Acme \\1 {Corp} \\g<0>"
"""The value of the team's first secret or variable in a tricky prompt."""
TRICKY_INPUT_VALUE = "Charged {tools} twice \\n"
"""The value of a free-text input in a tricky prompt."""


def plainly_named(name: str) -> bool:
    """`{{name}}` and `{{NAME}}` both name this input and nothing else."""
    upper = placeholders.reference_name(name)
    others = [key for key in team.INPUTS if key != name]
    return (
        re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) is not None
        and name not in [*team.SECRETS, *team.VARIABLES]
        and upper not in [*team.SECRETS, *team.VARIABLES, *others]
        and all(placeholders.reference_name(key) != upper for key in others)
    )


def tricky_names() -> tuple[str | None, str | None]:
    """A secret or variable, and a free-text input, of this team (if it has them)."""
    env_names = [*team.SECRETS, *team.VARIABLES]
    inputs = [n for n, s in team.INPUTS.items() if s.type == "string" and s.enum is None]
    return (env_names[0] if env_names else None), next(filter(plainly_named, inputs), None)


def tricky_prompt(template: str) -> str:
    """The target's tricky template, with ENV_NAME, INPUT_UPPER, input_name this team's."""
    env_name, input_name = tricky_names()
    text = template.replace("ENV_NAME", env_name or "NO_ENV_NAME")
    text = text.replace("INPUT_UPPER", placeholders.reference_name(input_name or "no_input"))
    return text.replace("input_name", input_name or "no_input")


def expected_tricky(template: str) -> str:
    """What the model must receive, written out by plain replacement (not placeholders.render)."""
    env_name, input_name = tricky_names()
    text = tricky_prompt(template)
    if env_name is not None:
        text = text.replace("{{" + env_name + "}}", TRICKY_ENV_VALUE)
    if input_name is not None:
        text = text.replace(
            "{{" + placeholders.reference_name(input_name) + "}}", TRICKY_INPUT_VALUE
        )
        text = text.replace("{{" + input_name + "}}", TRICKY_INPUT_VALUE)
    return text


def tricky_inputs() -> dict[str, Any]:
    """Valid inputs, the free-text one of tricky_names set to TRICKY_INPUT_VALUE."""
    inputs = valid_inputs()
    _, input_name = tricky_names()
    if input_name is not None:
        inputs[input_name] = TRICKY_INPUT_VALUE
    return inputs
