// Access policies on the real path (issue 13 §1): an agent's http_request tool, driven by
// the scripted model, sends what its policy allows and refuses the rest. Outbound traffic
// goes to a recording proxy of ours on 127.0.0.1 (HTTPS_PROXY / HTTP_PROXY) that answers
// itself and never forwards anything; model calls bypass it (NO_PROXY).
// Issue 34: the tool's `headers` are one JSON shape on both targets, name/value pairs.
import { mkdtempSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Exchange, exportedProject, proxyEnv, recordingProxy, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { type ChatRequest, type JsonSchema, startModelServer, textOf } from "./model-server.js";

// chargeback-responder: evidence-collector may GET api.stripe.com/v1/…, nothing else (defaultAction deny).
const FIXTURE = join(ROOT, "test/fixtures/valid/chargeback-responder.envelope.json");
const ALLOWED = "https://api.stripe.com/v1/disputes/dp_realpath";
const REFUSED = "https://exfil.example.com/collect";
// helpdesk-triage: triager may GET and POST http(s)://api.helpdesk.example.com/v2/tickets/….
const HELPDESK = join(ROOT, "test/fixtures/connections/helpdesk-triage.envelope.json");
const TICKET = "http://api.helpdesk.example.com/v2/tickets/42";

/** The shape the model is asked to fill in for http_request's headers ($refs resolved, descriptions left out). */
function headersShape(request: ChatRequest): unknown {
  const tool = request.tools?.find((t) => t.function.name === "http_request")?.function as { parameters?: JsonSchema } | undefined;
  const parameters = tool?.parameters ?? {};
  const defs = (parameters.$defs ?? {}) as Record<string, JsonSchema>;
  const shape = (schema: JsonSchema): unknown => {
    const ref = typeof schema.$ref === "string" ? defs[schema.$ref.replace("#/$defs/", "")] : undefined;
    if (ref) return shape(ref);
    if (schema.type === "array") return { array: shape((schema.items ?? {}) as JsonSchema) };
    if (schema.type === "object") return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([k, v]) => [k, shape(v)]));
    return schema.type;
  };
  return shape(((parameters.properties ?? {}) as Record<string, JsonSchema>).headers ?? {});
}

/** A plain-HTTP proxy that answers every request itself, recording its URL and headers. */
async function headerProxy(): Promise<{ url: string; seen: Array<{ url: string; headers: IncomingHttpHeaders }>; close: () => Promise<void> }> {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: 42, status: "open" }));
  });
  server.on("connect", (_req, socket) => socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close };
}

const gate = e2eGate();

describe.runIf(gate.run).each(["crewai", "langgraph"])("access policy on the real path: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("an allowed request is sent, a refused one never leaves", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-policy-${target}-`)), "chargeback-responder");
    const { def, readme, pkg } = await exportedProject(FIXTURE, target, dir);
    const proxy = await recordingProxy();
    closers.push(() => new Promise((r) => proxy.server.close(r)));
    const exchanges: Exchange[] = [];
    const calls = [
      { method: "GET", url: REFUSED },
      { method: "GET", url: ALLOWED },
    ];
    const server = await startModelServer((request) => {
      const n = exchanges.length + 1;
      const reply = scriptedReply(request, n, 2, calls);
      exchanges.push({ n, request, reply });
      return reply;
    });
    closers.push(() => server.close());
    const { env: values, inputs } = runValues(def);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
      ...values,
      MODEL_OVERRIDE: "openai:realpath-model",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "dummy",
      ...proxyEnv(proxy.url),
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const toolResults = exchanges.flatMap((e) => e.request.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content)));
    expect(toolResults.some((t) => t.startsWith("REFUSED by access policy")), toolResults.join("\n---\n")).toBe(true);
    expect(proxy.hosts).toContain("api.stripe.com:443");
    expect(proxy.hosts.filter((h) => h.includes("exfil.example.com"))).toEqual([]);
  }, 300_000);

  it("headers are name/value pairs, the same JSON on both targets; a map the model sends anyway is read as pairs; a Host header is refused", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-headers-${target}-`)), "helpdesk-triage");
    const { def, readme, pkg } = await exportedProject(HELPDESK, target, dir);
    const proxy = await headerProxy();
    closers.push(proxy.close);
    const offered: unknown[] = [];
    let n = 0;
    const server = await startModelServer((request) => {
      n++;
      const made = request.messages.flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name === "http_request")).length;
      if (request.tools?.some((t) => t.function.name === "http_request")) {
        offered.push(headersShape(request));
        // The documented shape first, then a map (what a model may send despite the schema).
        if (made === 0) return { toolCalls: [{ name: "http_request", arguments: { method: "GET", url: TICKET, headers: [{ name: "Accept", value: "application/json" }, { name: "X-Probe", value: "pairs-5d1" }] } }] };
        if (made === 1) return { toolCalls: [{ name: "http_request", arguments: { method: "GET", url: TICKET, headers: { "X-Probe": "map-8c2" } } }] };
        // A Host header would send the allowed URL's request to another virtual host: refused.
        if (made === 2) return { toolCalls: [{ name: "http_request", arguments: { method: "GET", url: TICKET, headers: [{ name: "hOST", value: "internal.example" }] } }] };
      }
      const tools = request.tools?.filter((t) => t.function.name !== "http_request");
      return scriptedReply({ ...request, ...(tools ? { tools } : {}) }, n, 1);
    });
    closers.push(() => server.close());
    const { env: values, inputs } = runValues(def);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
      ...values,
      MODEL_OVERRIDE: "openai:realpath-model",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "dummy",
      ...proxyEnv(proxy.url),
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(offered.length).toBeGreaterThan(0);
    for (const shape of offered) expect(shape).toEqual({ array: { name: "string", value: "string" } });
    expect(proxy.seen.map((s) => s.url)).toEqual([TICKET, TICKET]);
    expect(proxy.seen[0]!.headers).toMatchObject({ accept: "application/json", "x-probe": "pairs-5d1" });
    expect(proxy.seen[1]!.headers["x-probe"]).toBe("map-8c2");
    const results = server.chats().flatMap((c) => c.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content)));
    expect(results.filter((t) => t.startsWith("HTTP 200")).length, results.join("\n---\n")).toBeGreaterThanOrEqual(2);
    expect(results.some((t) => t.startsWith("REFUSED by access policy") && t.includes("the hOST header is set by the HTTP client")), results.join("\n---\n")).toBe(true);
  }, 300_000);
});
