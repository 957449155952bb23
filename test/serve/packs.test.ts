// Connection packs over HTTP: a definition sent as application/vnd.envelope.request+json with
// its packs (`connections`) and explicit connections (`connection`) exports as
// `envelope export --connections … --connection …` does, byte for byte; a pack the readers
// refuse is a 422 with the diagnostics naming the uploaded file; the shape and limits are 400s
// and 413s. Every answer is checked against openapi.json (helpers.ts `call`).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConnections } from "../../src/connections/connections.js";
import { exportDefinition } from "../../src/export/export.js";
import { TARGETS } from "../../src/targets/index.js";
import { MAX_CONNECTION_FILES, REQUEST_LIMIT, REQUEST_TYPE } from "../../src/serve/export-request.js";
import { BODY_LIMIT } from "../../src/serve/settings.js";
import { start, TOKEN, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract, expectRepositoryEquals } from "../github/helpers.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { contractOf, EXAMPLE, post, serve, type Served } from "./helpers.js";

const FIXTURES = join(ROOT, "test/fixtures/connections");
const TEAM_PATH = join(FIXTURES, "helpdesk-triage.envelope.json");
const TEAM = readFileSync(TEAM_PATH, "utf8");
const fixture = (path: string) => ({ path, content: readFileSync(join(FIXTURES, path), "utf8") });
const HELPDESK = [fixture("helpdesk/pack.json"), fixture("helpdesk/openapi.json")];
const ALL = [...HELPDESK, fixture("docs-search/pack.json")];

let s: Served;
let gh: FakeGitHub;
beforeAll(async () => {
  gh = await start();
  s = await serve({ workers: 1, githubApiUrl: gh.url, githubDelayScale: 0 });
});
afterAll(async () => {
  await s?.close();
  await gh?.close();
});

function send(path: string, request: Record<string, unknown>, headers: Record<string, string> = {}) {
  return post(s, path, JSON.stringify(request), { "content-type": REQUEST_TYPE, ...headers });
}

const tmp = mkdtempSync(join(tmpdir(), "envelope-serve-packs-"));

describe("a definition with connection packs", () => {
  it("exports the zip `envelope export --zip --connections` writes, byte for byte", async () => {
    const zip = join(tmp, "cli.zip");
    const cli = await runCli(["export", TEAM_PATH, "--target", "langgraph", "--zip", zip, "--connections", FIXTURES, "--connection", "triager=docs-search"]);
    expect(cli.code, cli.stderr).toBe(0);
    // In another order than the CLI reads the folder: the packs are read in path order either way.
    const a = await send("/v1/exports?target=langgraph", { definition: TEAM, connections: ALL, connection: ["triager=docs-search"] });
    expect(a.status, a.text).toBe(200);
    expect(a.headers.get("content-type")).toBe("application/zip");
    expect(Buffer.compare(a.bytes, readFileSync(zip)), "the API's zip differs from the CLI's").toBe(0);
  });

  it("the preview's team.py gives the triager the helpdesk pack's tools; the loss report says so", async () => {
    const a = await send("/v1/exports?target=crewai", { definition: TEAM, connections: HELPDESK }, { accept: "application/json" });
    expect(a.status, a.text).toBe(200);
    const files = a.json.files as Array<{ path: string; content: string }>;
    const team = files.find((f) => f.path.endsWith("/team.py"))!;
    expect(team.content).toMatch(/CONNECTIONS: dict\[str, Connection\] = \{/);
    expect(team.content).toMatch(/CONNECTION_AGENTS: dict\[str, tuple\[str, \.\.\.\]\] = \{\n {4}"triager": \("helpdesk",\),\n\}/);
    // the team's own tests check its packs' tools
    expect(files.find((f) => f.path === "tests/test_team.py")!.content).toContain("def test_a_pack_tool_sends_its_credential_to_its_api_hosts_only(");
    expect(files.find((f) => f.path === "ENVELOPE_EXPORT.md")!.content).toMatch(/## Connections[\s\S]*`helpdesk` \| `triager` \| carried/);
  });

  it("without packs, the same definition has no connection tools (the packs made the difference)", async () => {
    const a = await send("/v1/exports?target=crewai", { definition: TEAM }, { accept: "application/json" });
    expect(a.status, a.text).toBe(200);
    expect((a.json.files as Array<{ path: string; content: string }>).some((f) => /CONNECTIONS/.test(f.content) && f.path.endsWith("/team.py"))).toBe(false);
  });

  it("an explicit connection naming nobody refuses the export, with file `connection`", async () => {
    const bad = await send("/v1/exports?target=crewai", { definition: TEAM, connections: ALL, connection: ["nobody=helpdesk"] });
    expect(bad.status).toBe(422);
    expect(bad.json.type).toBe("urn:envelope-export:problem:invalid-connections");
    expect(bad.json.diagnostics).toEqual([expect.objectContaining({ code: "E_CONNECTION_UNKNOWN", file: "connection" })]);
  });

  it("a pack with credential material is 422, its diagnostic naming the uploaded file, the pointer and the line; never its value", async () => {
    const leaky = JSON.parse(HELPDESK[0]!.content) as { provider: { auth: Record<string, unknown> } };
    leaky.provider.auth.clientSecret = "hunter2-not-to-be-quoted";
    const body = { definition: TEAM, connections: [{ path: "helpdesk/pack.json", content: JSON.stringify(leaky, null, 2) }, HELPDESK[1]] };
    for (const path of ["/v1/exports?target=crewai", "/v1/exports?target=langgraph"]) {
      const a = await send(path, body);
      expect(a.status).toBe(422);
      expect(a.json.type).toBe("urn:envelope-export:problem:invalid-connections");
      expect(a.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_CREDENTIAL", file: "helpdesk/pack.json", pointer: "/provider/auth/clientSecret", line: 14, column: 7 })]);
      expect(a.text).not.toContain("hunter2");
    }
    const v = await send("/v1/validate", body);
    expect(v.status).toBe(200);
    expect(v.json.valid).toBe(false);
    expect(v.json.diagnostics.map((d: { code: string; file?: string }) => [d.code, d.file])).toEqual([["E_PACK_CREDENTIAL", "helpdesk/pack.json"]]);
    expect(v.text).not.toContain("hunter2");
  });

  it("/v1/validate: valid with good packs; the definition's own diagnostics carry no file, next to the packs'", async () => {
    const good = await send("/v1/validate", { definition: TEAM, connections: HELPDESK });
    expect(good.json).toMatchObject({ valid: true, errors: 0 });
    const badTeam = TEAM.replace('"slug": "helpdesk-triage"', '"slug": "Not A Slug"');
    const both = await send("/v1/validate", { definition: badTeam, connections: [HELPDESK[0]] });
    expect(both.json.valid).toBe(false);
    const seen = both.json.diagnostics.map((d: { code: string; file?: string; line: number }) => [d.code, d.file ?? null]);
    expect(seen).toEqual([
      ["E_PATTERN", null],
      ["E_PACK_OPENAPI", "helpdesk/pack.json"],
    ]);
  });

  it("a missing OpenAPI document, a ref out of the upload, an unused file: each said with its file", async () => {
    const missing = await send("/v1/exports?target=crewai", { definition: TEAM, connections: [HELPDESK[0]] });
    expect(missing.status).toBe(422);
    expect(missing.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_OPENAPI", file: "helpdesk/pack.json", pointer: "/provider/reach/openapi/ref", message: expect.stringContaining("not among the uploaded files") })]);
    const escaping = HELPDESK[0]!.content.replace("./openapi.json", "../../openapi.json");
    const out = await send("/v1/exports?target=crewai", { definition: TEAM, connections: [{ path: "helpdesk/pack.json", content: escaping }, HELPDESK[1]] });
    expect(out.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_OPENAPI", message: expect.stringContaining("climbs out of the uploaded files") })]);
    const unused = await send("/v1/exports?target=crewai", { definition: TEAM, connections: [...HELPDESK, { path: "notes/my-pack.json", content: "{}" }] });
    expect(unused.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_UNUSED", file: "notes/my-pack.json" })]);
  });

  it("an apiHosts entry that is a public suffix is 422; an OpenAPI server outside the apiHosts exports, with a warning naming the document", async () => {
    const suffix = HELPDESK[0]!.content.replace('"apiHosts": ["helpdesk.example.com"]', '"apiHosts": ["helpdesk.example.com", "co.uk"]');
    const refused = await send("/v1/exports?target=crewai", { definition: TEAM, connections: [{ path: "helpdesk/pack.json", content: suffix }, HELPDESK[1]] });
    expect(refused.status).toBe(422);
    expect(refused.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_API_HOST_SUFFIX", file: "helpdesk/pack.json", pointer: "/provider/apiHosts/1", message: expect.stringContaining("is a public suffix") })]);
    const elsewhere = HELPDESK[1]!.content.replace("https://api.helpdesk.example.com/v2", "https://api.helpdesk.example.org/v2");
    const body = { definition: TEAM, connections: [HELPDESK[0], { path: "helpdesk/openapi.json", content: elsewhere }] };
    const warned = { code: "W_PACK_SERVER_OUTSIDE_API_HOSTS", severity: "warning", file: "helpdesk/openapi.json", pointer: "/servers/0/url", line: 4, column: 24 };
    const a = await send("/v1/exports?target=crewai", body, { accept: "application/json" });
    expect(a.status, a.text).toBe(200);
    expect(a.json.diagnostics).toEqual([expect.objectContaining(warned)]);
    const v = await send("/v1/validate", body);
    expect(v.json).toMatchObject({ valid: true, errors: 0, warnings: 1 });
    expect(v.json.diagnostics).toEqual([expect.objectContaining(warned)]);
  });

  it("two packs for one provider are refused: the later in path order", async () => {
    const a = await send("/v1/exports?target=crewai", { definition: TEAM, connections: [...HELPDESK, { path: "again/pack.json", content: HELPDESK[0]!.content }, { path: "again/openapi.json", content: HELPDESK[1]!.content }] });
    expect(a.status).toBe(422);
    expect(a.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PACK_DUPLICATE_PROVIDER", file: "helpdesk/pack.json", pointer: "/provider/id", message: expect.stringContaining("already defined by again/pack.json") })]);
  });

  it("a GitHub export with packs: the repository holds the export with the packs' tools", async () => {
    const a = await send("/v1/exports/github?target=crewai&repository=me/helpdesk-triage", { definition: TEAM, connections: ALL }, { authorization: `Bearer ${TOKEN}` });
    expect(a.status, a.text).toBe(201);
    const read = readConnections([FIXTURES]);
    expect(read.diagnostics).toEqual([]);
    const files = exportDefinition(TEAM, TARGETS.crewai!, { connections: { read: read.read, explicit: [] } }).files!;
    expect(files.text("tests/test_team.py")).toContain("def test_a_pack_tool_sends_its_credential_to_its_api_hosts_only(");
    expectRepositoryEquals(gh, "me", "helpdesk-triage", files);
    expectCleanContract(gh);
  });

  it("a GitHub export with a refused pack is 422 before GitHub is asked", async () => {
    const before = gh.requests.length;
    const a = await send("/v1/exports/github?target=crewai&repository=me/helpdesk-refused", { definition: TEAM, connections: [HELPDESK[0]] }, { authorization: `Bearer ${TOKEN}` });
    expect(a.status).toBe(422);
    expect(a.json.type).toBe("urn:envelope-export:problem:invalid-connections");
    expect(gh.requests.length).toBe(before);
  });

  it("the cache tells requests apart by their packs", async () => {
    const body = { definition: TEAM.replace("Reads a new", "Cache: reads a new"), connections: HELPDESK };
    const first = await send("/v1/exports?target=crewai", body);
    const again = await send("/v1/exports?target=crewai", body);
    expect(again.headers.get("envelope-cache")).toBe("hit");
    expect(Buffer.compare(first.bytes, again.bytes)).toBe(0);
    const other = await send("/v1/exports?target=crewai", { ...body, connections: ALL });
    expect(other.headers.get("envelope-cache")).toBe("miss");
  });
});

describe("the request's shape and limits", () => {
  it("a body that is not the request's shape is 400, saying what is wrong", async () => {
    const cases: Array<[unknown, RegExp]> = [
      ["{", /not UTF-8 JSON/],
      [[], /is a JSON object/],
      [{ connections: HELPDESK }, /definition: .* required/],
      [{ definition: TEAM, packs: [] }, /unknown field "packs"/],
      [{ definition: TEAM, connections: {} }, /connections: an array/],
      [{ definition: TEAM, connections: [{ path: "/etc/pack.json", content: "{}" }] }, /connections\/0\/path .* not a relative path/],
      [{ definition: TEAM, connections: [{ path: "a/../pack.json", content: "{}" }] }, /not a relative path/],
      [{ definition: TEAM, connections: [{ path: "a\\pack.json", content: "{}" }] }, /backslash/],
      [{ definition: TEAM, connections: [HELPDESK[0], HELPDESK[0]] }, /given twice/],
      [{ definition: TEAM, connections: [{ path: "pack.json", content: 1 }] }, /content: .* required/],
      [{ definition: TEAM, connections: [{ path: "pack.json", content: "{}", mode: 1 }] }, /unknown field "mode"/],
      [{ definition: TEAM, connections: HELPDESK, connection: ["triager"] }, /AGENT_KEY=PROVIDER_ID/],
      [{ definition: TEAM, connection: ["triager=helpdesk"] }, /goes with connections/],
      [{ definition: TEAM, connections: Array.from({ length: MAX_CONNECTION_FILES + 1 }, (_, i) => ({ path: `p${i}/pack.json`, content: "{}" })) }, /at most 32/],
    ];
    for (const [body, detail] of cases) {
      const a = await post(s, "/v1/exports?target=crewai", typeof body === "string" ? body : JSON.stringify(body), { "content-type": REQUEST_TYPE });
      expect(a.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(a.json.detail).toMatch(detail);
    }
  });

  it("a definition over 1 MiB inside the request is 413; so is a request over 8 MiB; 1.5 MiB of packs is read", async () => {
    const big = await send("/v1/validate", { definition: " ".repeat(BODY_LIMIT + 1) });
    expect(big.status).toBe(413);
    expect(big.json.type).toBe("urn:envelope-export:problem:payload-too-large");
    const huge = await post(s, "/v1/validate", Buffer.alloc(REQUEST_LIMIT + 1, 0x20), { "content-type": REQUEST_TYPE });
    expect(huge.status).toBe(413);
    expect(huge.json.detail).toMatch(/8 MiB/);
    // Over the 1 MiB of a bare definition, within a request's limit: the reader's own limit (1 MiB a pack) answers.
    const padded = await send("/v1/validate", { definition: TEAM, connections: [...HELPDESK, { path: "big/pack.json", content: `${" ".repeat(1.5 * 1024 * 1024)}{}` }] });
    expect(padded.status).toBe(200);
    expect(padded.json.diagnostics).toEqual([expect.objectContaining({ code: "E_FILE_TOO_LARGE", file: "big/pack.json" })]);
  });

  it("a plain application/json definition is answered as before (no packs)", async () => {
    const a = await post(s, "/v1/validate", EXAMPLE);
    expect(a.json.valid).toBe(true);
  });
});

describe("contract", () => {
  it("no answer in this file broke openapi.json", async () => {
    expect((await contractOf(s)).violations).toEqual([]);
  });
});
