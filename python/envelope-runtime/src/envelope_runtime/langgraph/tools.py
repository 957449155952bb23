"""The `http_request` tool: one per agent with egress, enforcing its access policy.

The team's `team.POLICIES` holds agents[].accessPolicy / allowedHosts by agent key; an
agent without an entry gets no HTTP tool at all. `{{NAME}}` of `team.SECRETS` and
`team.VARIABLES` is filled in from the environment inside the tool (URL, header values,
body), so the model never sees a value, and every secret value is redacted from what the
tool returns. A refused request, an HTTP error, a timeout or a network failure comes back
as the tool's text result and is never raised: LangGraph's ToolNode re-raises anything
but argument errors, which would end the whole run.

Test seam: `HTTP_TRANSPORT`. Every request goes through it when it is set, e.g.
`monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(handler))`; it is read
on each request, so tools built earlier use it too. None (the default) is the network.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import httpx
from langchain_core.tools import BaseTool
from pydantic import BaseModel

from .. import redaction
from ..placeholders import render
from ..policy import AccessPolicy, Header, HttpRequestInput
from ..team_package import TeamPackage

HTTP_TRANSPORT: httpx.AsyncBaseTransport | None = None
"""Test seam: an httpx transport for every http_request tool (None: the network)."""


class HttpRequestTool(BaseTool):
    """Makes one HTTP request if the agent's access policy allows it (async only)."""

    name: str = "http_request"
    description: str = (
        "Make an HTTP request. The request is checked against your access policy "
        "first; a refused request returns the policy's reason instead of a response. "
        "Write {{NAME}} in the URL, headers or body to use a configured secret or "
        "variable without seeing its value."
    )
    args_schema: type[BaseModel] = HttpRequestInput
    """policy.HttpRequestInput, every target's: headers are name/value pairs."""

    agent_key: str
    policy: AccessPolicy
    secret_names: tuple[str, ...] = ()
    """The team's SECRETS: filled in, and their values redacted from what comes back."""
    variable_names: tuple[str, ...] = ()
    """The team's VARIABLES: filled in."""
    timeout_s: float = 30.0
    max_body_chars: int = 4000

    def _run(self, *args: Any, **kwargs: Any) -> str:
        # Sync I/O would block the event loop (`langgraph dev` raises BlockingError).
        raise NotImplementedError("http_request is async only: use ainvoke")

    async def _arun(
        self,
        method: str,
        url: str,
        headers: Sequence[Header] | None = None,
        body: str | None = None,
    ) -> str:
        # Read at call time, not when the tool is built: the environment may change
        # between runs of a long-lived server, and values never live on the tool.
        env = {
            name: os.environ[name]
            for name in (*self.secret_names, *self.variable_names)
            if name in os.environ
        }
        secrets = tuple(env[name] for name in self.secret_names if name in env)
        return redaction.redact(await self._request(method, url, headers, body, env), secrets)

    async def _request(
        self,
        method: str,
        url: str,
        headers: Sequence[Header] | None,
        body: str | None,
        env: dict[str, str],
    ) -> str:
        # How a policy decides is loaded by the first request, not by building the team.
        from .. import policy_rules as rules

        decision = rules.evaluate(self.policy, method, render(url, env), env)
        if not decision.allowed:
            return f"REFUSED by access policy of {self.agent_key}: {decision.reason}"
        unparsable = rules.unparsable_url(decision.url)
        if unparsable is not None:
            return f"REFUSED by access policy of {self.agent_key}: {unparsable}"
        try:
            sent_headers = rules.header_pairs(headers, env)
            refused = rules.refused_header(sent_headers)
            if refused is not None:
                return f"REFUSED by access policy of {self.agent_key}: {refused}"
            content = render(body, env) if body is not None else None
            async with httpx.AsyncClient(
                transport=HTTP_TRANSPORT, timeout=self.timeout_s, follow_redirects=False
            ) as client:
                response = await client.request(
                    method.upper(), decision.url, headers=sent_headers, content=content
                )
        except Exception as error:
            # Not only httpx.HTTPError: httpx raises InvalidURL and UnicodeEncodeError
            # (a non-ASCII header) too, and any exception would end the run.
            return rules.failed(error, ())  # redacted by _arun, as every answer
        return rules.describe(response, self.max_body_chars, ())


def http_tool(package: TeamPackage, agent_key: str) -> HttpRequestTool:
    """The http_request tool of one agent with egress (a key of the team's POLICIES)."""
    team = package.team
    return HttpRequestTool(
        agent_key=agent_key,
        policy=team.POLICIES[agent_key],
        secret_names=tuple(team.SECRETS),
        variable_names=tuple(team.VARIABLES),
        # The agent's model timeout, as in every Envelope target.
        timeout_s=package.models.MODELS[agent_key].timeout_s,
    )
