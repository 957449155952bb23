// `envelope export --connections PATH --connection AGENT=PROVIDER`: packs refused with their
// pointer (nothing written), --connection naming an unknown agent refused, and an export that
// carries the fixture's OpenAPI pack into the project (its tools, .env.example, README, loss
// report), never a credential.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

const TEAM = join(ROOT, "test/fixtures/connections/helpdesk-triage.envelope.json");
const PACKS = join(ROOT, "test/fixtures/connections");
const tmp = () => mkdtempSync(join(tmpdir(), "envelope-connections-"));

describe("envelope export --connections", () => {
  it("a pack with credential material is refused with its pointer, its value never printed, nothing written", async () => {
    const dir = tmp();
    cpSync(join(PACKS, "helpdesk"), join(dir, "helpdesk"), { recursive: true });
    const file = join(dir, "helpdesk", "pack.json");
    const pack = JSON.parse(readFileSync(file, "utf8"));
    pack.provider.auth.apiKey = "hd-live-0123456789";
    writeFileSync(file, JSON.stringify(pack, null, 2));
    const out = join(dir, "out");
    const r = await runCli(["export", TEAM, "--target", "crewai", "--out", out, "--connections", join(dir, "helpdesk")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pack\.json:\d+:\d+: error E_PACK_CREDENTIAL/);
    expect(r.stderr).toContain("at /provider/auth/apiKey");
    expect(r.stderr + r.stdout).not.toContain("hd-live-0123456789");
    expect(existsSync(out)).toBe(false);
  });

  it("--connection to an unknown agent is refused; so is one without --connections, or not AGENT=PROVIDER", async () => {
    const out = join(tmp(), "out");
    const r = await runCli(["export", TEAM, "--target", "langgraph", "--out", out, "--connections", PACKS, "--connection", "nobody=helpdesk"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_CONNECTION_UNKNOWN --connection nobody=helpdesk: no agent has the key "nobody"');
    expect(existsSync(out)).toBe(false);
    expect((await runCli(["export", TEAM, "--target", "crewai", "--dry-run", "--connection", "triager=helpdesk"])).code).toBe(2);
    const bad = await runCli(["export", TEAM, "--target", "crewai", "--dry-run", "--connections", PACKS, "--connection", "triager"]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("AGENT_KEY=PROVIDER_ID")]);
  });

  it("a pack named for an agent without an access policy is refused", async () => {
    const dir = tmp();
    const def = JSON.parse(readFileSync(TEAM, "utf8"));
    delete def.agents[0].accessPolicy;
    writeFileSync(join(dir, "team.envelope.json"), JSON.stringify(def));
    const r = await runCli(["export", join(dir, "team.envelope.json"), "--target", "crewai", "--dry-run", "--connections", PACKS, "--connection", "triager=helpdesk"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("E_CONNECTION_NO_POLICY");
  });

  it.each(["crewai", "langgraph"])("%s: the OpenAPI pack's tools and the MCP server reach the project, each given to the agent whose policy allows it", async (target) => {
    const out = join(tmp(), "out");
    const r = await runCli(["export", TEAM, "--target", target, "--out", out, "--connections", PACKS]);
    expect(r.code, r.stderr).toBe(0);
    const pkg = join(out, "src/helpdesk_triage");
    const teamPy = readFileSync(join(pkg, "team.py"), "utf8");
    expect(teamPy).toContain('tool="helpdesk_get_ticket"');
    expect(teamPy).toContain('"triager": ("docs-search", "helpdesk")');
    expect(teamPy).toContain('url="https://mcp.docs.example.com/mcp"');
    expect(teamPy).toContain('CONNECTION_SECRETS: tuple[str, ...] = ("DOCS_SEARCH_TOKEN", "HELPDESK_API_KEY")');
    // The packs' code is envelope-runtime's (vendored whole); the team's tools are in team.py.
    const library = join(out, "vendor/envelope-runtime/src/envelope_runtime");
    expect(existsSync(join(library, "connections.py"))).toBe(true);
    expect(existsSync(join(library, target, "connection_tools.py"))).toBe(true);
    expect(readFileSync(join(out, ".env.example"), "utf8")).toMatch(/^HELPDESK_API_KEY=$/m);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).toContain("`HELPDESK_API_KEY`, sent in the `X-Helpdesk-Key` header");
    const report = readFileSync(join(out, "ENVELOPE_EXPORT.md"), "utf8");
    expect(report).toMatch(/\| `helpdesk` \| `triager` \| carried \| 2 OpenAPI tools .*its access policy allows requests to hosts under helpdesk\.example\.com \|/);
    expect(report).toMatch(/\| `docs-search` \| `triager` \| carried \| the MCP server https:\/\/mcp\.docs\.example\.com\/mcp \(http\), its tools listed from it when the agent is built; its access policy allows POST to the server URL \|/);
    expect(readme).toContain("`DOCS_SEARCH_TOKEN`, sent in the `Authorization` header as `Bearer <token>`");
    expect(readme).toContain("named `docs_search_` + the tool's name");
  });

  it("an oauth2 pack: its access-token variable, and the README's scopes (write asked for separately) and endpoints", async () => {
    const dir = tmp();
    cpSync(join(PACKS, "helpdesk"), join(dir, "helpdesk"), { recursive: true });
    const file = join(dir, "helpdesk", "pack.json");
    const pack = JSON.parse(readFileSync(file, "utf8"));
    pack.provider.auth = {
      kind: "oauth2",
      endpoints: { authorize: "https://auth.helpdesk.example.com/oauth/authorize", token: "https://auth.helpdesk.example.com/oauth/token" },
      scopes: { read: [{ key: "tickets-read", label: "Read tickets", scopes: ["tickets:read"] }], write: [{ key: "tickets-write", label: "Comment on tickets", scopes: ["tickets:write"] }] },
    };
    writeFileSync(file, JSON.stringify(pack, null, 2));
    const out = join(dir, "out");
    const r = await runCli(["export", TEAM, "--target", "crewai", "--out", out, "--connections", join(dir, "helpdesk")]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, ".env.example"), "utf8")).toMatch(/^HELPDESK_ACCESS_TOKEN=$/m);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).toContain("`HELPDESK_ACCESS_TOKEN`, sent in the `Authorization` header as `Bearer <token>`");
    expect(readme).toContain("authorize endpoint: `https://auth.helpdesk.example.com/oauth/authorize`");
    expect(readme).toContain("token endpoint: `https://auth.helpdesk.example.com/oauth/token`");
    expect(readme).toContain("read consent `tickets-read` (Read tickets): `tickets:read`");
    expect(readme).toContain("write consent `tickets-write` (Comment on tickets), asked for separately: `tickets:write`");
  });

  it("a team without packs has no connection code of its own (the runtime library is whole in every export)", async () => {
    const out = join(tmp(), "out");
    const r = await runCli(["export", TEAM, "--target", "crewai", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, "vendor/envelope-runtime/src/envelope_runtime/connections.py"))).toBe(true);
    expect(readFileSync(join(out, "tests/test_team.py"), "utf8")).not.toMatch(/connections|mcp_tools/);
    expect(readFileSync(join(out, "src/helpdesk_triage/team.py"), "utf8")).not.toContain("CONNECTIONS");
    expect(readFileSync(join(out, "ENVELOPE_EXPORT.md"), "utf8")).not.toContain("## Connections");
  });
});
