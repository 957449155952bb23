// `langgraphjs dev` (@langchain/langgraph-cli) serving two langgraph-js exports from one
// langgraph.json on 127.0.0.1 — a gated pipeline (parallel-gates) and a three-level hierarchy
// (enterprise-support-desk) — driven with @langchain/langgraph-sdk's Client through every gate
// with Command({ resume }), every model call sent to our scripted server by environment
// variables alone (MODEL_OVERRIDE, OPENAI_BASE_URL: the real @langchain/openai client). Each
// agent's system prompt must arrive byte for byte as the Python real path checks it, and only
// approved records pass a gate. A third export, content-studio (gated, with secrets), gives the
// server its http.app (src/server.ts): a resume whose feedback holds a secret value must reach
// no checkpoint or run the server keeps. A fourth, event-signup-desk, has workspace documents:
// its agent's write tool must reach the server's own store (the SDK's store API reads the row),
// under the store's rules, and people's `workspace --url` and `watch --url` (the runner as a
// client of the server) must edit its rows and fire its triggers there. A fifth, content-studio
// with a small timeout.runMs (its own graph), must halt a resumed run on the run deadline, the
// resume given only what the run before the gate left of it. A sixth, long-chain (26 steps in a
// row), must run to done when the server starts it without a recursion limit. The server reaches the scripted
// model through a front of this file's that passes every request on, except one a test holds.
// The projects use the shared install of their lock (test/e2e/langgraph-js-env.ts); the
// server's process group is killed at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { exportFile } from "../helpers/export.js";
import { freePort } from "../helpers/free-port.js";
import { e2eGate } from "../e2e/python-env.js";
import { sharedModules, writeExport } from "../e2e/langgraph-js-env.js";
import { type Definition, type Exchange, expectedPrompt, marker, ROOMY_RUN_MS, runValues, scriptedReply, systemText, userText } from "./harness.js";
import { type ChatRequest, instanceOf, type JsonSchema, type ModelServer, type Reply, startModelServer, textOf } from "./model-server.js";

const DRIVER = join(ROOT, "test/realpath/langgraph_js_driver.mjs");
const MODEL = "realpath-model";
/** content-studio with timeout.runMs RUN_MS (a copy, as harness.ts's roomyDefinition sets one): the run deadline's graph. */
const RUNMS = "content-studio-runms";
const RUN_MS = 30_000;
/** content-studio's agents in one chain of LONG_STEPS steps, no gates: more super-steps than LangGraph's default recursion limit (25). */
const LONG = "long-chain";
const LONG_STEPS = 26;

type Def = Definition & { gates?: Array<{ name: string }>; agents: Array<{ key: string; name: string; prompt?: string; reportsToKey?: string }> };
interface Project {
  name: string;
  def: Def;
}
interface Round {
  value: { gate: string; records: Array<{ id: string; fields: Record<string, string> }> };
  approved: string[];
  skipped: string[];
}
interface DriveReport {
  rounds: Round[][];
  refused: Array<string[] | null>;
  outputs: Array<Record<string, unknown>>;
  next: string[];
  values: Record<string, unknown>;
  drawn: string[];
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // Never spawnSync here: the model server lives in this process's event loop.
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** How envelope-runtime-js asks an agent for a structured answer: in the task's words, the JSON schema on the line after. */
const JSON_ASK = "Finish with only a JSON object matching this JSON schema:\n";

/**
 * The harness's script (tools first: ask_<report> once each, a forced tool call), and where it
 * would give a final text to a conversation asked for JSON, an instance of the asked schema
 * (its strings carrying the response's marker).
 */
function reply(request: ChatRequest, n: number): Reply {
  // event-signup-desk's screener writes the workspace once: a row it may write, and one with a column people own.
  if (request.tools?.some((t) => t.function.name === "write_attendees_rows") && !request.messages.some((m) => (m.tool_calls ?? []).length > 0)) {
    return { toolCalls: [{ name: "write_attendees_rows", arguments: { rows: [{ data: { email: "ws@example.com", status: "pending" } }, { data: { email: "no@example.com", organiser_note: "set by an agent" } }] } }] };
  }
  const scripted = scriptedReply(request, n, 3);
  if (!("text" in scripted)) return scripted;
  const asked = request.messages.filter((m) => m.role === "user").map((m) => textOf(m.content)).find((t) => t.includes(JSON_ASK));
  if (asked === undefined) return scripted;
  const schema = JSON.parse(asked.slice(asked.indexOf(JSON_ASK) + JSON_ASK.length).split("\n")[0]!) as JsonSchema;
  return { json: instanceOf(schema, marker(n), schema, "", 3) };
}

/**
 * What the front does with a request it is asked to hold: `true` passes it on to the model
 * server once settled, `false` answers 503 itself (a held call the test lets go of).
 */
type Hold = (request: ChatRequest) => Promise<boolean> | undefined;
interface Held {
  request: ChatRequest;
  /** How it ended: passed on, refused, or closed by the client while held (never answered). */
  gone: Promise<"passed" | "refused" | "abandoned">;
}

/**
 * An OpenAI-compatible front for the model server at `upstream` (its origin): every request
 * passed on as it came (streamed answers too), except those `hold()` holds back, which wait
 * for the promise it gives (the model server cannot hold an answer on a promise, only delay it).
 */
async function startFront(upstream: string, hold: () => Hold | undefined): Promise<{ baseUrl: string; held: Held[]; close(): Promise<void> }> {
  const held: Held[] = [];
  const front = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => {
      const raw = Buffer.concat(parts);
      let request: ChatRequest | undefined;
      try {
        request = raw.length ? (JSON.parse(raw.toString("utf8")) as ChatRequest) : undefined;
      } catch {
        request = undefined;
      }
      let closed = false;
      res.on("close", () => (closed = true));
      const pass = async (): Promise<void> => {
        const answer = await fetch(`${upstream}${req.url ?? ""}`, { method: req.method, headers: { "content-type": req.headers["content-type"] ?? "application/json" }, ...(raw.length ? { body: raw } : {}) });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        if (answer.body) for await (const piece of answer.body) res.write(piece);
        res.end();
      };
      const wait = request ? hold()?.(request) : undefined;
      if (!wait) return void pass().catch((error: unknown) => res.destroy(error as Error));
      const gone = new Promise<"passed" | "refused" | "abandoned">((resolve) => {
        res.on("close", () => {
          if (!res.writableEnded) resolve("abandoned");
        });
        void wait.then(async (passOn) => {
          if (closed) return;
          if (passOn) await pass().then(() => resolve("passed"), (error: unknown) => res.destroy(error as Error));
          else {
            res.writeHead(503, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: { message: "held by the test and let go", type: "held" } }));
            resolve("refused");
          }
        });
      });
      held.push({ request: request!, gone });
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", reject);
    front.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = front.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
  };
}

/** The milliseconds of model work a run's `work` spans add up to (the runtime's own measure of timeout.runMs). */
const workedMs = (spans: ReadonlyArray<readonly [number, number]>) => spans.reduce((sum, [from, to]) => sum + Math.max(0, to - from), 0);

const gate = e2eGate();

describe.runIf(gate.run)("langgraphjs dev + @langchain/langgraph-sdk: a gated pipeline and a hierarchy, every gate resumed", () => {
  const root = mkdtempSync(join(tmpdir(), "envelope-realpath-lgjs-dev-"));
  const projects: Project[] = [];
  const exchanges: Exchange[] = [];
  let server: ModelServer;
  let front: Awaited<ReturnType<typeof startFront>> | undefined;
  /** What the front holds back now (a test sets it, and unsets it when done). */
  let hold: Hold | undefined;
  let dev: ChildProcess | undefined;
  let url = "";
  let log = "";
  let env: NodeJS.ProcessEnv = {};
  const tail = () => log.slice(-4000);

  beforeAll(async () => {
    const modules = sharedModules();
    server = await startModelServer((request) => {
      const n = exchanges.length + 1;
      const answer = reply(request, n);
      exchanges.push({ n, request, reply: answer });
      return answer;
    });
    const values: Record<string, string> = {};
    for (const name of ["parallel-gates", "enterprise-support-desk", "content-studio", "event-signup-desk"]) {
      const path = join(ROOT, "test/fixtures/valid", `${name}.envelope.json`);
      writeExport(join(root, name), exportFile(path, "langgraph-js"));
      const def = JSON.parse(readFileSync(path, "utf8")) as Def;
      Object.assign(values, runValues(def).env);
      projects.push({ name, def });
    }
    {
      const path = join(ROOT, "test/fixtures/valid/content-studio.envelope.json");
      const def = JSON.parse(readFileSync(path, "utf8")) as Def & { slug: string; timeout?: Record<string, unknown> };
      const copy = join(root, `${RUNMS}.envelope.json`);
      writeFileSync(copy, JSON.stringify({ ...def, slug: RUNMS, timeout: { ...def.timeout, runMs: RUN_MS } }));
      writeExport(join(root, RUNMS), exportFile(copy, "langgraph-js"));
      projects.push({ name: RUNMS, def });
    }
    {
      const path = join(ROOT, "test/fixtures/valid/content-studio.envelope.json");
      const def = JSON.parse(readFileSync(path, "utf8")) as Def & { slug: string; timeout?: Record<string, unknown> };
      const pipeline = Array.from({ length: LONG_STEPS }, (_, i) => ({
        key: `link-${i + 1}`,
        agentKey: def.agents[i % def.agents.length]!.key,
        label: `Link ${i + 1} of the chain`,
        dependsOn: i === 0 ? [] : [`link-${i}`],
      }));
      const long = { ...def, slug: LONG, pipeline, gates: [], timeout: { ...def.timeout, runMs: ROOMY_RUN_MS } };
      const copy = join(root, `${LONG}.envelope.json`);
      writeFileSync(copy, JSON.stringify(long));
      writeExport(join(root, LONG), exportFile(copy, "langgraph-js"));
      projects.push({ name: LONG, def: long });
    }
    front = await startFront(new URL(server.baseUrl).origin, () => hold);
    // One langgraph.json for all, each graph by its export's own entry (./src/graph.ts:graph),
    // and content-studio's http.app as its own langgraph.json names it.
    const graphs = Object.fromEntries(projects.map((p) => [p.name, `./${p.name}/src/graph.ts:graph`]));
    const own = JSON.parse(readFileSync(join(root, "content-studio/langgraph.json"), "utf8")) as { http: { app: string } };
    const http = { app: own.http.app.replace(/^\.\//, "./content-studio/") };
    writeFileSync(join(root, "langgraph.json"), JSON.stringify({ node_version: "20", graphs, dependencies: projects.map((p) => `./${p.name}`), http }, null, 2));
    symlinkSync(modules, join(root, "node_modules"), "dir");
    copyFileSync(DRIVER, join(root, "driver.mjs"));
    const home = join(root, ".home");
    mkdirSync(home, { recursive: true });
    const port = await freePort();
    env = {
      PATH: process.env.PATH,
      HOME: home,
      LANGGRAPH_NO_VERSION_CHECK: "true",
      LANGSMITH_TRACING: "false",
      LANGCHAIN_TRACING_V2: "false",
      DO_NOT_TRACK: "1",
      ...values,
      MODEL_OVERRIDE: `openai:${MODEL}`,
      OPENAI_BASE_URL: front.baseUrl,
      OPENAI_API_KEY: "dummy",
    };
    dev = spawn(join(modules, ".bin/langgraphjs"), ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port), "--config", join(root, "langgraph.json")], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, killed whole in afterAll
    });
    dev.stdout!.on("data", (d: Buffer) => (log += d.toString()));
    dev.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    for (;;) {
      if (await fetch(`${url}/ok`).then((r) => r.ok, () => false)) break;
      if (Date.now() - started > 240_000 || dev.exitCode !== null) throw new Error(`langgraphjs dev did not start:\n${tail()}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }, 1_200_000);

  afterAll(async () => {
    if (dev?.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, "SIGKILL");
    await front?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function driver<T>(...args: string[]): Promise<T> {
    const r = await run(process.execPath, [join(root, "driver.mjs"), args[0]!, url, ...args.slice(1)], env, root);
    expect(r.code, `driver ${args[0]}: ${r.stderr}\n${tail()}`).toBe(0);
    return JSON.parse(r.stdout) as T;
  }
  const project = (name: string) => projects.find((p) => p.name === name)!;

  /** Every agent's system prompt, as the model server received it, is the definition's after {{NAME}} substitution (byte for byte). */
  function checkPrompts(p: Project, mine: Exchange[], inputs: Record<string, unknown>): void {
    const { env: values } = runValues(p.def);
    for (const agent of p.def.agents) {
      const prompt = expectedPrompt(agent.prompt ?? "", p.def, values, inputs);
      expect(mine.some((e) => systemText(e.request) === prompt), `${p.name}: ${agent.key}'s prompt byte for byte`).toBe(true);
    }
    // No request carried a prompt that is not one of the team's.
    const prompts = new Set(p.def.agents.map((a) => expectedPrompt(a.prompt ?? "", p.def, values, inputs)));
    for (const e of mine) expect(prompts.has(systemText(e.request)), `${p.name}: request ${e.n}'s system text`).toBe(true);
    expect(new Set(mine.map((e) => e.request.model)), `${p.name}: MODEL_OVERRIDE`).toEqual(new Set([MODEL]));
  }

  it("every assistant has input, output and context schemas", async () => {
    const found = await driver<Record<string, Record<string, { properties?: Record<string, unknown> } | null>>>("schemas");
    expect(Object.keys(found).sort()).toEqual(projects.map((p) => p.name).sort());
    for (const p of projects) {
      const schemas = found[p.name]!;
      for (const kind of ["input_schema", "output_schema", "context_schema"]) expect(schemas[kind], `${p.name}: ${kind}\n${tail()}`).toBeTruthy();
      expect(Object.keys(schemas.input_schema!.properties ?? {}).sort(), p.name).toEqual(Object.keys(p.def.inputs ?? {}).sort());
      expect(Object.keys(schemas.context_schema!.properties ?? {}).length, p.name).toBe(p.def.agents.length + 1);
    }
  }, 300_000);

  it("parallel-gates: a bad resume first, then every gate resumed to the end; only approved records reach the next step", async () => {
    const p = project("parallel-gates");
    const { inputs } = runValues(p.def);
    const before = exchanges.length;
    const report = await driver<DriveReport>("drive", p.name, JSON.stringify(inputs));
    const what = `${JSON.stringify(report.outputs).slice(0, 3000)}\n${tail()}`;

    // The typo asked each gate again with the problems (nothing applied).
    expect(report.refused, what).toHaveLength(p.def.gates!.length);
    for (const problems of report.refused) expect((problems ?? []).join("\n"), what).toContain("r999");
    // Every gate interrupted and was resumed; the run finished done.
    expect(report.rounds.flat().map((r) => r.value.gate).sort(), what).toEqual(p.def.gates!.map((g) => g.name).sort());
    expect(report.next, what).toEqual([]);
    expect(report.outputs.at(-1), what).toMatchObject({ status: "done", halted: null });

    const mine = exchanges.slice(before);
    checkPrompts(p, mine, inputs);
    // The step both gates trigger (onboarding-decision) saw only each gate's approved record.
    const decision = mine.filter((e) => userText(e.request).startsWith("Task: Write the onboarding decision\n"));
    expect(decision.length, "onboarding-decision's requests").toBeGreaterThan(0);
    const last = userText(decision.at(-1)!.request);
    for (const round of report.rounds.flat()) {
      for (const record of round.value.records) {
        const approved = round.approved.includes(record.id);
        for (const value of Object.values(record.fields)) expect(last.includes(value), `${round.value.gate} ${record.id} ${value}`).toBe(approved);
      }
    }
    expect(server.requests.every((r) => r.path.endsWith("/chat/completions"))).toBe(true);
  }, 600_000);

  it("enterprise-support-desk: the three-level hierarchy runs to done, every agent asked with its own prompt", async () => {
    const p = project("enterprise-support-desk");
    const { inputs } = runValues(p.def);
    const before = exchanges.length;
    const report = await driver<DriveReport>("drive", p.name, JSON.stringify(inputs));
    const what = `${JSON.stringify(report.outputs).slice(0, 3000)}\n${tail()}`;
    expect(report.next, what).toEqual([]);
    expect(report.outputs.at(-1), what).toMatchObject({ status: "done", halted: null });
    checkPrompts(p, exchanges.slice(before), inputs);
    // The secrets' values reached the prompts, never the thread's state.
    const { env: values } = runValues(p.def);
    for (const secret of p.def.requiredSecrets ?? []) expect(JSON.stringify(report.values)).not.toContain(values[secret]!);
  }, 600_000);

  /** What this test uses of @langchain/langgraph-sdk's Client (the shared install's: not a dependency here). */
  interface SdkClient {
    threads: {
      create(): Promise<{ thread_id: string }>;
      getState(id: string): Promise<{ values: Record<string, unknown>; next: string[]; tasks: Array<{ interrupts?: Array<{ id: string; value?: { gate?: string; records?: Array<{ id: string }> } }> }> }>;
    };
    runs: { wait(thread: string, assistant: string, payload: Record<string, unknown>): Promise<unknown>; get(thread: string, run: string): Promise<{ status: string; kwargs?: { config?: { configurable?: Record<string, unknown> } } }> };
    store: { searchItems(prefix: string[], options?: { limit?: number }): Promise<{ items: Array<{ key: string; value: Record<string, unknown> }> }> };
  }

  async function sdkClient(): Promise<SdkClient> {
    const sdk = (await import(pathToFileURL(createRequire(join(root, "driver.mjs")).resolve("@langchain/langgraph-sdk")).href)) as { Client: new (options: { apiUrl: string }) => SdkClient };
    return new sdk.Client({ apiUrl: url });
  }

  it("event-signup-desk: an agent's workspace write lands in the server's own store (the SDK's store API reads it), a column people own refused", async () => {
    const p = project("event-signup-desk");
    const { inputs } = runValues(p.def);
    const before = exchanges.length;
    const client = await sdkClient();
    const thread = await client.threads.create();
    const output = await client.runs.wait(thread.thread_id, p.name, { input: inputs });
    expect(output, tail()).toMatchObject({ status: "done", halted: null });
    const { items } = await client.store.searchItems(["envelope_workspace", "attendees"], { limit: 10 });
    expect(items.map((i) => [i.key, i.value.version, i.value.data]), tail()).toEqual([["ws@example.com", 1, { email: "ws@example.com", status: "pending" }]]);
    // The tool's answer the screener read: one row written, the other refused with the store's reason.
    const answers = exchanges.slice(before).flatMap((e) => e.request.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content)));
    expect(answers.join("\n")).toContain(`{"row": "no@example.com", "outcome": "refused", "message": "column 'organiser_note' is written by people only: read it, leave it as it is"}`);
  }, 600_000);

  it("event-signup-desk: people's workspace --url edits reach the server's store under the rules; watch --once --url fires a notify and starts the run trigger's run on the server", async () => {
    const p = project("event-signup-desk");
    const dir = join(root, p.name);
    const { inputs } = runValues(p.def);
    const runner = (...args: string[]) => run(join(root, "node_modules/.bin/tsx"), ["src/main.ts", ...args], { ...env, ENVELOPE_WORKSPACE_DIR: join(root, ".h9-local-store") }, dir);
    const client = await sdkClient();
    const declined = await runner("workspace", "edit", "--url", url, "attendees", "gone@example.com", "status=declined");
    expect(declined.code, declined.stderr + tail()).toBe(0);
    const approved = await runner("workspace", "edit", "--url", url, "speaker-queue", "t1", "title=Opening talk", "speaker_email=sp@example.com", "status=approved");
    expect(approved.code, approved.stderr + tail()).toBe(0);
    expect(approved.stdout).toContain("t1: written (version 1)");
    // The rules hold there too: a status the document does not declare is refused.
    const refused = await runner("workspace", "edit", "--url", url, "speaker-queue", "t1", "status=maybe");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("'maybe' is not a status of 'speaker-queue'");
    const { items } = await client.store.searchItems(["envelope_workspace", "speaker-queue"], { limit: 10 });
    expect(items.map((i) => [i.key, i.value.version, (i.value.data as Record<string, unknown>).status])).toEqual([["t1", 1, "approved"]]);
    // Nothing local was read or written.
    expect(existsSync(join(root, ".h9-local-store"))).toBe(false);

    const watched = await runner("watch", "--once", "--url", url, "--", "--inputs", JSON.stringify(inputs));
    const what = `${watched.stdout}\n${watched.stderr}\n${tail()}`;
    expect(watched.code, what).toBe(0);
    expect(watched.stdout, what).toMatch(/workspace attendees: row \*\*\* \(#\d+ listed\) has status=declined \(notify\)/);
    expect(watched.stdout, what).toContain("workspace speaker-queue: row t1 has status=approved: running the team");
    const started = /watch: run (\S+) on thread (\S+) of the Agent Server at /.exec(watched.stdout);
    expect(started, what).not.toBeNull();
    const [, runId, threadId] = started!;
    const state = await client.threads.getState(threadId!);
    expect(state.values, what).toMatchObject({ status: "done", halted: null });
    const started_ = await client.runs.get(threadId!, runId!);
    expect(started_.status).toBe("success");
    const triggered = started_.kwargs?.config?.configurable?.envelope_triggered as Array<{ document: string; row: { id: string } }>;
    expect(triggered.map((t) => [t.document, t.row.id])).toEqual([["speaker-queue", "t1"]]);
    // Fired once: the server's store keeps what fired.
    const again = await runner("watch", "--once", "--url", url);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe("");
  }, 600_000);

  /** Every string the dev server keeps under .langgraph_api/ (its checkpoints, pending writes and runs), base64 bytes decoded;
   * undefined while a file is being rewritten (it does not parse yet): read again. */
  function kept(): string | undefined {
    const dir = join(root, ".langgraph_api");
    const out: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === "string") {
        out.push(value);
        if (value.length % 4 === 0 && /^[A-Za-z0-9+/]+=*$/.test(value)) out.push(Buffer.from(value, "base64").toString("utf8"));
      } else if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) (walk(k), walk(v));
    };
    try {
      if (existsSync(dir)) for (const name of readdirSync(dir)) walk(JSON.parse(readFileSync(join(dir, name), "utf8")));
    } catch (error) {
      if (error instanceof SyntaxError) return undefined;
      throw error;
    }
    return out.join("\n");
  }

  it("content-studio: a resume whose feedback holds a secret value is stored redacted (src/server.ts, before the server's runs routes)", async () => {
    const p = project("content-studio");
    const { inputs, env: values } = runValues(p.def);
    const name = p.def.requiredSecrets![0]!;
    const secret = values[name]!;
    const sdk = (await import(pathToFileURL(createRequire(join(root, "driver.mjs")).resolve("@langchain/langgraph-sdk")).href)) as { Client: new (options: { apiUrl: string }) => SdkClient };
    const client = new sdk.Client({ apiUrl: url });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, p.name, { input: inputs });
    const waiting = (await client.threads.getState(thread.thread_id)).tasks.flatMap((t) => t.interrupts ?? []);
    expect(waiting.length, tail()).toBe(1);
    // A record no gate has: the gate applies nothing and asks again, but the server has stored the resume by then.
    const resume = { gate: waiting[0]!.value?.gate, decisions: [{ record: "r999", action: "approve", feedback: `the key is ${secret}` }] };
    await client.runs.wait(thread.thread_id, p.name, { command: { resume } });
    // The server writes its files a few seconds after a change: read them until the cleaned resume is there.
    const placeholder = `the key is {{${name}}}`;
    let text = kept();
    for (const started = Date.now(); !text?.includes(placeholder) && Date.now() - started < 60_000; text = kept()) await new Promise((r) => setTimeout(r, 500));
    expect(text, tail()).toContain(placeholder);
    if (text === undefined) throw new Error("unreachable: the placeholder was found");
    for (const value of Object.values(values)) if (value.startsWith("sec-")) expect(text.includes(value), value).toBe(false);
    // The server's other way to resume, protocol v2's commands, is refused.
    const refused = await fetch(`${url}/threads/${thread.thread_id}/commands`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: 1, method: "input.respond", params: { interrupt_id: waiting[0]!.id, response: resume } }) });
    expect(refused.status).toBe(403);
  }, 600_000);

  it("long-chain: a run the server starts without a recursion limit gets the team's (the graph binds it), so 26 steps in a row run to done", async () => {
    const p = project(LONG);
    const { inputs } = runValues(p.def);
    const client = await sdkClient();
    const thread = await client.threads.create();
    const before = exchanges.length;
    // No config: what Studio, the SDK or a cron run sends; LangGraph's default limit is 25 super-steps.
    const output = await client.runs.wait(thread.thread_id, p.name, { input: inputs });
    expect(output, tail()).toMatchObject({ status: "done", halted: null });
    const asked = exchanges.slice(before).map((e) => /^Task: Link (\d+) of the chain\n/.exec(userText(e.request))?.[1]);
    expect(new Set(asked.filter((n) => n !== undefined)).size).toBe(LONG_STEPS);
    checkPrompts(p, exchanges.slice(before), inputs);
  }, 600_000);

  it("content-studio with timeout.runMs: a resumed run halts on the run deadline, the resume given only what the run before the gate left of it", async () => {
    const p = project(RUNMS);
    const { inputs } = runValues(p.def);
    const client = await sdkClient();
    const thread = await client.threads.create();
    const task = (request: ChatRequest, label: string) => userText(request).startsWith(`Task: ${label}\n`);
    const heldFrom = front!.held.length;

    // Before the gate: the managing editor's first answer held back a third of RUN_MS, model work the run spends
    // (a timer, as time is what runMs counts; the rest of the run before the gate has two thirds, a loaded
    // machine's margin, and the gate is reached with about two thirds left).
    let editing = false;
    hold = (request) => {
      if (editing || !task(request, "Edit the whole package")) return undefined;
      editing = true;
      return new Promise((resolve) => setTimeout(() => resolve(true), RUN_MS / 3));
    };
    let first: unknown;
    try {
      first = await client.runs.wait(thread.thread_id, p.name, { input: inputs });
    } finally {
      hold = undefined;
    }
    // The run stops at the gate (runs.wait answers with the interrupt), the thread's state waiting.
    expect((first as { __interrupt__?: unknown[] }).__interrupt__?.length, `${JSON.stringify(first)}\n${tail()}`).toBe(1);
    const waiting = await client.threads.getState(thread.thread_id);
    expect(waiting.values, tail()).toMatchObject({ status: "waiting", halted: null });
    const interrupts = waiting.tasks.flatMap((t) => t.interrupts ?? []);
    expect(interrupts.length, tail()).toBe(1);
    const before = waiting.values.work as Array<[number, number]>;
    const spentBefore = workedMs(before);
    // The held answer is in the run's work (what the next assertion rests on), and the gate was reached within the limit.
    expect(spentBefore, JSON.stringify(before)).toBeGreaterThan(RUN_MS / 4);
    expect(spentBefore).toBeLessThan(RUN_MS);

    // After the gate: the publisher's call held until the test lets go of it (after the run ended, refused then).
    let letGo = () => {};
    const lettingGo = new Promise<boolean>((resolve) => (letGo = () => resolve(false)));
    hold = (request) => (task(request, "Create the WordPress draft") ? lettingGo : undefined);
    const publishing = () => front!.held.slice(heldFrom).filter((h) => task(h.request, "Create the WordPress draft"));
    const reached = server.requests.length;
    const approve = { gate: interrupts[0]!.value?.gate, decisions: (interrupts[0]!.value?.records ?? []).map((r) => ({ record: r.id, action: "approve", feedback: "" })) };
    let output: { status?: unknown; halted?: unknown; result?: unknown } | undefined;
    let bound: NodeJS.Timeout | undefined;
    try {
      output = (await client.runs.wait(thread.thread_id, p.name, { command: { resume: approve } })) as typeof output;
      // The held call's end as the front saw it (its close can come after the server's answer); a long bound only against a hang.
      await Promise.race([Promise.all(publishing().map((h) => h.gone)), new Promise((resolve) => (bound = setTimeout(resolve, 120_000)))]);
    } finally {
      clearTimeout(bound);
      hold = undefined;
      letGo();
    }
    const what = `${JSON.stringify(output)}\n${tail()}`;

    // As the runtime documents a timeout.runMs halt: status halted, the reason in halted, no result.
    expect(output, what).toMatchObject({ status: "halted", result: null });
    expect(String(output?.halted), what).toContain(`${RUN_MS} ms of work (timeout.runMs`);
    // The publisher's call was cut off in flight (closed unanswered), made once, and no request reached the model after the resume.
    expect(publishing().length, what).toBe(1);
    expect(await publishing()[0]!.gone, what).toBe("abandoned");
    expect(server.requests.length, what).toBe(reached);
    // The thread's state says the same, and nothing waits.
    const after = await client.threads.getState(thread.thread_id);
    expect(after.next, what).toEqual([]);
    expect(after.tasks.flatMap((t) => t.interrupts ?? []), what).toEqual([]);
    expect(after.values, what).toMatchObject({ status: "halted", halted: output?.halted, result: null });
    // Not restarted by the resume: the work before the gate is kept, and the resumed node was cut off
    // after what was left of RUN_MS (about RUN_MS - spentBefore), not after a fresh RUN_MS.
    const spans = after.values.work as Array<[number, number]>;
    expect(spans.slice(0, before.length), what).toEqual(before);
    const resumed = workedMs(spans.slice(before.length));
    expect(resumed, JSON.stringify(spans)).toBeGreaterThan(0);
    expect(resumed, JSON.stringify(spans)).toBeLessThan(RUN_MS - spentBefore / 2);
    // A further resume of the halted thread runs nothing: no model request, the state as it was.
    await client.runs.wait(thread.thread_id, p.name, { command: { resume: approve } });
    expect(server.requests.length, tail()).toBe(reached);
    expect(publishing().length, tail()).toBe(1);
    const again = await client.threads.getState(thread.thread_id);
    expect(again.values, tail()).toMatchObject({ status: "halted", halted: output?.halted, result: null, work: spans });
    expect(again.next).toEqual([]);
  }, 600_000);
});
