// Connection packs read for an export: schema-checked with positions, refused when they carry
// credential material (without quoting it), one pack per provider; and which agent gets which.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assignPacks, parseConnectionFlag } from "../../src/connections/assign.js";
import { readConnectionPacks } from "../../src/connections/read-packs.js";
import { connectionRows } from "../../src/connections/report.js";
import { normalize } from "../../src/model/index.js";
import { agent, team } from "../helpers/definitions.js";

const dir = mkdtempSync(join(tmpdir(), "envelope-packs-"));
let n = 0;
function packFile(pack: unknown, text?: string): string {
  const d = join(dir, `p${++n}`);
  mkdirSync(d);
  writeFileSync(join(d, "pack.json"), text ?? JSON.stringify(pack, null, 2));
  return join(d, "pack.json");
}

function pack(id: string, provider: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `community.envelope.${id}`,
    version: "1.0.0",
    kind: "connection",
    engines: { openwop: ">=2.0.0" },
    provider: {
      id,
      displayName: id,
      category: "support",
      auth: { kind: "oauth2", endpoints: { authorize: `https://${id}.example/oauth/authorize`, token: `https://${id}.example/oauth/token` }, scopes: { read: [{ key: "read", label: "Read", scopes: ["read"] }], write: [{ key: "write", label: "Write", scopes: ["write"] }] } },
      reach: { openapi: { ref: "./openapi.json" } },
      apiHosts: [`${id}.example`],
      ...provider,
    },
  };
}

describe("reading connection packs", () => {
  it("a valid pack, and a folder of packs, in path order; the token endpoint is not a credential", () => {
    const one = packFile(pack("zendesk"));
    const folder = join(dir, "folder");
    mkdirSync(join(folder, "b"), { recursive: true });
    mkdirSync(join(folder, "a"), { recursive: true });
    writeFileSync(join(folder, "b", "pack.json"), JSON.stringify(pack("beta", { reach: { mcp: { server: { url: "https://mcp.docs.example/mcp", transport: "http" } } }, apiHosts: undefined })));
    writeFileSync(join(folder, "a", "pack.json"), JSON.stringify(pack("alpha")));
    const r = readConnectionPacks([one, folder]);
    expect(r.diagnostics).toEqual([]);
    expect(r.packs.map((p) => p.provider.id)).toEqual(["zendesk", "alpha", "beta"]);
    expect(r.packs[0]!.provider.auth.endpoints?.token).toBe("https://zendesk.example/oauth/token");
  });

  it("credential material anywhere (nested, in an extension, any spelling) refuses the pack at its key, never quoting the value", () => {
    const p = pack("leaky");
    (p.provider as Record<string, unknown>)["x-settings"] = { api_key: "sk-live-123" };
    ((p.provider as Record<string, { [k: string]: unknown }>).auth!).clientSecret = "hunter2-secret";
    const text = JSON.stringify(p, null, 2);
    const r = readConnectionPacks([packFile(undefined, text)]);
    expect(r.packs).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["E_PACK_CREDENTIAL", "/provider/auth/clientSecret"],
      ["E_PACK_CREDENTIAL", "/provider/x-settings/api_key"],
    ]);
    const lines = text.split("\n");
    const d = r.diagnostics[0]!;
    expect(lines[d.line - 1]!.slice(d.column - 1)).toMatch(/^"clientSecret"/);
    expect(JSON.stringify(r.diagnostics)).not.toMatch(/hunter2|sk-live/);
  });

  it("a URL that holds a credential (userinfo, or a query key named like one) refuses the pack at that URL", () => {
    const withKey = pack("docs", { reach: { mcp: { server: { url: "https://mcp.docs.example.com/mcp?api_key=sk-live-9", transport: "http" } } }, apiHosts: ["docs.example.com"] });
    const withUser = pack("docs2", { reach: { mcp: { server: { url: "https://bot:pw-77@mcp.docs.example.com/mcp", transport: "http" } } }, apiHosts: ["docs.example.com"] });
    const plain = pack("docs3", { reach: { mcp: { server: { url: "https://mcp.docs.example.com/mcp?lang=en", transport: "http" } } }, apiHosts: ["docs.example.com"] });
    const r = readConnectionPacks([packFile(withKey), packFile(withUser), packFile(plain)]);
    expect(r.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["E_PACK_CREDENTIAL", "/provider/reach/mcp/server/url"],
      ["E_PACK_CREDENTIAL", "/provider/reach/mcp/server/url"],
    ]);
    expect(r.packs.map((p) => p.provider.id)).toEqual(["docs3"]);
    expect(JSON.stringify(r.diagnostics)).not.toMatch(/sk-live|pw-77/);
  });

  it("schema problems with pointer and line:column: openapi needs apiHosts; a bad apiHosts entry; not a connection pack", () => {
    const missing = pack("nohosts", { apiHosts: undefined });
    const text = JSON.stringify(missing, null, 2);
    const r = readConnectionPacks([packFile(undefined, text)]);
    expect(r.diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([["E_REQUIRED", "/provider", "`provider` is missing the required property `apiHosts`"]]);
    expect(r.diagnostics[0]!.line).toBe(text.split("\n").findIndex((l) => l.includes('"provider"')) + 1);
    const bad = readConnectionPacks([packFile(pack("badhost", { apiHosts: ["https://api.example/"] }))]);
    expect(bad.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual(["E_PATTERN", "/provider/apiHosts/0"]);
    const other = readConnectionPacks([packFile({ ...pack("node"), kind: "node" })]);
    expect(other.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["E_CONST", "/kind"]]);
    const syntax = readConnectionPacks([packFile(undefined, '{"name": ')]);
    expect(syntax.diagnostics.map((d) => d.code)).toEqual(["E_JSON_SYNTAX"]);
    expect(syntax.diagnostics[0]!.file).toMatch(/pack\.json$/);
  });

  it("two packs for one provider: the second is refused, naming the first", () => {
    const first = packFile(pack("dup"));
    const r = readConnectionPacks([first, packFile(pack("dup"))]);
    expect(r.packs).toHaveLength(1);
    expect(r.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["E_PACK_DUPLICATE_PROVIDER", "/provider/id"]]);
    expect(r.diagnostics[0]!.message).toContain(first);
  });

  it("a path that is not there, or a folder without packs", () => {
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const r = readConnectionPacks([join(dir, "nowhere.json"), empty]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["E_READ", "E_READ"]);
  });
});

describe("which agent gets which pack", () => {
  const normalized = normalize(
    JSON.stringify(team({
      agents: [
        agent("triage", { role: "manager", accessPolicy: { accessPolicyVersion: "1", defaultAction: "deny", rules: [{ host: "{{ZENDESK_SUBDOMAIN}}.zendesk.com", methods: ["GET"], action: "allow" }] } }),
        agent("billing", { reportsToKey: "triage", allowedHosts: ["api.stripe.com"] }),
        agent("writer", { reportsToKey: "triage" }),
        agent("spoofed", { reportsToKey: "triage", allowedHosts: ["evilzendesk.com"] }),
      ],
      requiredVariables: ["ZENDESK_SUBDOMAIN"],
    })),
  );
  const model = normalized.model!;
  const packs = readConnectionPacks([
    packFile(pack("zendesk", { apiHosts: ["zendesk.com"] })),
    packFile(pack("stripe", { apiHosts: ["stripe.com"] })),
    packFile(pack("docs", { reach: { mcp: { server: { url: "https://mcp.docs.example/mcp", transport: "http" } } }, apiHosts: undefined })),
  ]).packs;

  it("by policy: a policy host with a variable meets the pack's apiHosts; a lookalike host does not; an MCP pack without apiHosts goes only where named", () => {
    const r = assignPacks(model, packs, []);
    expect(r.diagnostics).toEqual([]);
    expect(r.assignments.map((a) => `${a.agent}=${a.provider}`)).toEqual(["triage=zendesk", "billing=stripe"]);
    expect(r.assignments[0]!.why).toBe("its access policy allows requests to hosts under zendesk.com");
    expect(r.assignments[1]!.why).toBe("its allowedHosts allows requests to hosts under stripe.com");
  });

  it("an MCP pack goes to the agent whose policy allows POST to its server URL, if that URL's host is under its apiHosts", () => {
    const mcpPacks = readConnectionPacks([
      packFile(pack("zdmcp", { reach: { mcp: { server: { url: "https://acme.zendesk.com/mcp", transport: "http" } } }, apiHosts: ["zendesk.com"] })),
      packFile(pack("getonly", { reach: { mcp: { server: { url: "https://mcp.stripe.com/mcp", transport: "http" } } }, apiHosts: ["stripe.com"] })),
      packFile(pack("outside", { reach: { mcp: { server: { url: "https://mcp.elsewhere.example/mcp", transport: "http" } } }, apiHosts: ["zendesk.com"] })),
    ]).packs;
    const m = normalize(
      JSON.stringify(team({
        agents: [
          agent("lead", { role: "manager", accessPolicy: { accessPolicyVersion: "1", defaultAction: "deny", rules: [{ host: "acme.zendesk.com", methods: ["POST"], pathPrefix: "/mcp", action: "allow" }, { host: "mcp.stripe.com", methods: ["GET"], action: "allow" }, { host: "mcp.elsewhere.example", action: "allow" }] } }),
        ],
      })),
    ).model!;
    const r = assignPacks(m, mcpPacks, []);
    expect(r.assignments.map((a) => [a.agent, a.provider, a.why])).toEqual([["lead", "zdmcp", "its access policy allows POST to the server URL"]]);
    const rows = connectionRows({ packs: mcpPacks, apis: [], assignments: r.assignments });
    expect(rows.map((row) => [row.provider, row.status])).toEqual([["zdmcp", "carried"], ["getonly", "dropped"], ["outside", "dropped"]]);
    expect(rows[2]!.detail).toContain("its host is not under the pack's apiHosts (zendesk.com)");
    expect(rows[1]!.detail).toContain("no agent's access policy or allowedHosts allows POST to the MCP server https://mcp.stripe.com/mcp");
  });

  it("--connection AGENT=PROVIDER adds a pack; unknown agents or providers are errors", () => {
    expect(parseConnectionFlag("writer=docs")).toEqual({ agent: "writer", provider: "docs" });
    expect(parseConnectionFlag("writer")).toBeUndefined();
    const r = assignPacks(model, packs, [{ agent: "writer", provider: "docs" }, { agent: "ghost", provider: "nope" }]);
    expect(r.assignments.map((a) => `${a.agent}=${a.provider}`)).toEqual(["triage=zendesk", "billing=stripe", "writer=docs"]);
    expect(r.assignments[2]!.why).toBe("named with --connection writer=docs");
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([["E_CONNECTION_UNKNOWN", '--connection ghost=nope: no agent has the key "ghost"; no connection pack defines the provider "nope"']]);
  });
});
