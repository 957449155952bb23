"""What a team's own offline tests need on every target: values a JSON schema accepts (a
model's structured answer, a run's inputs) and test values for the team's environment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .team_package import TeamPackage

__all__ = ["offline_env", "sample"]

_FORMATS = {
    "date": "2026-01-02",
    "date-time": "2026-01-02T03:04:05Z",
    "time": "03:04:05",
    "email": "someone@example.com",
    "uri": "https://example.com/",
}


def sample(schema: Mapping[str, Any], items: int = 1) -> Any:
    """A value `schema` (a pydantic model's JSON schema) accepts: every property of an
    object, `items` entries in an array (at least its minItems), the first enum value."""
    defs: Mapping[str, Any] = schema.get("$defs", {})

    def value(node: Mapping[str, Any]) -> Any:
        if "$ref" in node:
            return value(defs[node["$ref"].rpartition("/")[2]])
        if "const" in node or node.get("enum"):
            return node["const"] if "const" in node else node["enum"][0]
        if node.get("default") is not None:
            return node["default"]
        options = node.get("anyOf") or node.get("oneOf") or node.get("allOf")
        if options:
            return value(next((o for o in options if o.get("type") != "null"), options[0]))
        kind = node.get("type", "object")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object":
            return {key: value(sub) for key, sub in node.get("properties", {}).items()}
        if kind == "array":
            return [
                value(node.get("items", {})) for _ in range(max(items, node.get("minItems", 0)))
            ]
        if kind in ("integer", "number"):
            least = max(1, node.get("minimum", 1), node.get("exclusiveMinimum", 0) + 1)
            return least if kind == "integer" else float(least)
        if kind in ("boolean", "null"):
            return kind == "boolean" or None
        text = _FORMATS.get(node.get("format", ""), "sample")
        return text.ljust(node.get("minLength", 0), "x")[: node.get("maxLength", len(text))]

    return value(schema)


def offline_env(package: TeamPackage) -> dict[str, str]:
    """Test values of the team's secrets, variables and connection packs' credentials."""
    team = package.team
    names = [*team.SECRETS, *team.VARIABLES]
    for requirement in getattr(team, "CONNECTION_SECRETS", ()):
        names.append(requirement if isinstance(requirement, str) else requirement[0])
    return {name: f"test-{name.lower().replace('_', '-')}-0000" for name in names}
