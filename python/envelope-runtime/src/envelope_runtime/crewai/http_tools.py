"""Access policies (config/access_policies.yaml), enforced on every tool call of a policed
agent: its own http_request tool checks each request (policy_rules.evaluate, every target's), and
CrewAI's before-tool-call hook blocks any other tool's call whose input names a URL the
policy refuses (the agent reads the reason as the result). An agent is policed when it holds
an HttpRequestTool, so the policy goes wherever the tool does (Crew.copy for train and
test, a manager's "<role> Requests" worker)."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from typing import Any, ClassVar, get_args

import httpx
import yaml
from crewai.hooks import (
    ToolCallHookContext,
    register_after_tool_call_hook,
    register_before_tool_call_hook,
)
from crewai.tools import BaseTool
from crewai.utilities.string_utils import sanitize_tool_name
from pydantic import BaseModel, Field

from ..policy import AccessPolicy, HttpRequestInput, expand
from ..redaction import redact, replace_text, secret_values
from ..team_package import TeamPackage
from .crew_base import config_dir


@functools.cache
def policies(package: TeamPackage) -> dict[str, AccessPolicy]:
    """config/access_policies.yaml: agent key -> its accessPolicy or allowedHosts."""
    path = config_dir(package) / "access_policies.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {
        key: AccessPolicy.from_allowed_hosts(entry["allowedHosts"])
        if "allowedHosts" in entry
        else AccessPolicy.model_validate(entry["accessPolicy"])
        for key, entry in data.items()
    }


HTTP_TRANSPORT: httpx.BaseTransport | None = None  # test seam: every tool's transport


class HttpRequestTool(BaseTool):
    """Makes one HTTP request if the agent's access policy allows it."""

    checks_its_requests: ClassVar[bool] = True  # check_tool_call leaves it to _run
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
    # the team's variables and secrets for {{NAME}}; the secrets are redacted from results
    env: Mapping[str, str] = Field(default_factory=dict, exclude=True, repr=False)
    secret_values: tuple[str, ...] = Field(default=(), exclude=True, repr=False)
    timeout_s: float = 30.0
    max_body_chars: int = 4000

    def refused(self, why: str) -> str:
        """The tool's answer to a request its policy refuses (`why`)."""
        return redact(f"REFUSED by access policy of {self.agent_key}: {why}", self.secret_values)

    def _run(
        self,
        method: str,
        url: str,
        headers: list[dict[str, str]] | dict[str, str] | None = None,
        body: str | None = None,
    ) -> str:
        """Arguments as HttpRequestInput (policy.py) validated them."""
        # How a policy decides is loaded by the first request, not by building the team.
        from .. import policy_rules as rules

        decision = rules.evaluate(self.policy, method, expand(url, self.env), self.env)
        if not decision.allowed:
            return self.refused(decision.reason)
        sent_headers = rules.header_pairs(headers, self.env)
        problem = rules.unparsable_url(decision.url) or rules.refused_header(sent_headers)
        if problem is not None:
            return self.refused(problem)
        content = expand(body, self.env) if body is not None else None
        try:
            with httpx.Client(
                transport=HTTP_TRANSPORT, timeout=self.timeout_s, follow_redirects=False
            ) as client:
                response = client.request(
                    method.upper(), decision.url, headers=sent_headers, content=content
                )
        except Exception as error:  # httpx raises UnicodeEncodeError too (a non-ASCII header)
            return rules.failed(error, self.secret_values)
        return rules.describe(response, self.max_body_chars, self.secret_values)


def http_tool(package: TeamPackage, agent_key: str) -> HttpRequestTool:
    """The policy-enforcing HTTP tool of one agent (agents[].accessPolicy / allowedHosts)."""
    team = package.team
    env = {
        name: os.environ[name] for name in (*team.SECRETS, *team.VARIABLES) if name in os.environ
    }
    return HttpRequestTool(
        agent_key=agent_key,
        policy=policies(package)[agent_key],
        env=env,
        secret_values=tuple(secret_values(team.SECRETS, env)),
        timeout_s=package.models.MODELS[agent_key].timeout_ms / 1000,
    )


# --- every tool call of a policed agent ------------------------------------------

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>]*")
_METHODS = frozenset(get_args(HttpRequestInput.model_fields["method"].annotation))
# Where the before-hook leaves its answer to a call it blocks, for the after-hook: the call's
# input (CrewAI hands both hooks the same dict, which a before-hook may change in place). The
# model writes that dict too: only a _Refusal the before-hook made is an answer.
_REFUSAL = "__envelope_refusal__"


class _Refusal(str):
    """The policy's answer to a call the before-hook blocked."""


def check_tool_call(context: ToolCallHookContext) -> bool | None:
    """CrewAI's before-tool-call hook: False (blocked) when the caller holds an
    HttpRequestTool whose policy refuses a URL of the call's input. Not checked:
    `stays_local` tools, and tools that check the URL they send to themselves
    (`checks_its_requests`: http_request, a pack's operations and MCP tools; a link in
    what they send is data). Any other tool's destination is unknown, so every URL it
    is given must pass, with the input's method: refusing a link the tool never fetches is
    the price of not letting it reach what the policy refuses."""
    context.tool_input.pop(_REFUSAL, None)  # the model's own, if it wrote one
    agent_tools = getattr(context.agent, "tools", None) or []
    guard = next((t for t in agent_tools if isinstance(t, HttpRequestTool)), None)
    # The agent's (or its task's) tool being called; None for CrewAI's own (delegation).
    held = [*agent_tools, *(getattr(context.task, "tools", None) or [])]
    tool = next((t for t in held if sanitize_tool_name(t.name) == context.tool_name), None)
    if guard is None or tool is None or getattr(tool, "stays_local", False):
        return None
    if getattr(tool, "checks_its_requests", False):
        return None
    method = str(context.tool_input.get("method", "GET")).upper()
    method = method if method in _METHODS else "GET"
    urls: list[str] = []  # of every string in the input, however nested (dict keys aside)
    replace_text(context.tool_input, lambda text: urls.extend(_URL.findall(text)) or text)
    if not urls:
        return None
    from .. import policy_rules as rules  # as in _run: loaded by the first call it checks

    for url in urls:
        decision = rules.evaluate(guard.policy, method, expand(url, guard.env), guard.env)
        if not decision.allowed:
            context.tool_input[_REFUSAL] = _Refusal(guard.refused(decision.reason))
            return False
    return None


def explain_refusal(context: ToolCallHookContext) -> str | None:
    """CrewAI's after-tool-call hook: a blocked call answers with the policy's reason."""
    refused = context.tool_input.pop(_REFUSAL, None)
    return str(refused) if isinstance(refused, _Refusal) else None


register_before_tool_call_hook(check_tool_call)
register_after_tool_call_hook(explain_refusal)
