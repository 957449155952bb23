// Issue 19: an event team's run started on the LangGraph server instead of `serve-webhook`,
// the way its README says ("An event run through the LangGraph server"): `langgraph dev` in
// the exported project, the payload POSTed as the run's input to `/threads/<uuid>/runs`
// (`if_not_exists: "create"`) with a `webhook`, the server's POST of the ended run received
// here; a stateless `/runs` (its webhook carries no values) and `/runs/wait`. A payload
// without a required input fails the run in `prepare`, saying which, before any model call.
// Checked from the outside: the HTTP answers, the webhook's body, the scripted model
// server's requests. The server's process group is killed at the end.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, expectedPrompt, scriptedReply, serverRun, systemText } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";
import { type ModelServer, startModelServer } from "./model-server.js";

const EVENT = join(ROOT, "test/fixtures/valid/chargeback-responder.envelope.json");
const gate = e2eGate();

interface EndedRun {
  run_id: string;
  status: string;
  values: { inputs?: Record<string, unknown>; status?: string; result?: unknown } | null;
  error?: { error: string; message: string };
}

/** Where the server POSTs each ended run (the run's `webhook`): the bodies, by run id. */
async function webhookReceiver(): Promise<{ url: string; ended: Map<string, EndedRun>; server: Server }> {
  const ended = new Map<string, EndedRun>();
  const server = createHttpServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => {
      const run = JSON.parse(Buffer.concat(parts).toString("utf8")) as EndedRun;
      ended.set(run.run_id, run);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/run-ended`, ended, server };
}

describe.runIf(gate.run)("an event team's run on the LangGraph server (langgraph dev)", () => {
  let env: PythonEnv;
  let models: ModelServer;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  let dev: DevServer | undefined;
  let url = "";
  let def: Definition;
  let pkg = "";
  let readme = "";
  let values: Record<string, string> = {};
  let inputs: Record<string, unknown> = {};

  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-agent-server-")), "chargeback-responder");
    ({ def, pkg, readme } = await exportedProject(EVENT, "langgraph", dir));
    // The README's setting for a webhook on this machine (the server refuses loopback ones).
    const config = JSON.parse(readFileSync(join(dir, "langgraph.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, "langgraph.json"), JSON.stringify({ ...config, webhooks: { url: { disable_loopback: false, require_https: false } } }, null, 2));
    let n = 0;
    models = await startModelServer((request) => scriptedReply(request, ++n, 2));
    hooks = await webhookReceiver();
    ({ env: values, inputs } = serverRun(def, models.baseUrl));
    dev = await startLanggraphDev(env, dir, values);
    url = dev.url;
  }, 1_800_000);

  afterAll(async () => {
    dev?.stop();
    await models?.close();
    hooks?.server.close();
  });

  const post = async (path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const r = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };

  const endOf = async (runId: string): Promise<EndedRun> => {
    for (let i = 0; i < 480 && !hooks.ended.has(runId); i++) await new Promise((r) => setTimeout(r, 250));
    expect(hooks.ended.has(runId), `no webhook for run ${runId}\n${dev!.log().slice(-4000)}`).toBe(true);
    return hooks.ended.get(runId)!;
  };

  it("the README documents the request this test sends", () => {
    const part = readme.slice(readme.indexOf("### An event run through the LangGraph server"));
    expect(part).toContain(`POST /threads/THREAD_ID/runs`);
    expect(part).toContain(`{"assistant_id": "${pkg}", "input": PAYLOAD, "if_not_exists": "create", "webhook": `);
    expect(part.replace(/\s+/g, " ")).toContain(`"webhooks": {"url": {"disable_loopback": false, "require_https": false}}`);
  });

  it("POST /threads/<uuid>/runs with the payload as input: the run uses it as its inputs, and its end is POSTed to the webhook", async () => {
    const before = models.chats().length;
    // A key that names no input is dropped by the server (as serve-webhook ignores it).
    const payload = { ...inputs, livemode: false };
    const accepted = await post(`/threads/${randomUUID()}/runs`, { assistant_id: pkg, input: payload, if_not_exists: "create", webhook: hooks.url });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    expect(accepted.json.status).toBe("pending");
    const run = await endOf(accepted.json.run_id as string);
    expect(run.status, JSON.stringify(run)).toBe("success");
    expect(run.values?.inputs).toEqual(inputs);
    expect(run.values?.status).toBe("done");
    // The payload's inputs reached the models: the entry agent's prompt, filled with them.
    const chats = models.chats().slice(before);
    expect(chats.length).toBeGreaterThan(0);
    const entry = def.agents[0]!;
    const rendered = expectedPrompt(entry.prompt ?? "", def, values, inputs);
    expect(chats.some((r) => systemText(r) === rendered), `no request with ${entry.key}'s prompt filled with the payload`).toBe(true);
    expect(JSON.stringify(chats)).not.toContain("livemode");

    // Stateless: the same run, but its thread is gone when the webhook is sent (README).
    const stateless = await post("/runs", { assistant_id: pkg, input: payload, webhook: hooks.url });
    const ended = await endOf(stateless.json.run_id as string);
    expect(ended.status, JSON.stringify(ended)).toBe("success");
    expect(ended.values).toBeNull();
  }, 300_000);

  it("a payload without a required input, or with a value of another type: LangGraph refuses it before prepare, naming it, before any model call", async () => {
    const before = models.requests.length;
    const [missing] = Object.keys(inputs);
    const payload = Object.fromEntries(Object.entries(inputs).filter(([key]) => key !== missing));

    const accepted = await post(`/threads/${randomUUID()}/runs`, { assistant_id: pkg, input: payload, if_not_exists: "create", webhook: hooks.url });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    const run = await endOf(accepted.json.run_id as string);
    expect(run.status, JSON.stringify(run)).toBe("error");
    // LangGraph validates the input against state.TeamInputs (pydantic) as prepare's input:
    // the error names the input and why, one line each.
    const refused = (found: unknown, why: string) => {
      const error = found as { error: string; message: string };
      expect(error.error).toBe("ValidationError");
      expect(error.message.split("\n").slice(0, 3).join("\n")).toMatch(new RegExp(`^1 validation error for TeamInputs\n${missing}\n  ${why}`));
    };
    refused(run.error, "Field required");

    const waited = await post("/runs/wait", { assistant_id: pkg, input: payload });
    expect(waited.status).toBe(200);
    refused(waited.json.__error__, "Field required");
    // A value of the wrong type: the same (the server passes the input on as given).
    const typed = await post("/runs/wait", { assistant_id: pkg, input: { ...inputs, [missing!]: 7 } });
    refused(typed.json.__error__, "Input should be a valid string");
    expect(models.requests.length).toBe(before);
  }, 300_000);
});
