// Access policies on the real path (issue 13 §1): an agent's http_request tool, driven by
// the scripted model, sends what its policy allows and refuses the rest. Outbound traffic
// goes to a recording proxy of ours on 127.0.0.1 (HTTPS_PROXY / HTTP_PROXY) that answers
// itself and never forwards anything; model calls bypass it (NO_PROXY).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Exchange, exportedProject, proxyEnv, recordingProxy, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { startModelServer, textOf } from "./model-server.js";

// chargeback-responder: evidence-collector may GET api.stripe.com/v1/…, nothing else (defaultAction deny).
const FIXTURE = join(ROOT, "test/fixtures/valid/chargeback-responder.envelope.json");
const ALLOWED = "https://api.stripe.com/v1/disputes/dp_realpath";
const REFUSED = "https://exfil.example.com/collect";

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
});
