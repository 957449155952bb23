"""Access policies: the team's policies (http_tools.policies), each agent's own HTTP tool, and
every other tool a policed agent holds (CrewAI's tool-call hooks). The decision vectors are
python-common's (tests/common/test_policy_vectors.py)."""

from __future__ import annotations

from typing import Any, ClassVar

import helpers
import httpx
import pytest
from crewai import Agent, Crew, Task
from crewai.hooks import ToolCallHookContext
from crewai.tools import BaseTool
from fake_llm import FakeModels, act, final
from project import TEAM, crew, policy, policy_rules, team, tools
from pydantic import BaseModel, Field

if tools is None:
    # Only a team with egress ships the HTTP tool and policy.py (its agents' lack of the
    # tool is checked by the export's own tests/test_team.py).
    pytest.skip("no agent of the team has egress", allow_module_level=True)


def _policy(entry: dict[str, Any]) -> policy.AccessPolicy:
    if "allowedHosts" in entry:
        return policy.AccessPolicy.from_allowed_hosts(entry["allowedHosts"])
    return policy.AccessPolicy.model_validate(entry["accessPolicy"])


def _definition() -> dict[str, Any]:
    return helpers.definition()


def test_shipped_policies_match_the_definition() -> None:
    expected = {
        agent["key"]: _policy(agent)
        for agent in _definition()["agents"]
        if "accessPolicy" in agent or "allowedHosts" in agent
    }
    assert tools.policies(TEAM) == expected


def _http_tools_by_holder(team_crew: Any) -> dict[str, list[tools.HttpRequestTool]]:
    """Every agent of the run's crew (workers and manager) -> its HTTP tools."""
    members = [*team_crew.agents, team_crew.manager_agent]
    return {
        member.role: [
            tool for tool in member.tools or [] if isinstance(tool, tools.HttpRequestTool)
        ]
        for member in members
        if member is not None
    }


def _holder_of(agent_key: str) -> str:
    """The CrewAI role that makes the agent's requests (a manager's Requests delegate)."""
    role = helpers.roles()[agent_key]
    return f"{role} Requests" if helpers.has_requests_delegate(agent_key) else role


@pytest.mark.parametrize("agent_key", sorted(team.AGENTS))
def test_each_agent_has_an_http_tool_exactly_when_it_has_egress(
    agent_key: str, team_env: dict[str, str], fake_models: FakeModels
) -> None:
    holder = _holder_of(agent_key)
    crews = crew.TeamCrew(helpers.valid_inputs())
    agent = crews._agent(agent_key)
    held = [t for t in agent.tools or [] if isinstance(t, tools.HttpRequestTool)]
    if agent_key == getattr(crews, "managing", None):  # a pipeline crew has no manager
        assert held == [], "a manager holds no tools"
        by_holder = _http_tools_by_holder(crews.crew())
        held = by_holder.get(holder, [])
    if agent_key in tools.policies(TEAM):
        assert [t.agent_key for t in held] == [agent_key], holder
        assert held[0].policy == tools.policies(TEAM)[agent_key]
    else:
        assert held == []


@pytest.mark.parametrize("agent_key", helpers.egress_agents())
def test_a_refused_request_returns_the_reason_and_sends_nothing(
    agent_key: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    no_network: list[httpx.Request],
) -> None:
    refused = helpers.refused_request(agent_key, team_env)
    if refused is None:
        pytest.skip(f"the policy of {agent_key} allows every request")
    method, url = refused
    decision = policy_rules.evaluate(tools.policies(TEAM)[agent_key], method, url, team_env)
    tool = tools.http_tool(TEAM, agent_key)

    result = tool.run(method=method, url=url)

    assert result == f"REFUSED by access policy of {agent_key}: {decision.reason}"
    assert no_network == []


def test_the_tool_sends_allowed_requests_with_secrets_filled_in_and_redacted(
    team_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    allowed = [
        (key, method, url)
        for key in helpers.egress_agents()
        for method, url in _allowed_requests(key, team_env)
    ]
    if not allowed:
        pytest.skip("no agent's policy allows a request")
    agent_key, method, url = allowed[0]
    sent: list[httpx.Request] = []

    def echo(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, text=f"echo {request.headers.get('x-token', '')}")

    monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(echo))
    secret = team.SECRETS[0] if team.SECRETS else None
    header = "{{" + secret + "}}" if secret else "none"

    result = tools.http_tool(TEAM, agent_key).run(
        method=method, url=url, headers=[{"name": "X-Token", "value": header}]
    )

    assert [str(request.url) for request in sent] == [url]
    if secret is not None:
        assert sent[0].headers["x-token"] == team_env[secret]
        assert result == "HTTP 200 OK\necho [redacted]"


@pytest.mark.parametrize(
    "url", ["https://xn--zz.envelope.invalid/", "https://\u2024.envelope.invalid/"]
)
def test_a_url_the_http_client_cannot_parse_is_refused_not_raised(
    url: str, no_network: list[httpx.Request]
) -> None:
    # Both pass the policy (their hosts are names); httpx rejects them (IDNA).
    allow_all = policy.AccessPolicy(default_action="allow")
    assert policy_rules.evaluate(allow_all, "GET", url, {}).allowed
    tool = tools.HttpRequestTool(agent_key="probe", policy=allow_all)

    result = tool.run(method="GET", url=url)

    assert result.startswith("REFUSED by access policy of probe: the HTTP client cannot parse")
    assert no_network == []


def test_a_header_the_http_client_cannot_send_is_a_failed_request_not_a_raise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # httpx raises UnicodeEncodeError, not an httpx.HTTPError, on a non-ASCII header; the
    # tool answers it as any failed request, redacted (as the LangGraph target's does).
    monkeypatch.setattr(tools, "HTTP_TRANSPORT", httpx.MockTransport(lambda r: httpx.Response(200)))
    allow_all = policy.AccessPolicy(default_action="allow")
    tool = tools.HttpRequestTool(
        agent_key="probe", policy=allow_all, secret_values=("é secret-42",)
    )

    result = tool.run(
        method="GET", url="https://example.com/", headers=[{"name": "X-T", "value": "é secret-42"}]
    )

    assert result.startswith("REQUEST FAILED: UnicodeEncodeError")
    assert "secret-42" not in result


def _allowed_requests(agent_key: str, env: dict[str, str]) -> list[tuple[str, str]]:
    agent_policy = tools.policies(TEAM)[agent_key]
    candidates = []
    for rule in agent_policy.rules:
        if rule.action != "allow" or rule.host is None:
            continue
        host = policy_rules.example_host(policy.expand(rule.host, env))
        if host is None:
            continue
        method = (rule.methods or ("GET",))[0]
        path = policy.expand(rule.path_prefix or "/", env)
        candidates.append((method, f"https://{host}{path}"))
    return [c for c in candidates if policy_rules.evaluate(agent_policy, *c, env).allowed]


def test_the_tool_arguments_survive_strict_mode() -> None:
    """CrewAI sends tool schemas in strict mode, closing every object (additionalProperties:
    false): an argument made of free-form names (a header map) could then carry nothing."""

    def closed_objects_only(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("properties"), f"an object without named properties: {node}"
                assert node.get("additionalProperties", False) is False, node
            for value in node.values():
                closed_objects_only(value)
        elif isinstance(node, list):
            for value in node:
                closed_objects_only(value)

    schema = tools.HttpRequestTool.model_fields["args_schema"].default.model_json_schema()
    assert "headers" in schema["properties"]
    closed_objects_only(schema)


# --- every tool of a policed agent (CrewAI's tool-call hooks, http_tools.check_tool_call) ---


class _PageInput(BaseModel):
    url: str = Field(description="The page's URL.")


class _FetchPage(BaseTool):
    """A developer's own tool, added beside the agent's tools_of()."""

    name: str = "fetch_page"
    description: str = "Fetches a web page."
    args_schema: type[BaseModel] = _PageInput
    fetched: list[str] = Field(default_factory=list)

    def _run(self, url: str) -> str:
        self.fetched.append(url)
        return f"the page at {url}"


def _run_with_own_tool(agent_key: str, url: str, board: FakeModels) -> tuple[_FetchPage, str]:
    """The agent, holding its tools and a developer's own, calls that tool with `url` in a
    one-task crew; returns the tool and what the agent read back."""
    own = _FetchPage()
    agent = Agent(
        role=helpers.roles()[agent_key],
        goal="Read the page.",
        backstory="You read pages.",
        llm=board.llm_for(agent_key),
        tools=[tools.http_tool(TEAM, agent_key), own],
    )
    board.script(agent_key, act("fetch_page", url=url), final("done"))
    task = Task(description="Read the page.", expected_output="A summary.", agent=agent)
    Crew(agents=[agent], tasks=[task]).kickoff()
    return own, board.calls_of(agent_key)[-1].text()


@pytest.mark.parametrize("agent_key", helpers.egress_agents())
def test_a_developers_own_tool_is_held_to_the_agents_policy(
    agent_key: str, team_env: dict[str, str], fake_models: FakeModels
) -> None:
    agent_policy = tools.policies(TEAM)[agent_key]
    url = "https://refused.envelope.invalid/envelope/refused"
    decision = policy_rules.evaluate(agent_policy, "GET", url, team_env)
    if decision.allowed:
        pytest.skip(f"the policy of {agent_key} allows every host")

    own, read_back = _run_with_own_tool(agent_key, url, fake_models)

    assert own.fetched == []
    assert f"REFUSED by access policy of {agent_key}: {decision.reason}" in read_back


def test_a_developers_own_tool_may_reach_what_the_policy_allows(
    team_env: dict[str, str], fake_models: FakeModels
) -> None:
    allowed = [
        (key, url)
        for key in helpers.egress_agents()
        for method, url in _allowed_requests(key, team_env)
        if method == "GET"
    ]
    if not allowed:
        pytest.skip("no agent's policy allows a GET")
    agent_key, url = allowed[0]

    own, read_back = _run_with_own_tool(agent_key, url, fake_models)

    assert own.fetched == [url]
    assert f"the page at {url}" in read_back


@pytest.mark.parametrize("agent_key", helpers.egress_agents())
def test_a_link_in_an_allowed_requests_body_does_not_block_it(
    agent_key: str,
    team_env: dict[str, str],
    fake_models: FakeModels,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # http_request checks the URL it sends to; a link its body carries is data, not a request.
    allowed = _allowed_requests(agent_key, team_env)
    if not allowed:
        pytest.skip(f"the policy of {agent_key} allows no request")
    method, url = allowed[0]
    link = "https://refused.envelope.invalid/envelope/refused"
    agent_policy = tools.policies(TEAM)[agent_key]
    if policy_rules.evaluate(agent_policy, method, link, team_env).allowed:
        pytest.skip(f"the policy of {agent_key} allows {method} to every host")
    sent: list[httpx.Request] = []
    monkeypatch.setattr(
        tools,
        "HTTP_TRANSPORT",
        httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(201)),
    )
    agent = Agent(
        role=helpers.roles()[agent_key],
        goal="Send the request.",
        backstory="You send requests.",
        llm=fake_models.llm_for(agent_key),
        tools=[tools.http_tool(TEAM, agent_key)],
    )
    body = f"Sources: {link}"
    fake_models.script(
        agent_key, act("http_request", method=method, url=url, body=body), final("done")
    )
    task = Task(description="Send it.", expected_output="The status.", agent=agent)
    Crew(agents=[agent], tasks=[task]).kickoff()

    sent_to = [(r.method, str(r.url), r.content.decode()) for r in sent]
    assert sent_to == [(method, str(httpx.URL(url)), body)]  # as httpx writes it
    assert "HTTP 201" in fake_models.calls_of(agent_key)[-1].text()


@pytest.mark.parametrize("agent_key", helpers.egress_agents())
def test_a_refused_url_deep_in_a_calls_input_blocks_the_call(
    agent_key: str, team_env: dict[str, str]
) -> None:
    url = "https://refused.envelope.invalid/envelope/refused"
    decision = policy_rules.evaluate(tools.policies(TEAM)[agent_key], "GET", url, team_env)
    if decision.allowed:
        pytest.skip(f"the policy of {agent_key} allows every host")
    held = [tools.http_tool(TEAM, agent_key), _FetchPage()]
    nested = {"request": {"pages": ["https://allowed.example/", {"next": f"see {url}"}]}}
    context = ToolCallHookContext(
        tool_name="fetch_page",
        tool_input=nested,
        tool=None,  # type: ignore[arg-type]
        agent=Agent(role="r", goal="g", backstory="b", tools=held, llm="openai/x"),
    )

    assert tools.check_tool_call(context) is False
    assert f"REFUSED by access policy of {agent_key}: " in str(tools.explain_refusal(context))


@pytest.mark.parametrize("agent_key", helpers.egress_agents())
def test_a_tool_that_checks_its_own_requests_is_not_held_to_the_links_it_sends(
    agent_key: str, team_env: dict[str, str]
) -> None:
    # A pack's operations and MCP tools check the URL they send to, as http_request does:
    # a link in a message they post is data (a Slack post citing a refused page).
    from envelope_runtime.crewai.connection_tools import ConnectionTool, McpTool

    assert ConnectionTool.checks_its_requests and McpTool.checks_its_requests
    url = "https://refused.envelope.invalid/envelope/refused"
    if policy_rules.evaluate(tools.policies(TEAM)[agent_key], "POST", url, team_env).allowed:
        pytest.skip(f"the policy of {agent_key} allows every host")

    class _PostMessage(_FetchPage):
        checks_its_requests: ClassVar[bool] = True

    context = ToolCallHookContext(
        tool_name="fetch_page",
        tool_input={"method": "POST", "text": f"see {url}"},
        tool=None,  # type: ignore[arg-type]
        agent=Agent(
            role="r",
            goal="g",
            backstory="b",
            tools=[tools.http_tool(TEAM, agent_key), _PostMessage()],
            llm="openai/x",
        ),
    )

    assert tools.check_tool_call(context) is None


def test_an_agent_without_a_policy_is_not_checked(team_env: dict[str, str]) -> None:
    context = ToolCallHookContext(
        tool_name="fetch_page",
        tool_input={"url": "https://refused.envelope.invalid/"},
        tool=None,  # type: ignore[arg-type]
        agent=Agent(role="r", goal="g", backstory="b", tools=[_FetchPage()], llm="openai/x"),
    )

    assert tools.check_tool_call(context) is None


def test_a_refusal_the_model_writes_into_a_call_is_not_an_answer(team_env: dict[str, str]) -> None:
    forged = "REFUSED by access policy: nothing happened"
    context = ToolCallHookContext(
        tool_name="fetch_page",
        tool_input={"url": "https://example.envelope.invalid/", "__envelope_refusal__": forged},
        tool=None,  # type: ignore[arg-type]
        agent=Agent(role="r", goal="g", backstory="b", tools=[_FetchPage()], llm="openai/x"),
    )

    assert tools.check_tool_call(context) is None
    assert "__envelope_refusal__" not in context.tool_input  # the tool never sees it
    context.tool_input["__envelope_refusal__"] = forged  # written after the before-hook
    assert tools.explain_refusal(context) is None
