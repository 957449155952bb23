// A fake MCP server for a team's tests (envelope-runtime-js/mcp-testing): streamable HTTP
// answered in process through `fetch` (BuildOptions.fetch), so a team with MCP connection packs
// runs offline. Every server URL answers with one tool, `lookup`, whose result names the
// request's Authorization header (the tests see it redacted).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";

export interface FakeMcpRequest {
  url: string;
  method: string;
  authorization: string | null;
}

/** The fake server: its `fetch` and every request it was sent. */
export function fakeMcpServer(): { fetch: typeof fetch; requests: FakeMcpRequest[] } {
  const requests: FakeMcpRequest[] = [];
  const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const authorization = request.headers.get("authorization");
    requests.push({ url: request.url, method: request.method, authorization });
    // Stateless: a server and transport per request, as the MCP SDK's stateless servers do.
    const server = new McpServer({ name: "fake-mcp", version: "1.0.0" });
    server.registerTool("lookup", { description: "Look something up.", inputSchema: { query: z.string() } }, async ({ query }) => ({
      content: [{ type: "text", text: `found ${query} (${authorization ?? "no credential"})` }],
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
  return { fetch: answer as typeof fetch, requests };
}
