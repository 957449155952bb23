"""Array and object outputs, carried through the model's structured output as JSON text.

An Envelope `array` or `object` output declares no item or property schema, which OpenAI's
strict structured outputs refuse or can only fill with `{}`. So `team.TeamResult` declares
these fields with the types below (`json_schema_extra=describe_json_text`): the model sees a
string asking for the value's JSON text; validated, it is the list or dict. A value already
parsed is taken as it is; `null` or blank text is empty; other text is kept whole (the
array's one item, or under `"text"`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema

_KIND = "x-envelope-json-text"
"""Marks a field's string schema as JSON text (its value: "an array" or "an object");
describe_json_text turns the mark into words."""


def _from_text(empty: type[list[Any]] | type[dict[str, Any]], wrap: Any) -> BeforeValidator:
    """Text to `empty`'s type: its JSON value, `empty()` for `null` or blank text, else the
    text kept whole by `wrap`; a value already parsed is taken as it is."""

    def parsed(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            found = json.loads(value) if value.strip() else None
        except ValueError:
            found = value
        if found is None:
            return empty()
        return found if isinstance(found, empty) else wrap(value)

    return BeforeValidator(parsed)


JsonArray = Annotated[
    list[Any],
    _from_text(list, lambda text: [text]),
    WithJsonSchema({"type": "string", _KIND: "an array"}),
]
JsonObject = Annotated[
    dict[str, Any],
    _from_text(dict, lambda text: {"text": text}),
    WithJsonSchema({"type": "string", _KIND: "an object"}),
]


def describe_json_text(schema: dict[str, Any]) -> None:
    """`json_schema_extra` of a model with JSON-text fields: says so in their descriptions.

    Their `default` (a list or dict, or None) is dropped: it is no value of a string schema,
    and strict structured outputs (Azure's) refuse such defaults; validation still applies it.
    """
    for prop in schema.get("properties", {}).values():
        kinds = [part.pop(_KIND) for part in (prop, *prop.get("anyOf", ())) if _KIND in part]
        if kinds:
            prop.pop("default", None)
            said = prop.get("description")
            asked = f"The JSON text of {kinds[0]}."
            prop["description"] = f"{said} ({asked})" if said else asked
