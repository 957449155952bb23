"""Access policies: the data model of agents[].accessPolicy / allowedHosts, and the
http_request tool's arguments (`HttpRequestInput`: the model fills in the same JSON on every
target). How a policy decides (`evaluate`, its `Decision`, the checks of a request's URL and
headers) is policy_rules.py, which the HTTP tools import where they check a request: building
a team needs only this module.

Framework-free on purpose (pydantic only): every Envelope target makes the same decisions
(the vectors of envelope-export's spec/access-policy-vectors.json), and each target's HTTP
tool calls `evaluate` before any request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .placeholders import render

Action = Literal["allow", "deny", "require_approval"]


class PolicyRule(BaseModel):
    """One rule of an accessPolicy; a field left as None matches any value."""

    # populate_by_name: team.py writes snake_case fields, the definition's JSON is camelCase.
    model_config = ConfigDict(populate_by_name=True, frozen=True)

    host: str | None = None
    methods: tuple[str, ...] | None = None
    path_prefix: str | None = Field(default=None, alias="pathPrefix")
    action: Action
    reason: str | None = None


class AccessPolicy(BaseModel):
    """An agent's egress: its rules in order, and what applies when none matches."""

    model_config = ConfigDict(populate_by_name=True, frozen=True)

    default_action: Literal["allow", "deny"] = Field(default="deny", alias="defaultAction")
    rules: tuple[PolicyRule, ...] = ()

    @classmethod
    def from_allowed_hosts(cls, hosts: Sequence[str]) -> AccessPolicy:
        """`allowedHosts` is an allow rule per host with defaultAction deny."""
        rules = tuple(
            PolicyRule(host=host, action="allow", reason=f"{host} is an allowed host")
            for host in hosts
        )
        return cls(default_action="deny", rules=rules)


expand = render
"""Replace `{{NAME}}` when NAME has a value; leave everything else as it is (placeholders.py)."""


# --- the http_request tool's arguments (every target's) ----------------------------


class Header(BaseModel):
    name: str = Field(description="Header name, e.g. Accept.")
    value: str = Field(description="Header value; {{NAME}} stands for a secret or variable.")


def _as_pairs(headers: Any) -> Any:
    """A mapping of header names to values as name/value pairs; anything else as it is."""
    if isinstance(headers, Mapping):
        return [{"name": name, "value": value} for name, value in headers.items()]
    return headers


class HttpRequestInput(BaseModel):
    """What the model fills in to call http_request, the same on every target.

    Headers are a list of name/value pairs, not a map: CrewAI sends tool schemas in OpenAI's
    strict mode, which closes every object (additionalProperties: false), so a map of
    free-form names could hold no header there. A map the model sends all the same is read
    as pairs, in its order."""

    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] = Field(
        description="HTTP method."
    )
    url: str = Field(description="Absolute http(s) URL.")
    headers: list[Header] = Field(
        default_factory=list,
        description='Request headers (optional), as name/value pairs, e.g. [{"name": "Accept", '
        '"value": "application/json"}].',
    )
    body: str | None = Field(default=None, description="Request body (optional).")

    @field_validator("headers", mode="before")
    @classmethod
    def _pairs(cls, headers: Any) -> Any:
        return [] if headers is None else _as_pairs(headers)
