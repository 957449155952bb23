// `langgraph dev` serving every valid definition's exported graph, driven with the
// langgraph-sdk client as the exported README documents it (issues 13 §1 and 15), every
// model call sent to our scripted server by environment variables alone. One server per
// Python (3.11, the declared floor, and 3.12) serves all the graphs from one langgraph.json,
// so CI pays for one start each. A three-level hierarchy shows every agent in the drawn
// graph and each agent's conversation in the thread's subgraph checkpoints. The server is
// loopback only, offline (LANGGRAPH_NO_VERSION_CHECK, tracing off), and its process group
// is killed at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { ROOT } from "../helpers/cli.js";
import { exportFile, validDefinitions } from "../helpers/export.js";
import { e2eGateFor, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, type Exchange, expectedPrompt, markersIn, runValues, scriptedReply, systemText, userText } from "./harness.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import { freePort } from "../helpers/free-port.js";

const DRIVER = join(ROOT, "test/realpath/langgraph_driver.py");
const DEFAULT_MODEL = "realpath-model";

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // Never spawnSync here: the model server lives in this process's event loop.
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

interface Project {
  name: string;
  dir: string;
  pkg: string;
  def: Definition & { gates?: Array<{ name: string }> };
}

interface DriveReport {
  input_schema: unknown;
  output_schema: unknown;
  context_schema: unknown;
  rounds: Array<Array<{ value: { gate: string; records: Array<{ id: string; fields: Record<string, string> }> }; approved: string[]; skipped: string[] }>>;
  next: string[];
  /** Per waiting gate, the problems its new interrupt carried after a bad resume value. */
  refused: string[][];
  values: { approved?: Record<string, Array<Record<string, string>>> };
  /** Node ids of the graph drawn with xray (`assistants.get_graph`). */
  drawn: string[];
  /** Node path ("team/ask-x/x") -> the messages checkpointed in that subgraph namespace. */
  conversations: Record<string, string[]>;
}

interface RunReport {
  /** What each `runs.wait` returned: the graph's output (state.TeamOutput), plus `__interrupt__` while waiting. */
  outputs: Array<Record<string, unknown>>;
  next: string[];
}

/** One `langgraph dev` for every valid definition's export, its model calls answered by `server`. */
class Served {
  projects: Project[] = [];
  url = "";
  env!: PythonEnv;
  processEnv: NodeJS.ProcessEnv = {};
  private dev: ChildProcess | undefined;
  private log = "";
  root = "";

  async start(python: string, server: ModelServer): Promise<void> {
    this.env = ensureEnv("langgraph", python);
    this.root = mkdtempSync(join(tmpdir(), "envelope-realpath-dev-"));
    const values: Record<string, string> = {};
    for (const { name, path } of validDefinitions()) {
      const dir = join(this.root, name);
      const files = exportFile(path, "langgraph");
      await writeDirectory(files, dir);
      const pkg = files.paths().map((p) => /^src\/([^/]+)\/__init__\.py$/.exec(p)?.[1]).find(Boolean)!;
      const def = JSON.parse(readFileSync(path, "utf8")) as Project["def"];
      Object.assign(values, runValues(def).env);
      this.projects.push({ name, dir, pkg, def });
    }
    // One langgraph.json for all of them: each project a dependency, each graph by its id.
    const graphs = Object.fromEntries(this.projects.map((p) => [p.pkg, `./${p.name}/src/${p.pkg}/graph.py:graph`]));
    writeFileSync(join(this.root, "langgraph.json"), JSON.stringify({ dependencies: this.projects.map((p) => `./${p.name}`), graphs, python_version: "3.11" }, null, 2));
    const home = join(this.root, ".home");
    mkdirSync(home, { recursive: true });
    const port = await freePort();
    this.processEnv = {
      PATH: `${this.env.bin}:${process.env.PATH}`,
      HOME: home,
      // Each project's package, and envelope-runtime as the exports vendor it (the same bytes
      // in every export; `langgraph dev` installs nothing, and this Python's cached environment
      // may never have had the library installed).
      PYTHONPATH: [...this.projects.map((p) => join(p.dir, "src")), join(this.projects[0]!.dir, "vendor", "envelope-runtime", "src")].join(":"),
      PYTHONDONTWRITEBYTECODE: "1",
      LANGGRAPH_NO_VERSION_CHECK: "true",
      LANGGRAPH_CLI_NO_ANALYTICS: "1",
      LANGSMITH_TRACING: "false",
      LANGCHAIN_TRACING_V2: "false",
      ...values,
      MODEL_OVERRIDE: `openai:${DEFAULT_MODEL}`,
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "dummy",
    };
    this.dev = spawn(join(this.env.bin, "langgraph"), ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: this.root,
      env: this.processEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, killed whole in stop()
    });
    this.dev.stdout!.on("data", (d: Buffer) => (this.log += d.toString()));
    this.dev.stderr!.on("data", (d: Buffer) => (this.log += d.toString()));
    this.url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    for (;;) {
      const ok = await fetch(`${this.url}/ok`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() - started > 180_000 || this.dev.exitCode !== null) throw new Error(`langgraph dev did not start:\n${this.tail()}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  tail(): string {
    return this.log.slice(-4000);
  }

  project(name: string): Project {
    return this.projects.find((p) => p.name === name)!;
  }

  async driver<T>(...args: string[]): Promise<T> {
    const r = await run(this.env.python, [DRIVER, args[0]!, this.url, ...args.slice(1)], this.processEnv, this.root);
    expect(r.code, `driver ${args[0]}: ${r.stderr}\n${this.tail()}`).toBe(0);
    return JSON.parse(r.stdout) as T;
  }

  async stop(): Promise<void> {
    if (this.dev?.pid !== undefined && this.dev.exitCode === null) process.kill(-this.dev.pid, "SIGKILL");
  }
}

for (const version of ["3.11", "3.12"]) {
  const gate = e2eGateFor(version);

  describe.runIf(gate.run)(`langgraph dev + langgraph-sdk on Python ${version}, every valid definition from one server`, () => {
    const served = new Served();
    let server: ModelServer;
    const exchanges: Exchange[] = [];

    beforeAll(async () => {
      server = await startModelServer((request) => {
        const n = exchanges.length + 1;
        const reply = scriptedReply(request, n, 3);
        exchanges.push({ n, request, reply });
        return reply;
      });
      await served.start(gate.python!, server);
    }, 1_800_000);

    afterAll(async () => {
      await served.stop();
      await server?.close();
    });

    it("every assistant has input, output and context schemas (Studio's form, the result, the models)", async () => {
      const found = await served.driver<Record<string, Record<string, { properties?: Record<string, unknown> } | null>>>("schemas");
      expect(Object.keys(found).sort()).toEqual(served.projects.map((p) => p.pkg).sort());
      for (const p of served.projects) {
        const schemas = found[p.pkg]!;
        for (const kind of ["input_schema", "output_schema", "context_schema"]) expect(schemas[kind], `${p.name}: ${kind}\n${served.tail()}`).not.toBeNull();
        // Flat input: the team's inputs are the form's fields (keys as written).
        expect(Object.keys(schemas.input_schema!.properties ?? {}).sort(), p.name).toEqual(Object.keys(p.def.inputs ?? {}).sort());
        // Each field as the definition says (state.TeamInputs, a pydantic model): its
        // description, enum and default, and which are required.
        const input = schemas.input_schema as { properties: Record<string, Record<string, unknown>>; required?: string[] };
        const declared = Object.entries(p.def.inputs ?? {}) as Array<[string, { description?: string; required?: boolean; enum?: string[]; default?: unknown }]>;
        for (const [key, spec] of declared) {
          const field = input.properties[key]!;
          if (spec.description) expect(field.description, `${p.name}: ${key}`).toBe(spec.description);
          if (spec.default !== undefined) expect(field.default, `${p.name}: ${key}`).toEqual(spec.default);
          if (spec.enum) expect(JSON.stringify(field), `${p.name}: ${key}`).toContain(JSON.stringify(spec.enum));
        }
        const required = declared.filter(([, spec]) => spec.required && spec.default === undefined).map(([key]) => key);
        expect([...(input.required ?? [])].sort(), p.name).toEqual(required.sort());
        expect(Object.keys(schemas.output_schema!.properties ?? {}).sort(), p.name).toEqual(["halted", "result", "status"]);
        expect(Object.keys(schemas.context_schema!.properties ?? {}).length, p.name).toBe(p.def.agents.length + 1);
      }
    }, 300_000);

    // The runs: on the floor only (3.12 serves the same code; CI time is short).
    if (version !== "3.11") return;

    it("parallel-gates: resumes each gate to the end, a bad resume value first", async () => {
      const p = served.project("parallel-gates");
      const { inputs } = runValues(p.def);
      const report = await served.driver<DriveReport>("drive", p.pkg, JSON.stringify(inputs));

      // A bad resume value first: each gate asked again with the problems (nothing applied),
      // and the valid resume after it went through.
      expect(report.refused).toHaveLength(p.def.gates!.length);
      for (const problems of report.refused) expect(problems.join("\n")).toContain("unknown record 'r999'");

      // Both gates interrupted and were resumed; the run finished.
      const gatesSeen = report.rounds.flat().map((r) => r.value.gate).sort();
      expect(gatesSeen).toEqual(p.def.gates!.map((g) => g.name).sort());
      expect(report.next).toEqual([]);

      // Only the approved record of each gate reaches the step both gates trigger
      // (onboarding-decision).
      const decision = exchanges.filter((e) => userText(e.request).startsWith("Write the onboarding decision"));
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

    it("a run's context switches one agent's model for that run only", async () => {
      const p = served.project("chargeback-responder");
      const { inputs } = runValues(p.def);
      const { env } = runValues(p.def);
      // A report (reached through its manager's tool), so the choice reaches nested agents.
      const chosen = p.def.agents[1]!;
      const prompts = new Map(p.def.agents.map((a) => [a.key, expectedPrompt(a.prompt ?? "", p.def, env, inputs)]));
      expect(new Set(prompts.values()).size, "distinct prompts tell the agents apart").toBe(p.def.agents.length);
      const field = chosen.key.replace(/-/g, "_"); // its identifier: context.Context's field
      const ownerOf = (e: Exchange) => p.def.agents.find((a) => systemText(e.request).includes(prompts.get(a.key)!))?.key;

      const before = exchanges.length;
      const switched = await served.driver<RunReport>("run", p.pkg, JSON.stringify(inputs), JSON.stringify({ [field]: "openai:some-other-model" }));
      const during = exchanges.slice(before);
      const afterSwitch = exchanges.length;
      const plain = await served.driver<RunReport>("run", p.pkg, JSON.stringify(inputs));
      const after = exchanges.slice(afterSwitch);

      expect(switched.outputs.at(-1)!.status, JSON.stringify(switched.outputs)).toBe("done");
      expect(plain.outputs.at(-1)!.status, JSON.stringify(plain.outputs)).toBe("done");
      const models = (list: Exchange[], agent: string) => new Set(list.filter((e) => ownerOf(e) === agent).map((e) => e.request.model));
      expect(models(during, chosen.key), "the chosen agent, in the run that chose").toEqual(new Set(["some-other-model"]));
      for (const other of p.def.agents.filter((a) => a.key !== chosen.key)) expect(models(during, other.key), other.key).toEqual(new Set([DEFAULT_MODEL]));
      expect(new Set(after.map((e) => e.request.model)), "the next run, without context").toEqual(new Set([DEFAULT_MODEL]));
      expect(models(after, chosen.key).size, "the chosen agent worked in the next run too").toBe(1);
    }, 600_000);

    it("a context naming no known provider fails the run before any model call, saying why", async () => {
      const p = served.project("chargeback-responder");
      const { inputs } = runValues(p.def);
      const before = exchanges.length;
      const report = await served.driver<RunReport>("run", p.pkg, JSON.stringify(inputs), JSON.stringify({ model: "acme:model-1" }));
      const error = report.outputs[0]!.__error__ as { message?: string } | undefined;
      expect(error?.message, JSON.stringify(report.outputs)).toContain("context model='acme:model-1': unknown provider");
      expect(exchanges.length).toBe(before);
    }, 600_000);

    it("draws every agent of a three-level hierarchy and keeps each agent's conversation in the thread", async () => {
      const p = served.project("enterprise-support-desk");
      const agents = p.def.agents as Array<{ key: string; prompt?: string; reportsToKey?: string }>;
      const { env: values, inputs } = runValues(p.def);
      const before = exchanges.length;
      const report = await served.driver<DriveReport>("drive", p.pkg, JSON.stringify(inputs));
      expect(report.next).toEqual([]);

      // Node path of each agent: its graph is the node `ask-<ident>` of its manager's graph,
      // the entry agent's the `team` node; the agent itself is the node `<ident>` (agents.py).
      const byKey = new Map(agents.map((a) => [a.key, a]));
      const ident = (key: string) => key.replace(/-/g, "_");
      const unit = (key: string): string[] => {
        const manager = byKey.get(key)!.reportsToKey;
        return manager === undefined ? ["team"] : [...unit(manager), `ask-${ident(key)}`];
      };
      const mine = exchanges.slice(before);
      for (const agent of agents) {
        const path = [...unit(agent.key), ident(agent.key)];
        expect(report.drawn.some((id) => id.startsWith(`${path.join(":")}:`)), `${agent.key} drawn under ${path.join(":")}`).toBe(true);
        // What the agent was asked and what it answered, as the model server saw them.
        const prompt = expectedPrompt(agent.prompt ?? "", p.def, values, inputs);
        const calls = mine.filter((e) => systemText(e.request) === prompt);
        expect(calls.length, `${agent.key}: requests`).toBeGreaterThan(0);
        const conversation = report.conversations[path.join("/")] ?? [];
        expect(conversation, `${agent.key}: its task in ${path.join("/")}`).toContain(userText(calls[0]!.request));
        const answer = calls.at(-1)!.reply;
        if ("text" in answer && answer.text !== undefined) expect(conversation, `${agent.key}: its answer`).toContain(answer.text);
      }
      // The rendered prompts (they hold secret values) are never checkpointed.
      const stored = Object.values(report.conversations).flat().join("\n");
      for (const secret of p.def.requiredSecrets ?? []) expect(stored).not.toContain(values[secret]!);
    }, 600_000);

    it("a thread run again and again: every run is done with its own result (pipeline and hierarchy)", async () => {
      // Studio's "submit" on a thread whose run finished, or a runs.wait on the same
      // thread_id: each run must end done with the result its own model calls gave.
      for (const name of ["parallel-gates", "weekly-pipeline-review"]) {
        const p = served.project(name);
        const { inputs } = runValues(p.def);
        let thread: string[] = [];
        const seen: number[][] = [];
        for (let attempt = 1; attempt <= 3; attempt++) {
          const before = exchanges.length;
          const report = await served.driver<RunReport & { thread_id: string; values: unknown }>("run", p.pkg, JSON.stringify(inputs), "null", "approve", ...thread);
          thread = [report.thread_id];
          const output = report.outputs.at(-1)!;
          const what = `${name}, run ${attempt}: ${JSON.stringify(report.outputs)}`;
          expect(output.status, what).toBe("done");
          expect(output.halted ?? null, what).toBeNull();
          // Every string of the result carries the marker of the response that wrote it:
          // a response of this run, not of an earlier one.
          const mine = new Set(exchanges.slice(before).map((e) => e.n));
          const markers = markersIn(JSON.stringify(output.result));
          expect(markers.length, what).toBeGreaterThan(0);
          for (const n of markers) expect(mine.has(n), `${what}: rp-${n}-mk`).toBe(true);
          seen.push(markers);
          expect(JSON.stringify(report.values), what).not.toContain("__overwrite__");
          expect(report.next, what).toEqual([]);
        }
        expect(new Set(seen.map((m) => m.join())).size, `${name}: three distinct results`).toBe(3);
      }
    }, 900_000);

    it("a halted run says so in its output", async () => {
      const p = served.project("parallel-gates");
      const { inputs } = runValues(p.def);
      // Every record skipped: redline-approval (any_approved) releases nothing and halts.
      const report = await served.driver<RunReport>("run", p.pkg, JSON.stringify(inputs), "null", "skip");
      // Waiting at the gates, the server answers with the interrupts (its runs.wait leaves
      // the output's "waiting" status out while a run is interrupted).
      expect(report.outputs[0], JSON.stringify(report.outputs[0])).toHaveProperty("__interrupt__");
      const output = report.outputs.at(-1)!;
      expect(output.status, JSON.stringify(report.outputs)).toBe("halted");
      expect(output.halted).toMatch(/^gate redline-approval: not released/);
      expect(output.result, JSON.stringify(output)).toBeNull();
      expect(report.next).toEqual([]);
    }, 600_000);
  });
}
