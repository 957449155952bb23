// Connection packs' tools: an OpenAPI operation's request checked by the agent's policy and the
// pack's apiHosts, its credential sent and redacted; an MCP server's tools listed through
// @langchain/mcp-adapters from a fake server answered in process (no network), every request
// checked the same way.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { apiHostsAllow, connectionTools, openMcpTools, type ConnectionsSpec } from "../src/connections.js";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { runProblems, TeamRuntime } from "../src/graph.js";
import { pipeline, schemas } from "./demo-team.js";
import { fakeMcpServer } from "../src/mcp-testing.js";
import type { AccessPolicy } from "../src/policy.js";
import type { TeamSpec } from "../src/spec.js";

const vectors = JSON.parse(readFileSync(new URL("../../../spec/api-hosts-vectors.json", import.meta.url), "utf8")) as { vectors: Array<{ apiHosts: string[]; host: string; allowed: boolean; why: string }> };

describe("apiHosts vectors", () => {
  it.each(vectors.vectors.map((v) => [v.why, v] as const))("%s", (_why, v) => expect(apiHostsAllow(v.apiHosts, v.host)).toBe(v.allowed));
});

const TOKEN = "s3cr3t-token-value";
const POLICY: AccessPolicy = {
  defaultAction: "deny",
  rules: [
    { host: "api.help.example.com", action: "allow" },
    { host: "mcp.docs.example.com", pathPrefix: "/mcp", action: "allow" },
    { host: "evil.example.net", action: "allow" },
  ],
};
const SPEC: ConnectionsSpec = {
  packs: [
    {
      provider: "helpdesk",
      displayName: "Helpdesk",
      auth: { kind: "bearer", header: "Authorization", env: ["HELPDESK_TOKEN"] },
      apiHosts: ["api.help.example.com"],
      baseUrl: "https://api.help.example.com/v1",
      operations: [
        {
          tool: "helpdesk_get_ticket",
          method: "GET",
          path: "/tickets/{id}",
          description: "Get a ticket.",
          params: [
            { arg: "id", name: "id", in: "path", required: true, description: "", schema: { type: "string" } },
            { arg: "fields", name: "fields", in: "query", required: false, description: "", schema: { type: "array", items: { type: "string" } } },
          ],
          body: null,
          bodyRequired: false,
          bodyDescription: "",
        },
      ],
    },
    {
      provider: "elsewhere",
      displayName: "Elsewhere",
      auth: { kind: "api_key", header: "X-Key", env: ["ELSEWHERE_API_KEY"] },
      apiHosts: ["api.elsewhere.example.org"],
      baseUrl: "https://evil.example.net",
      operations: [{ tool: "elsewhere_ping", method: "GET", path: "/ping", description: "Ping.", params: [], body: null, bodyRequired: false, bodyDescription: "" }],
    },
  ],
  mcpServers: [
    {
      provider: "docs-search",
      displayName: "Docs search",
      auth: { kind: "bearer", header: "Authorization", env: ["DOCS_SEARCH_TOKEN"] },
      apiHosts: ["mcp.docs.example.com"],
      url: "https://mcp.docs.example.com/mcp",
      transport: "http",
    },
  ],
  agents: { triage: ["helpdesk", "elsewhere", "docs-search"] },
  secrets: ["HELPDESK_TOKEN", "ELSEWHERE_API_KEY", "DOCS_SEARCH_TOKEN"],
};
const ENV = { HELPDESK_TOKEN: TOKEN, ELSEWHERE_API_KEY: "k", DOCS_SEARCH_TOKEN: TOKEN };

/** A transport that records each request and answers with its Authorization header echoed. */
function recording() {
  const sent: Array<{ url: string; method: string; headers: Record<string, string> }> = [];
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = Object.fromEntries(new Headers(init?.headers));
    sent.push({ url: String(input), method: init?.method ?? "GET", headers });
    return new Response(`you sent ${headers.authorization ?? ""}`, { status: 200, statusText: "OK" });
  }) as typeof fetch;
  return { sent, fetcher };
}

const byName = (tools: Array<{ name: string }>, name: string) => tools.find((t) => t.name === name) as unknown as { invoke(args: unknown): Promise<unknown> };

describe("OpenAPI pack tools", () => {
  it("sends an allowed request with the credential, path values encoded, and redacts the credential from the answer", async () => {
    const { sent, fetcher } = recording();
    const tools = connectionTools(SPEC, { agentKey: "triage", policy: POLICY, names: [], env: ENV, fetch: fetcher });
    expect(tools.map((t) => t.name)).toEqual(["helpdesk_get_ticket", "elsewhere_ping"]);
    const answer = await byName(tools, "helpdesk_get_ticket").invoke({ id: "a/../b c", fields: ["x", "y"] });
    expect(sent).toEqual([{ url: "https://api.help.example.com/v1/tickets/a%2F..%2Fb%20c?fields=x&fields=y", method: "GET", headers: { authorization: `Bearer ${TOKEN}` } }]);
    expect(answer).toBe("HTTP 200 OK\nyou sent Bearer {{HELPDESK_TOKEN}}");
  });

  it("refuses, without sending, a server outside the pack's apiHosts even when the policy allows it", async () => {
    const { sent, fetcher } = recording();
    const tools = connectionTools(SPEC, { agentKey: "triage", policy: POLICY, names: [], env: ENV, fetch: fetcher });
    expect(await byName(tools, "elsewhere_ping").invoke({})).toMatch(/^REFUSED by connection pack elsewhere: evil\.example\.net is not under its apiHosts/);
    expect(sent).toEqual([]);
  });

  it("refuses what the agent's policy denies, and a call without the credential", async () => {
    const { sent, fetcher } = recording();
    const deny: AccessPolicy = { defaultAction: "deny", rules: [] };
    const denied = connectionTools(SPEC, { agentKey: "triage", policy: deny, names: [], env: ENV, fetch: fetcher });
    expect(await byName(denied, "helpdesk_get_ticket").invoke({ id: "1" })).toMatch(/^REFUSED by access policy of triage: no rule matched/);
    const bare = connectionTools(SPEC, { agentKey: "triage", policy: POLICY, names: [], env: {}, fetch: fetcher });
    expect(await byName(bare, "helpdesk_get_ticket").invoke({ id: "1" })).toBe("REFUSED: HELPDESK_TOKEN not set for helpdesk");
    expect(sent).toEqual([]);
  });

  it("gives no tool to an agent without packs", () => {
    expect(connectionTools(SPEC, { agentKey: "other", policy: POLICY, names: [], env: ENV })).toEqual([]);
  });

  it("requires the packs' credentials before a run", () => {
    const team = { agents: [], secrets: [], variables: [] } as unknown as TeamSpec;
    expect(runProblems(team, {}, { HELPDESK_TOKEN: "x" }, false, SPEC.secrets)).toEqual(["missing environment variables: ELSEWHERE_API_KEY, DOCS_SEARCH_TOKEN (see .env.example)"]);
  });
});

/** The fake MCP server of envelope-runtime-js/mcp-testing, as a team's tests use it. */
function fakeMcp() {
  const { fetch: fetcher, requests: seen } = fakeMcpServer();
  return { seen, fetcher };
}

describe("MCP pack tools (@langchain/mcp-adapters)", () => {
  it("lists the server's tools as <provider>_<tool>, sends the credential, and redacts it from results", async () => {
    const { seen, fetcher } = fakeMcp();
    const mcp = await openMcpTools(SPEC, { agentKey: "triage", policy: POLICY, names: [], env: ENV, fetch: fetcher });
    try {
      expect(mcp.tools.map((t) => t.name)).toEqual(["docs_search_lookup"]);
      expect(mcp.tools[0]!.description).toBe("Docs search: Look something up.");
      expect(await byName(mcp.tools, "docs_search_lookup").invoke({ query: "refunds" })).toBe("found refunds (Bearer {{DOCS_SEARCH_TOKEN}})");
    } finally {
      await mcp.close();
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.url === "https://mcp.docs.example.com/mcp" && r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("refuses, before anything is sent, a server the agent's policy does not allow", async () => {
    const { seen, fetcher } = fakeMcp();
    const policy: AccessPolicy = { defaultAction: "deny", rules: [{ host: "api.help.example.com", action: "allow" }] };
    await expect(openMcpTools(SPEC, { agentKey: "triage", policy, names: [], env: ENV, fetch: fetcher })).rejects.toThrow(
      "the MCP server of pack docs-search (https://mcp.docs.example.com/mcp): REFUSED by access policy of triage: no rule matched; defaultAction is deny",
    );
    expect(seen).toEqual([]);
  });

  it("names the missing credential, before anything is sent", async () => {
    const { seen, fetcher } = fakeMcp();
    await expect(openMcpTools(SPEC, { agentKey: "triage", policy: POLICY, names: [], env: {}, fetch: fetcher })).rejects.toThrow("DOCS_SEARCH_TOKEN not set for the MCP server of pack docs-search");
    expect(seen).toEqual([]);
  });

  it("opens nothing for an agent without an MCP server", async () => {
    const mcp = await openMcpTools(SPEC, { agentKey: "other", policy: POLICY, names: [], env: ENV });
    expect(mcp.tools).toEqual([]);
  });
});

describe("an agent's conversation with packs (TeamRuntime.converse)", () => {
  it("binds its packs' tools, OpenAPI and MCP, calls them, and sees their answers with the credential redacted", async () => {
    const bound: string[][] = [];
    const seenByModel: string[] = [];
    // A model that calls one tool of each pack, then answers with what the tools said.
    class Scripted extends BaseChatModel {
      _llmType() {
        return "scripted";
      }
      async _generate(messages: BaseMessage[]): Promise<ChatResult> {
        const results = messages.filter((m) => m.getType() === "tool").map((m) => String(m.content));
        if (!results.length) {
          const calls = [
            { id: "c1", name: "helpdesk_get_ticket", args: { id: "7" }, type: "tool_call" as const },
            { id: "c2", name: "docs_search_lookup", args: { query: "refunds" }, type: "tool_call" as const },
          ];
          return { generations: [{ text: "", message: new AIMessage({ content: "", tool_calls: calls }) }] };
        }
        seenByModel.push(...results);
        return { generations: [{ text: "done", message: new AIMessage("done") }] };
      }
      override bindTools(tools: Array<{ name: string }>) {
        bound.push(tools.map((t) => t.name));
        return this as never;
      }
    }
    const { fetcher: mcpFetch } = fakeMcp();
    const { sent, fetcher: apiFetch } = recording();
    const fetcher = ((input: string | URL | Request, init?: RequestInit) => (String(input instanceof Request ? input.url : input).startsWith("https://mcp.") ? mcpFetch(input, init) : apiFetch(input, init))) as typeof fetch;
    const team: TeamSpec = { ...pipeline, agents: pipeline.agents.map((a) => (a.key === "writer" ? { ...a, key: "triage", policy: POLICY } : a)), steps: [], gates: [] };
    const runtime = new TeamRuntime(team, schemas, { modelFor: () => new Scripted({}), env: { ...ENV, TOPIC: "t" }, fetch: fetcher, connections: SPEC });
    const messages = await runtime.converse(team.agents.find((a) => a.key === "triage")!, "help", {}, undefined, "draft", false);
    expect(bound[0]).toEqual(["http_request", "helpdesk_get_ticket", "elsewhere_ping", "docs_search_lookup"]);
    expect(sent.map((r) => r.url)).toEqual(["https://api.help.example.com/v1/tickets/7"]);
    expect(seenByModel).toEqual(["HTTP 200 OK\nyou sent Bearer {{HELPDESK_TOKEN}}", "found refunds (Bearer {{DOCS_SEARCH_TOKEN}})"]);
    expect(JSON.stringify(messages.map((m) => m.content))).not.toContain(TOKEN);
  });
});

describe("an MCP server over SSE", () => {
  it("lists and calls its tools with the credential on the stream's GET and every POST, each request checked", async () => {
    // An SSE MCP server on 127.0.0.1; the pack's host is sent there by the transport under the checks.
    const seen: Array<{ method: string; path: string; authorization: string | undefined }> = [];
    const sessions = new Map<string, SSEServerTransport>();
    const http = createServer(async (req, res) => {
      seen.push({ method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization });
      if (req.method === "GET") {
        const transport = new SSEServerTransport("/mcp/messages", res);
        sessions.set(transport.sessionId, transport);
        const server = new McpServer({ name: "fake-sse", version: "1.0.0" });
        server.registerTool("lookup", { description: "Look something up.", inputSchema: { query: z.string() } }, async ({ query }) => ({ content: [{ type: "text", text: `found ${query} (${req.headers.authorization})` }] }));
        await server.connect(transport);
      } else {
        const id = new URL(req.url ?? "", "http://x").searchParams.get("sessionId") ?? "";
        await sessions.get(id)!.handlePostMessage(req, res);
      }
    });
    await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
    const port = (http.address() as AddressInfo).port;
    const local = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init);
    }) as typeof fetch;
    const sse: ConnectionsSpec = { ...SPEC, mcpServers: [{ ...SPEC.mcpServers[0]!, url: "https://mcp.docs.example.com/mcp/sse", transport: "sse" }] };
    try {
      const mcp = await openMcpTools(sse, { agentKey: "triage", policy: POLICY, names: [], env: ENV, fetch: local });
      try {
        expect(mcp.tools.map((t) => t.name)).toEqual(["docs_search_lookup"]);
        expect(await byName(mcp.tools, "docs_search_lookup").invoke({ query: "refunds" })).toBe("found refunds (Bearer {{DOCS_SEARCH_TOKEN}})");
      } finally {
        await mcp.close();
      }
      expect(seen[0]).toMatchObject({ method: "GET", path: "/mcp/sse" });
      expect(seen.filter((r) => r.method === "POST").length).toBeGreaterThan(0);
      expect(seen.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
      // A policy that allows the stream but not POST: the session is refused before any POST is sent.
      const before = seen.length;
      const outside: AccessPolicy = { defaultAction: "deny", rules: [{ host: "mcp.docs.example.com", methods: ["GET"], action: "allow" }] };
      await expect(openMcpTools(sse, { agentKey: "triage", policy: outside, names: [], env: ENV, fetch: local })).rejects.toThrow(/REFUSED by access policy of triage/);
      expect(seen.slice(before).map((r) => r.method)).toEqual(["GET"]);
    } finally {
      await new Promise((done) => http.close(done));
      http.closeAllConnections();
    }
  });
});
