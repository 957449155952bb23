"""`{{NAME}}` placeholders: the one substitution every target applies to the definition's
texts (prompts, task texts, a policy's hosts and paths, the HTTP tool's requests). Every other
character, `{word}` and `{{ spaced }}` included, is left as it is."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PLACEHOLDER", "placeholder_values", "reference_name", "render"]

PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
"""One `{{NAME}}`; group 1 is NAME."""


def render(text: str, values: Mapping[str, str]) -> str:
    """Replace each `{{NAME}}` that has a value; leave all other text untouched."""
    return PLACEHOLDER.sub(lambda match: values.get(match[1], match[0]), text)


def reference_name(input_key: str) -> str:
    """An input's upper-case name in prompts: `{{TICKET_TEXT}}` for `ticket-text`."""
    return re.sub(r"[^A-Z0-9_]", "_", input_key.upper())


def placeholder_values(
    env_names: Sequence[str],
    environ: Mapping[str, str],
    inputs: Mapping[str, Any],
    declared: Sequence[str] = (),
) -> dict[str, str]:
    """Values for `{{NAME}}`: variables and secrets first, then inputs.

    An input is reachable by its own key and by its upper-case name (`{{TICKET_TEXT}}`).
    An exact key wins over another input's upper-case name, and of inputs that share one
    the first declared (`declared`: team.INPUTS order) wins. Non-string inputs are JSON.
    """
    keys = list(declared) or list(inputs)
    targets = {key: key for key in keys}
    for key in keys:
        targets.setdefault(reference_name(key), key)
    values = {name: inputs[key] for name, key in targets.items() if key in inputs}
    values = {name: v if isinstance(v, str) else json.dumps(v) for name, v in values.items()}
    return values | {name: environ[name] for name in env_names if name in environ}
