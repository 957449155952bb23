"""Access policies: the data model of agents[].accessPolicy / allowedHosts and its evaluation.

Policy semantics (Envelope accessPolicyVersion "1"): rules are checked top to
bottom and the first match wins; a rule without `host`, `methods` or `path_prefix`
matches any value of it; `host` may start with `*.` (any subdomain, not the
domain itself); `require_approval` is treated as deny with the rule's reason;
`{{VAR}}` in a host or path prefix is expanded from the given variables when the
request is made (a rule whose placeholder has no value never matches);
`default_action` applies when no rule matches. The shared decision vectors
(tests/policy_vectors.json) fix every case.

Framework-free on purpose (pydantic only): every Envelope target ships this module
(templates/python-common) and makes the same decisions; each target's HTTP tool calls
`evaluate` before any request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AccessPolicy", "Action", "Decision", "PolicyRule", "evaluate", "expand"]

Action = Literal["allow", "deny", "require_approval"]

_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
_ENCODED_DOT = re.compile(r"%2e", re.IGNORECASE)


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


class Decision(BaseModel):
    """The outcome of `evaluate`: whether the request may be sent, and why."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    reason: str
    rule: int | None = None
    """1-based index of the matching rule; None when default_action applied."""
    url: str = ""
    """The URL to request: dot segments removed from the path, fragment dropped."""


def expand(text: str, values: Mapping[str, str]) -> str:
    """Replace `{{NAME}}` when NAME has a value; leave everything else as it is."""
    return _PLACEHOLDER.sub(lambda match: values.get(match[1], match[0]), text)


def _remove_dot_segments(path: str) -> str:
    # RFC 3986 section 5.2.4, so /api/v2/tickets/../users cannot pass a prefix rule.
    segments = _ENCODED_DOT.sub(".", path).split("/")
    output: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == ".":
            if last:
                output.append("")
        elif segment == "..":
            if len(output) > 1:
                output.pop()
            if last:
                output.append("")
        else:
            output.append(segment)
    normalized = "/".join(output)
    return normalized if normalized.startswith("/") else "/" + normalized


def _host_matches(pattern: str, host: str) -> bool:
    pattern = pattern.lower().rstrip(".")
    if pattern.startswith("*."):
        suffix = pattern[1:]
        return host.endswith(suffix) and len(host) > len(suffix)
    return host == pattern


def evaluate(policy: AccessPolicy, method: str, url: str, variables: Mapping[str, str]) -> Decision:
    """Decide whether `method url` may be requested under `policy`."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        return Decision(allowed=False, reason="the URL is not valid")
    if parts.scheme.lower() not in ("http", "https") or not host:
        return Decision(allowed=False, reason="only http and https URLs are allowed")
    path = _remove_dot_segments(parts.path or "/")
    target = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
    method = method.upper()

    for index, rule in enumerate(policy.rules, start=1):
        if rule.host is not None:
            pattern = expand(rule.host, variables)
            if _PLACEHOLDER.search(pattern) or not _host_matches(pattern, host):
                continue
        if rule.methods is not None and method not in (m.upper() for m in rule.methods):
            continue
        if rule.path_prefix is not None:
            prefix = expand(rule.path_prefix, variables)
            if _PLACEHOLDER.search(prefix) or not path.startswith(prefix):
                continue
        if rule.action == "allow":
            reason = rule.reason or f"allowed by rule {index}"
            return Decision(allowed=True, reason=reason, rule=index, url=target)
        if rule.action == "require_approval":
            reason = rule.reason or "this request requires human approval"
            return Decision(allowed=False, reason=reason, rule=index, url=target)
        reason = rule.reason or f"denied by rule {index}"
        return Decision(allowed=False, reason=reason, rule=index, url=target)

    allowed = policy.default_action == "allow"
    reason = f"no rule matched; defaultAction is {policy.default_action}"
    return Decision(allowed=allowed, reason=reason, url=target)
