// The http_request tool reads the build's environment (BuildOptions.env), not process.env:
// the policy's {{NAME}} hosts, the URL's and headers' placeholders, the secrets it redacts;
// and it waits for an answer as long as its agent's timeoutMs.
import { afterEach, describe, expect, it, vi } from "vitest";
import { TeamRuntime } from "../src/graph.js";
import { httpRequest } from "../src/http-tool.js";
import type { AccessPolicy } from "../src/policy.js";
import type { TeamSpec } from "../src/spec.js";
import { agent, pipeline, schemas } from "./demo-team.js";

const policy: AccessPolicy = { defaultAction: "deny", rules: [{ host: "{{ZENDESK_SUBDOMAIN}}.zendesk.com", methods: ["GET"], action: "allow" }] };
const env = { ZENDESK_SUBDOMAIN: "acme-h13", ZENDESK_TOKEN: "tok-h13-secret" };

function transport() {
  const sent: Array<{ url: string; headers: Array<[string, string]> }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url: String(url), headers: init.headers as Array<[string, string]> });
    return new Response(`echo ${env.ZENDESK_TOKEN}`, { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  return { sent, fetch };
}

afterEach(() => vi.restoreAllMocks());

describe("http_request", () => {
  it("fills the policy, URL and headers from the env it is given, and redacts its secrets", async () => {
    expect(process.env.ZENDESK_SUBDOMAIN).toBeUndefined();
    const { sent, fetch } = transport();
    const args = { method: "GET" as const, url: "https://{{ZENDESK_SUBDOMAIN}}.zendesk.com/api/v2/tickets", headers: [{ name: "Authorization", value: "Bearer {{ZENDESK_TOKEN}}" }], body: null };
    const answer = await httpRequest(args, { policy, variables: ["ZENDESK_SUBDOMAIN"], secrets: ["ZENDESK_TOKEN"], env, fetch });
    expect(answer).toBe("HTTP 200\necho {{ZENDESK_TOKEN}}");
    expect(sent).toEqual([{ url: "https://acme-h13.zendesk.com/api/v2/tickets", headers: [["Authorization", "Bearer tok-h13-secret"]] }]);
  });

  it("is built by the graph with the build's env and the agent's timeoutMs", async () => {
    const team: TeamSpec = { ...pipeline, agents: [agent("lead", { reports: ["writer"], policy, timeoutMs: 12_345 }), agent("writer", { reportsTo: "lead" })], secrets: ["ZENDESK_TOKEN"], variables: ["ZENDESK_SUBDOMAIN"] };
    const { sent, fetch } = transport();
    const timeouts = vi.spyOn(AbortSignal, "timeout");
    const [tool] = new TeamRuntime(team, schemas, { env, fetch }).tools(team.agents[0]!, {}, undefined, false);
    expect(tool!.name).toBe("http_request");
    const answer = await tool!.invoke({ method: "GET", url: "https://acme-h13.zendesk.com/x", headers: [], body: null });
    expect(answer).toBe("HTTP 200\necho {{ZENDESK_TOKEN}}");
    expect(sent.map((s) => s.url)).toEqual(["https://acme-h13.zendesk.com/x"]);
    expect(timeouts).toHaveBeenCalledWith(12_345);
  });
});
