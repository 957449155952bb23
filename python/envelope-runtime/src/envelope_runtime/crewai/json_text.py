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
from dataclasses import dataclass
from typing import Annotated, Any, get_args

from pydantic import BaseModel, BeforeValidator, WithJsonSchema


@dataclass(frozen=True)
class JsonText:
    """Marks a field carried as JSON text; `kind` is "array" or "object"."""

    kind: str


def _array(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    parsed = _parsed(value)
    if parsed is None:
        return []
    return parsed if isinstance(parsed, list) else [value]


def _object(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    parsed = _parsed(value)
    if parsed is None:
        return {}
    return parsed if isinstance(parsed, dict) else {"text": value}


def _parsed(text: str) -> Any:
    """The JSON value of `text`: None for `null` or blank text, the text itself if not JSON."""
    try:
        return json.loads(text) if text.strip() else None
    except ValueError:
        return text


_AS_TEXT = WithJsonSchema({"type": "string"})
JsonArray = Annotated[list[Any], BeforeValidator(_array), _AS_TEXT, JsonText("array")]
JsonObject = Annotated[dict[str, Any], BeforeValidator(_object), _AS_TEXT, JsonText("object")]


def describe_json_text(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """`json_schema_extra` of a model with JSON-text fields: says so in their descriptions.

    Their `default` (a list or dict, or None) is dropped: it is no value of a string schema,
    and strict structured outputs (Azure's) refuse such defaults; validation still applies it.
    """
    properties = schema.get("properties", {})
    for name, field in model.model_fields.items():
        kind = _kind(field.annotation, field.metadata)
        prop = properties.get(name if field.alias is None else field.alias)
        if kind is None or not isinstance(prop, dict):
            continue
        prop.pop("default", None)
        said = prop.get("description")
        asked = f"The JSON text of {'an array' if kind == 'array' else 'an object'}."
        prop["description"] = f"{said} ({asked})" if said else asked


def _kind(annotation: Any, metadata: list[Any] | tuple[Any, ...] = ()) -> str | None:
    for item in (*metadata, *getattr(annotation, "__metadata__", ())):
        if isinstance(item, JsonText):
            return item.kind
    for arg in get_args(annotation):
        found = _kind(arg)
        if found is not None:
            return found
    return None
