// Connection packs on the real path (issue 20): the team exported with --connections runs the
// way its README says, on its framework, against the scripted model server. The model calls a
// pack tool; the request reaches a local HTTP server of ours (as HTTP_PROXY: the pack's
// "real" hostname never resolves) with the pack's credential header. A second pack, given
// with --connection, points at a host the access policy allows but outside its own apiHosts:
// its call is refused, its credential never sent, and the reason reaches the model. A third
// pack has an MCP server (https, as the pack schema requires): the proxy tunnels its CONNECT
// to a TLS server of ours (mcp-server.ts) that the client trusts through SSL_CERT_FILE; the
// framework's MCP client lists its tools and calls one, with the pack's bearer token.
// Issue 34: importing the team (`--help`, `langgraph dev`) contacts no MCP server and needs no
// credential: a proxy that only records connections proves it; the runner and the server's
// prepare then list every missing variable before any model request.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConnections } from "../../src/connections/connections.js";
import { exportDefinition } from "../../src/export/export.js";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { TARGETS } from "../../src/targets/index.js";
import { ROOT } from "../helpers/cli.js";
import { checkTrace } from "../helpers/conversation-events.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, proxyEnv, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";
import { type ChatRequest, startModelServer, textOf } from "./model-server.js";
import { handleMcp, type McpTool, tlsSite } from "./mcp-server.js";

const FIXTURES = join(ROOT, "test/fixtures/connections");
const TEAM = join(FIXTURES, "helpdesk-triage.envelope.json");
const KEY = "hd-key-realpath-5b1e";
const MIRROR_TOKEN = "mirror-token-realpath-9c2d";
const DOCS_TOKEN = "docs-token-realpath-3f7a";
const PACK_TOOLS = ["docs_search_search", "helpdesk_get_ticket", "mirror_get_ticket"];
const DOCS_TOOLS: McpTool[] = [
  {
    name: "search",
    description: "Search the product docs.",
    inputSchema: { type: "object", properties: { query: { type: "string", description: "What to look for." } }, required: ["query"] },
    // The token echoed back: the tool's answer must not show it.
    call: (args, headers) => `3 pages about ${String(args.query)} (asked with ${headers.authorization ?? "nothing"})`,
  },
];

/** The fixture's packs, their OpenAPI documents on plain http (so the proxy sees the request), and a pack whose apiHosts miss its server. */
function packsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "envelope-realpath-packs-"));
  cpSync(join(FIXTURES, "helpdesk"), join(dir, "helpdesk"), { recursive: true });
  cpSync(join(FIXTURES, "docs-search"), join(dir, "docs-search"), { recursive: true });
  const openapi = JSON.parse(readFileSync(join(dir, "helpdesk/openapi.json"), "utf8"));
  openapi.servers = [{ url: "http://api.helpdesk.example.com/v2" }];
  writeFileSync(join(dir, "helpdesk/openapi.json"), JSON.stringify(openapi, null, 2));
  cpSync(join(dir, "helpdesk"), join(dir, "mirror"), { recursive: true });
  const mirror = JSON.parse(readFileSync(join(dir, "mirror/pack.json"), "utf8"));
  mirror.name = "community.envelope.mirror";
  mirror.provider = { ...mirror.provider, id: "mirror", displayName: "Ticket Mirror", auth: { kind: "bearer" }, apiHosts: ["mirror.example.net"] };
  writeFileSync(join(dir, "mirror/pack.json"), JSON.stringify(mirror, null, 2));
  return dir;
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body?: string;
}

/** The proxy: the helpdesk API on plain http, and a CONNECT tunnel to the docs MCP server (https) only. */
async function helpdeskServer(): Promise<{ url: string; seen: Seen[]; mcp: Seen[]; caFile: string; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const mcp: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "application/json" });
    // The key echoed back: the tool's answer must not show it.
    res.end(JSON.stringify({ id: 42, status: "open", subject: "refund please", echo: req.headers["x-helpdesk-key"] ?? null }));
  });
  const site = await tlsSite("mcp.docs.example.com", (req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      mcp.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url !== "/mcp") return void res.writeHead(404).end();
      handleMcp(req, body, res, DOCS_TOOLS);
    });
  });
  server.on("connect", site.connect);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await site.close();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, mcp, caFile: site.caFile, close };
}

/** A proxy that reaches nothing: it records each connection and closes it (the MCP server is unreachable). */
async function deadEnd(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, close };
}

/** The team exported with the helpdesk (OpenAPI) and docs-search (MCP) packs: its folder and console script. */
async function mcpExport(target: string, label: string): Promise<{ dir: string; pkg: string; readme: string }> {
  const read = readConnections([join(FIXTURES, "helpdesk"), join(FIXTURES, "docs-search")]);
  expect(read.diagnostics).toEqual([]);
  const result = exportDefinition(readFileSync(TEAM), TARGETS[target]!, { file: TEAM, connections: { read: read.read, explicit: [] } });
  expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true);
  const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-connections-${label}-${target}-`)), "helpdesk-triage");
  await writeDirectory(result.files!, dir);
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  const pkg = /^uv run (\S+)/m.exec(readme)![1]!;
  expect(readFileSync(join(dir, "src", pkg, "team.py"), "utf8")).toContain('"docs-search": McpServer(');
  return { dir, pkg, readme };
}

/** Each pack tool once (while the agent has it), then the harness's usual script without the pack tools. */
function reply(request: ChatRequest, n: number) {
  const called = new Set(request.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name)));
  const next = PACK_TOOLS.find((name) => request.tools?.some((t) => t.function.name === name) && !called.has(name));
  if (next === "helpdesk_get_ticket") return { toolCalls: [{ name: next, arguments: { ticket_id: 42, include: "comments" } }] };
  if (next === "mirror_get_ticket") return { toolCalls: [{ name: next, arguments: { ticket_id: 42 } }] };
  if (next === "docs_search_search") return { toolCalls: [{ name: next, arguments: { query: "refunds" } }] };
  // Every pack tool (the OpenAPI packs' operations, the MCP server's tools) is the agent's own, never its answer tool.
  const tools = request.tools?.filter((t) => !/^(helpdesk|mirror|docs_search)_/.test(t.function.name));
  return scriptedReply({ ...request, ...(tools ? { tools } : {}) }, n, 1);
}

const gate = e2eGate();

describe.runIf(gate.run).each(["crewai", "langgraph"])("connection packs on the real path: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("a pack tool's request (OpenAPI or MCP) carries its credential to its apiHosts; outside them it is refused and the model is told", async () => {
    const read = readConnections([packsDir()]);
    // The mirror's server is outside its apiHosts on purpose (its calls are to be refused): the export says so ahead.
    expect(read.diagnostics).toEqual([
      expect.objectContaining({ code: "W_PACK_SERVER_OUTSIDE_API_HOSTS", severity: "warning", file: expect.stringMatching(/mirror\/openapi\.json$/), message: expect.stringContaining("is not under the pack's apiHosts (mirror.example.net)") }),
    ]);
    const result = exportDefinition(readFileSync(TEAM), TARGETS[target]!, { file: TEAM, connections: { read: read.read, explicit: [{ agent: "triager", provider: "mirror" }] } });
    expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true);
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-connections-${target}-`)), "helpdesk-triage");
    await writeDirectory(result.files!, dir);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    const pkg = /^uv run (\S+)/m.exec(readme)![1]!;
    expect(readFileSync(join(dir, ".env.example"), "utf8")).toMatch(/^MIRROR_TOKEN=$/m);
    expect(readFileSync(join(dir, ".env.example"), "utf8")).toMatch(/^DOCS_SEARCH_TOKEN=$/m);

    const helpdesk = await helpdeskServer();
    closers.push(helpdesk.close);
    let n = 0;
    const model = await startModelServer((request) => reply(request, ++n));
    closers.push(() => model.close());
    const def = JSON.parse(readFileSync(TEAM, "utf8")) as Definition;
    const { env: values, inputs } = runValues(def);
    const traceFile = join(dir, "realpath-trace.jsonl");
    const run = await runTeam(env, dir, pkg, [...runArgs(dir, readme, inputs), "--trace", traceFile], {
      ...values,
      HELPDESK_API_KEY: KEY,
      MIRROR_TOKEN,
      DOCS_SEARCH_TOKEN: DOCS_TOKEN,
      SSL_CERT_FILE: helpdesk.caFile,
      MODEL_OVERRIDE: "openai:realpath-model",
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "dummy",
      ...proxyEnv(helpdesk.url),
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

    // The allowed call reached the server, with the key in the pack's header, and only it.
    expect(helpdesk.seen.map((s) => [s.method, s.url])).toEqual([["GET", "http://api.helpdesk.example.com/v2/tickets/42?include=comments"]]);
    expect(helpdesk.seen[0]!.headers["x-helpdesk-key"]).toBe(KEY);
    expect(helpdesk.seen.some((s) => JSON.stringify(s.headers).includes(MIRROR_TOKEN))).toBe(false);

    // The MCP server: listed and called through the framework's client, every request with the bearer token.
    const methods = helpdesk.mcp.filter((s) => s.method === "POST").map((s) => (JSON.parse(s.body!) as { method: string }).method);
    expect(methods).toContain("tools/list");
    expect(methods.filter((m) => m === "tools/call")).toHaveLength(1);
    expect(helpdesk.mcp.every((s) => s.headers.authorization === `Bearer ${DOCS_TOKEN}`)).toBe(true);
    expect(JSON.stringify(helpdesk.seen)).not.toContain(DOCS_TOKEN);

    const results = model.chats().flatMap((c) => c.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content)));
    const all = results.join("\n---\n");
    expect(results.some((t) => t.startsWith("HTTP 200") && t.includes("refund please")), all).toBe(true);
    expect(results.some((t) => t.includes("3 pages about refunds (asked with Bearer [redacted])")), all).toBe(true);
    expect(results.some((t) => t.startsWith("REFUSED by connection pack mirror: api.helpdesk.example.com is not under its apiHosts (mirror.example.net)")), all).toBe(true);
    // The credential never reaches the model, not even echoed back by the server.
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(MIRROR_TOKEN);
    expect(all).not.toContain(DOCS_TOKEN);
    // The run's trace: every line a valid OpenWOP conversation event, no credential in it.
    const traced = readFileSync(traceFile, "utf8");
    const trace = checkTrace(traced);
    expect(trace.problems).toEqual([]);
    expect(trace.events.length).toBeGreaterThan(0);
    for (const secret of [KEY, MIRROR_TOKEN, DOCS_TOKEN]) expect(traced).not.toContain(secret);
  }, 300_000);

  it("the runner refuses to start without the pack's credential", async () => {
    const read = readConnections([join(FIXTURES, "helpdesk")]);
    const result = exportDefinition(readFileSync(TEAM), TARGETS[target]!, { file: TEAM, connections: { read: read.read, explicit: [] } });
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-connections-env-${target}-`)), "helpdesk-triage");
    await writeDirectory(result.files!, dir);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    const pkg = /^uv run (\S+)/m.exec(readme)![1]!;
    const { env: values, inputs } = runValues(JSON.parse(readFileSync(TEAM, "utf8")) as Definition);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), { ...values, OPENAI_API_KEY: "dummy" });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(run.stderr).toContain("HELPDESK_API_KEY");
  }, 300_000);

  it("with an MCP pack: --help contacts no server, with the credential or without; a run without it exits 2 listing every missing variable before any model request", async () => {
    const { dir, pkg, readme } = await mcpExport(target, "import");
    const proxy = await deadEnd();
    closers.push(proxy.close);
    const model = await startModelServer((request) => scriptedReply(request, 1, 1));
    closers.push(() => model.close());
    const { env: values, inputs } = runValues(JSON.parse(readFileSync(TEAM, "utf8")) as Definition);
    const base = { ...values, ...proxyEnv(proxy.url), MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: model.baseUrl };
    for (const credentials of [{}, { HELPDESK_API_KEY: KEY, DOCS_SEARCH_TOKEN: DOCS_TOKEN }] as Array<Record<string, string>>) {
      const help = await runTeam(env, dir, pkg, ["--help"], { ...base, ...credentials });
      expect(help.code, `${help.stdout}\n${help.stderr}`).toBe(0);
      expect(help.stdout).toContain("usage:");
    }
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), base);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    for (const name of ["HELPDESK_API_KEY", "DOCS_SEARCH_TOKEN", "OPENAI_API_KEY"]) expect(run.stderr).toContain(`  - ${name}\n`);
    expect(run.stderr).not.toContain("Traceback");
    expect(proxy.connections()).toBe(0);
    expect(model.chats()).toHaveLength(0);
  }, 300_000);
});

describe.runIf(gate.run)("an MCP connection pack through langgraph dev (issue 34)", () => {
  let env: PythonEnv;
  let dev: DevServer | undefined;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv("langgraph", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    dev?.stop();
    for (const close of closers) await close();
  });

  it("the server imports the graph without a network call or the credential; a run without it fails in prepare, naming it, before any model request", async () => {
    const { dir, pkg } = await mcpExport("langgraph", "dev");
    const proxy = await deadEnd();
    closers.push(proxy.close);
    const model = await startModelServer((request) => scriptedReply(request, 1, 1));
    closers.push(() => model.close());
    const { env: values, inputs } = runValues(JSON.parse(readFileSync(TEAM, "utf8")) as Definition);
    dev = await startLanggraphDev(env, dir, { ...values, ...proxyEnv(proxy.url), MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "dummy" });
    const { url } = dev;
    // The graph's schemas: the server has imported and built it.
    const assistants = (await (await fetch(`${url}/assistants/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ graph_id: pkg }) })).json()) as Array<{ assistant_id: string }>;
    expect(assistants.length, dev.log().slice(-4000)).toBeGreaterThan(0);
    const schemas = await fetch(`${url}/assistants/${assistants[0]!.assistant_id}/schemas`);
    expect(schemas.status, dev.log().slice(-4000)).toBe(200);
    expect(((await schemas.json()) as { input_schema: unknown }).input_schema).not.toBeNull();
    expect(dev.log()).not.toContain("Traceback");
    expect(proxy.connections()).toBe(0);

    const waited = await fetch(`${url}/runs/wait`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ assistant_id: pkg, input: inputs }) });
    const body = (await waited.json()) as { __error__?: { error: string; message: string } };
    expect(body.__error__?.error, JSON.stringify(body)).toBe("MissingEnvError");
    for (const name of ["HELPDESK_API_KEY", "DOCS_SEARCH_TOKEN"]) expect(body.__error__!.message).toContain(name);
    expect(model.chats()).toHaveLength(0);
    expect(proxy.connections()).toBe(0);
  }, 600_000);
});
