"""A fake MCP server for both targets' connection_tools tests: the streamable HTTP transport
with JSON answers and no session, as an httpx.MockTransport handler (connection_tools'
MCP_TRANSPORT), whose every request is recorded. It can be down (every request fails to
connect) or fail its tool calls (HTTP 500), and its one tool, `search`, echoes the
Authorization header it got, so the tests see that a credential is redacted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import httpx


@dataclass
class FakeMcpServer:
    down: bool = False
    fail_calls: bool = False
    requests: list[httpx.Request] = field(default_factory=list)

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.answer)

    def methods(self) -> list[str]:
        return [json.loads(r.content).get("method", "") for r in self.requests if r.content]

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        if request.method != "POST":
            return httpx.Response(405)
        message = json.loads(request.content)
        if "id" not in message:
            return httpx.Response(202)
        method = message["method"]
        if method == "initialize":
            result: dict[str, object] = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "1.0.0"},
            }
        elif method == "tools/list":
            schema = {
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"],
            }
            tool = {"name": "search", "description": "Searches.", "inputSchema": schema}
            result = {"tools": [tool]}
        elif method == "tools/call":
            if self.fail_calls:
                return httpx.Response(500, text="upstream broke")
            query = message["params"]["arguments"]["query"]
            text = f"found {query} (asked with {request.headers.get('authorization')})"
            result = {"content": [{"type": "text", "text": text}], "isError": False}
        else:
            error = {"code": -32601, "message": method}
            return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "error": error})
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "result": result})
