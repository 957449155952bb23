"""HTTP request tool that enforces an agent's accessPolicy / allowedHosts.

The policy model and its decisions are `policy.py` (the same in every Envelope target);
this module loads config/access_policies.yaml into it and checks every request with
`policy.evaluate` before sending it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
import yaml
from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from ..policy import (
    AccessPolicy,
    Header,
    HttpRequestInput,
    evaluate,
    expand,
    header_pairs,
    refused_header,
    unparsable_url,
)
from ..redaction import redact

__all__ = ["Header", "HttpRequestInput", "HttpRequestTool", "load_policies"]


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
        return redact(text, self.secret_values)

    def _run(
        self,
        method: str,
        url: str,
        headers: list[dict[str, str]] | dict[str, str] | None = None,
        body: str | None = None,
    ) -> str:
        """`run` validates the arguments against HttpRequestInput (policy.py, every target's)
        and passes them dumped."""
        url = expand(url, self.env)
        decision = evaluate(self.policy, method, url, self.env)
        if not decision.allowed:
            return f"REFUSED by access policy of {self.agent_key}: {decision.reason}"
        unparsable = unparsable_url(decision.url)
        if unparsable is not None:
            return self._redact(f"REFUSED by access policy of {self.agent_key}: {unparsable}")
        sent_headers = header_pairs(headers, self.env)
        refused = refused_header(sent_headers)
        if refused is not None:
            return f"REFUSED by access policy of {self.agent_key}: {refused}"
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
