// The LangGraph.js export's runner with DATABASE_URL keeps its runs in PostgreSQL (LangGraph.js's
// PostgresSaver, @langchain/langgraph-checkpoint-postgres, in the export's lock), as the Python
// LangGraph runner does (test/realpath/langgraph-postgres.test.ts): a gated team run to its gate
// by `tsx src/main.ts run`, each resume a new process with the person's decisions file, to done;
// its `state:` line names the database without the password; nothing is written to the runner's
// files (.langgraph_runs/threads/, .envelope-workspace/). A workspace team's agent writes a row
// to the workspace's store there (LangGraph.js's PostgresStore), which people's `workspace`
// command in another process reads. The server: test/realpath/postgres.ts
// (.ci/run's), a database of this test's own on it; the project uses the shared install of its
// lock (test/e2e/langgraph-js-env.ts), every model call sent to the scripted server.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { exportFile } from "../helpers/export.js";
import { sharedModules, writeExport } from "../e2e/langgraph-js-env.js";
import { decide, type Definition, marker, runValues, scriptedReply } from "./harness.js";
import { instanceOf, type JsonSchema, type ModelServer, startModelServer, textOf } from "./model-server.js";
import { type TestDatabase, testDatabase } from "./postgres.js";

/** How envelope-runtime-js asks an agent for a structured answer: the JSON schema on the line after. */
const JSON_ASK = "Finish with only a JSON object matching this JSON schema:\n";

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // Not spawnSync: the model server lives in this process's event loop.
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr });
    });
  });
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

describe("a LangGraph.js export's runner on PostgreSQL (DATABASE_URL)", () => {
  const root = mkdtempSync(join(tmpdir(), "envelope-realpath-lgjs-pg-"));
  let server: ModelServer;
  let database: TestDatabase | undefined;
  let url = "";
  let pg: { Client: new (options: { connectionString: string }) => PgClient };
  const made: string[] = [];
  const sql = async (on: string, text: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: on });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    const modules = sharedModules();
    symlinkSync(modules, join(root, "node_modules"), "dir");
    pg = createRequire(join(modules, "noop.js"))("pg") as typeof pg;
    database = await testDatabase();
    if (database) {
      // A database of this test's own (unique per process: one left by a killed run is never reused).
      const name = `envelope_lgjs_${process.pid}_${Date.now().toString(36)}`;
      await sql(database.url, `CREATE DATABASE ${name}`);
      made.push(name);
      const at = new URL(database.url);
      at.pathname = `/${name}`;
      // A password in the URL (the test server trusts every login): the runner must never print it.
      at.password = "pw-not-shown-7q";
      url = at.toString();
    }
    let n = 0;
    server = await startModelServer((request) => {
      // event-signup-desk's screener writes the workspace once: a row it may write.
      if (request.tools?.some((t) => t.function.name === "write_attendees_rows") && !request.messages.some((m) => (m.tool_calls ?? []).length > 0)) {
        return { toolCalls: [{ name: "write_attendees_rows", arguments: { rows: [{ data: { email: "pg@example.com", status: "pending" } }] } }] };
      }
      const scripted = scriptedReply(request, ++n, 3);
      if (!("text" in scripted)) return scripted;
      const asked = request.messages.filter((m) => m.role === "user").map((m) => textOf(m.content)).find((t) => t.includes(JSON_ASK));
      if (asked === undefined) return scripted;
      const schema = JSON.parse(asked.slice(asked.indexOf(JSON_ASK) + JSON_ASK.length).split("\n")[0]!) as JsonSchema;
      return { json: instanceOf(schema, marker(n), schema, "", 3) };
    });
  }, 1_200_000);

  afterAll(async () => {
    if (database) for (const name of made) await sql(database.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    database?.stop();
    await server?.close();
  });

  it("parallel-gates: run to its gate, each resume a new process with the decisions file, to done; the runs in the database, none in files", async (context) => {
    if (database === undefined) return context.skip();
    const path = join(ROOT, "test/fixtures/valid/parallel-gates.envelope.json");
    const dir = join(root, "parallel-gates");
    writeExport(dir, exportFile(path, "langgraph-js"));
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    const def = JSON.parse(readFileSync(path, "utf8")) as Definition & { gates: Array<{ name: string; trigger: string; thresholdCount?: number }> };
    const byGate = new Map(def.gates.map((g) => [g.name, g]));
    const { env: values, inputs } = runValues(def);
    const env = { PATH: process.env.PATH, HOME: root, ...values, DATABASE_URL: url, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy", LANGSMITH_TRACING: "false" };
    const tsx = join(dir, "node_modules/.bin/tsx");
    const shown = `PostgreSQL, ${url.replace(":pw-not-shown-7q@", ":***@")}`;
    const log: string[] = [];
    let args = ["run", "--no-interactive", "--inputs", JSON.stringify(inputs)];
    let result = await run(tsx, ["src/main.ts", ...args], env, dir);
    let thread = "";
    let resumes = 0;
    for (let round = 0; round < 6; round++) {
      log.push(`$ ${args.join(" ")}\nexit ${result.code}\n${result.stdout.slice(-600)}\n${result.stderr.slice(-2000)}`);
      expect(result.stderr, log.join("\n")).not.toContain("pw-not-shown-7q");
      if (result.code !== 3) break;
      const waiting = JSON.parse(result.stdout) as { thread: string; decisions_file: string };
      thread = waiting.thread;
      expect(result.stderr).toContain(`thread ${thread} (state: ${shown})`);
      const file = resolve(dir, waiting.decisions_file);
      decide(file, (g) => (byGate.get(g)?.trigger === "threshold" ? (byGate.get(g)!.thresholdCount ?? 1) : 1), () => ({ approve: "approve", other: "skip" }));
      args = ["resume", "--no-interactive", "--thread", thread, "--decisions", file];
      result = await run(tsx, ["src/main.ts", ...args], env, dir);
      resumes++;
    }
    expect(result.code, log.join("\n")).toBe(0);
    expect(resumes, log.join("\n")).toBeGreaterThan(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ thread, status: "done", halted: null });
    // The runs are the database's: the thread's checkpoints there, no file of the runner's store.
    const plain = new URL(url);
    plain.password = "";
    const rows = await sql(plain.toString(), "SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1", [thread]);
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(existsSync(join(dir, ".langgraph_runs/threads")), log.join("\n")).toBe(false);
    expect(existsSync(join(dir, ".envelope-workspace"))).toBe(false);
    // Only the person's decisions file is in the runs folder (as with the Python runner's --state-dir).
    expect(readdirSync(join(dir, ".langgraph_runs")).every((f) => f.endsWith(".decisions.json"))).toBe(true);
  }, 900_000);

  it("event-signup-desk: an agent's workspace write lands in the database's store, where people's workspace command reads it; no store folder", async (context) => {
    if (database === undefined) return context.skip();
    const path = join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json");
    const dir = join(root, "event-signup-desk");
    writeExport(dir, exportFile(path, "langgraph-js"));
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    const def = JSON.parse(readFileSync(path, "utf8")) as Definition;
    const { env: values, inputs } = runValues(def);
    const env = { PATH: process.env.PATH, HOME: root, ...values, DATABASE_URL: url, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy", LANGSMITH_TRACING: "false" };
    const tsx = join(dir, "node_modules/.bin/tsx");
    const done = await run(tsx, ["src/main.ts", "run", "--no-interactive", "--inputs", JSON.stringify(inputs)], env, dir);
    expect(done.code, done.stderr.slice(-3000)).toBe(0);
    const shown = await run(tsx, ["src/main.ts", "workspace", "show", "attendees", "pg@example.com", "--show-pii"], env, dir);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ data: { email: "pg@example.com", status: "pending" } });
    expect(existsSync(join(dir, ".envelope-workspace"))).toBe(false);
    expect(existsSync(join(dir, ".langgraph_runs/threads"))).toBe(false);
  }, 900_000);
});
