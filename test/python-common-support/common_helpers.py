"""Test helpers both targets' suites share: sample inputs of the team, and sample values of
a JSON schema (what the fake models answer). Imported by each target's helpers.py and fakes
(which re-export them), through the sys.path their conftest.py sets; a subprocess that
loads the fakes gets this folder on PYTHONPATH too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common_project import checks, team


def list_length() -> int:
    """Records per synthesized list: enough to approve a threshold and reject one more."""
    counts = [spec.threshold_count or 1 for spec in team.GATES.values()]
    return max([2, *(count + 1 for count in counts)])


def sample_input(name: str, spec: checks.InputSpec) -> Any:
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
