"""HTTP request tool that enforces an agent's accessPolicy / allowedHosts.

Policy semantics (Envelope accessPolicyVersion "1"): rules are checked top to
bottom and the first match wins; a rule without `host`, `methods` or `pathPrefix`
matches any value of it; `host` may start with `*.` (any subdomain, not the
domain itself); `require_approval` is treated as deny with the rule's reason;
`{{VAR}}` in a host is expanded from the environment when the request is made;
`defaultAction` applies when no rule matches.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
import yaml
from crewai.tools import BaseTool
from pydantic import BaseModel, ConfigDict, Field

Action = Literal["allow", "deny", "require_approval"]

_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
_ENCODED_DOT = re.compile(r"%2e", re.IGNORECASE)


class PolicyRule(BaseModel):
    model_config = ConfigDict(populate_by_name=True, frozen=True)

    host: str | None = None
    methods: tuple[str, ...] | None = None
    path_prefix: str | None = Field(default=None, alias="pathPrefix")
    action: Action
    reason: str | None = None


class AccessPolicy(BaseModel):
    model_config = ConfigDict(populate_by_name=True, frozen=True)

    default_action: Literal["allow", "deny"] = Field(alias="defaultAction")
    rules: tuple[PolicyRule, ...] = ()

    @classmethod
    def from_allowed_hosts(cls, hosts: Sequence[str]) -> AccessPolicy:
        """`allowedHosts` is an allow rule per host with defaultAction deny."""
        rules = tuple(
            PolicyRule(host=host, action="allow", reason=f"{host} is an allowed host")
            for host in hosts
        )
        return cls(defaultAction="deny", rules=rules)


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True)

    allowed: bool
    reason: str
    rule: int | None = None
    """1-based index of the matching rule; None when defaultAction applied."""
    url: str = ""
    """The URL to request: dot segments removed from the path."""


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


def load_policies(path: Path) -> dict[str, AccessPolicy]:
    """config/access_policies.yaml: agent key -> accessPolicy or allowedHosts."""
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    policies: dict[str, AccessPolicy] = {}
    for agent_key, entry in data.items():
        if "allowedHosts" in entry:
            policies[agent_key] = AccessPolicy.from_allowed_hosts(entry["allowedHosts"])
        else:
            policies[agent_key] = AccessPolicy.model_validate(entry["accessPolicy"])
    return policies


class HttpRequestInput(BaseModel):
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] = Field(
        description="HTTP method."
    )
    url: str = Field(description="Absolute http(s) URL.")
    headers: dict[str, str] = Field(default_factory=dict, description="Request headers (optional).")
    body: str | None = Field(default=None, description="Request body (optional).")


class HttpRequestTool(BaseTool):
    """Makes one HTTP request if the agent's access policy allows it."""

    name: str = "http_request"
    description: str = (
        "Make an HTTP request. The request is checked against your access policy "
        "first; a refused request returns the policy's reason instead of a response. "
        "Write {{NAME}} in the URL, headers or body to use a configured secret or "
        "variable without seeing its value."
    )
    args_schema: type[BaseModel] = HttpRequestInput

    agent_key: str
    policy: AccessPolicy
    env: Mapping[str, str] = Field(default_factory=dict, exclude=True, repr=False)
    """Values of the team's variables and secrets, for {{NAME}} expansion."""
    secret_values: tuple[str, ...] = Field(default=(), exclude=True, repr=False)
    """Redacted from every result."""
    timeout_s: float = 30.0
    max_body_chars: int = 4000
    transport: httpx.BaseTransport | None = Field(default=None, exclude=True)
    """Test seam: an httpx transport used instead of the network."""

    def _redact(self, text: str) -> str:
        for value in self.secret_values:
            if value:
                text = text.replace(value, "[redacted]")
        return text

    def _run(
        self,
        method: str,
        url: str,
        headers: dict[str, str] | None = None,
        body: str | None = None,
    ) -> str:
        url = expand(url, self.env)
        decision = evaluate(self.policy, method, url, self.env)
        if not decision.allowed:
            return f"REFUSED by access policy of {self.agent_key}: {decision.reason}"
        sent_headers = {name: expand(value, self.env) for name, value in (headers or {}).items()}
        content = expand(body, self.env) if body is not None else None
        try:
            with httpx.Client(
                transport=self.transport, timeout=self.timeout_s, follow_redirects=False
            ) as client:
                response = client.request(
                    method.upper(), decision.url, headers=sent_headers, content=content
                )
        except httpx.HTTPError as error:
            return self._redact(f"REQUEST FAILED: {type(error).__name__}: {error}")
        lines = [f"HTTP {response.status_code} {response.reason_phrase}"]
        if response.is_redirect:
            # Redirects are not followed: the next hop must pass the policy too.
            lines.append(f"Location: {response.headers.get('location', '')}")
        text = response.text
        if len(text) > self.max_body_chars:
            text = text[: self.max_body_chars] + f"\n[truncated {len(text)} chars]"
        lines.append(text)
        return self._redact("\n".join(lines))
