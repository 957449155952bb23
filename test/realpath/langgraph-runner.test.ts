// Issue 38: one way to run a LangGraph team. The runner is a thin client of the team's graph,
// with no data of its own: the same gated team (parallel-gates, two gates) is driven to its
// end through resumes in new processes, each resume the command the previous run printed,
// (1) in process on PostgreSQL (DATABASE_URL; test/realpath/postgres.ts), no SQLite file
// written, and (2) against `langgraph dev` serving the export's own langgraph.json (`--url`,
// langgraph-sdk's RemoteGraph), the run's thread kept by the server, no checkpoints here.
// Both sweep too (gate timeouts): through the checkpointer, and through the SDK.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { decide, type Definition, exportedProject, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import { type TestDatabase, testDatabase } from "./postgres.js";

const gate = e2eGate();
/** parallel-gates (exportedProject gives it ten minutes of work). */
function fixture(): string {
  return join(ROOT, "test/fixtures/valid/parallel-gates.envelope.json");
}

interface GateDef {
  name: string;
  trigger: string;
  thresholdCount?: number;
}

describe.runIf(gate.run)("the LangGraph runner as a thin client", () => {
  let env: PythonEnv;
  let server: ModelServer;
  let database: TestDatabase | undefined;
  let dev: DevServer | undefined;
  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    database = await testDatabase();
    let n = 0;
    server = await startModelServer((request) => scriptedReply(request, ++n, 4));
  }, 1_800_000);
  afterAll(async () => {
    dev?.stop();
    database?.stop();
    await server?.close();
  });

  /** A run and its resumes, each in a new process, until it ends: the commands and their output. */
  async function driveToEnd(dir: string, pkg: string, first: string[], runEnv: Record<string, string>, gates: GateDef[]) {
    let args = first;
    const log: string[] = [];
    let code = -1;
    let resumes = 0;
    for (let round = 0; round <= 6; round++) {
      const run = await runTeam(env, dir, pkg, args, runEnv);
      code = run.code;
      log.push(`$ ${pkg} ${args.join(" ")}\nexit ${run.code}\n${run.stdout.slice(-400)}\n${run.stderr.slice(-2000)}`);
      if (run.code !== 3) break;
      const waiting = JSON.parse(run.stdout) as { decisions_file: string; resume: string };
      const byGate = new Map(gates.map((g) => [g.name, g]));
      const file = resolve(dir, waiting.decisions_file);
      decide(file, (g) => (byGate.get(g)?.trigger === "threshold" ? (byGate.get(g)!.thresholdCount ?? 1) : 1), () => ({ approve: "approve", other: "skip" }));
      // The first resume decides one gate only: the other waits on, for the next process.
      const decided = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      const [firstGate] = Object.keys(decided);
      if (resumes === 0 && firstGate !== undefined) writeFileSync(file, JSON.stringify({ [firstGate]: decided[firstGate] }));
      args = waiting.resume.split(" ").slice(1);
      resumes++;
    }
    return { code, resumes, transcript: log.join("\n---\n") };
  }

  it("in process on PostgreSQL (DATABASE_URL): through resumes in new processes to the end, no SQLite file", async (context) => {
    if (database === undefined) return context.skip();
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-runner-pg-")), "parallel-gates");
    const { def, readme, pkg } = await exportedProject<Definition & { gates: GateDef[] }>(fixture(), "langgraph", dir);
    const { env: values, inputs } = runValues(def);
    const runEnv = { ...values, DATABASE_URL: database.url, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" };
    const { code, resumes, transcript } = await driveToEnd(dir, pkg, ["--no-interactive", ...runArgs(dir, readme, inputs)], runEnv, def.gates);
    expect(code, transcript).toBe(0);
    expect(resumes, transcript).toBeGreaterThanOrEqual(2);
    expect(transcript).toContain("(PostgreSQL, $DATABASE_URL)");
    expect(existsSync(join(dir, ".langgraph_runs", "checkpoints.sqlite")), transcript).toBe(false);
    // A sweep reads the same database: the finished run waits at no gate.
    const swept = await runTeam(env, dir, pkg, ["sweep"], runEnv);
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stderr).toContain("No gate is past its deadline.");
    // Without the database the run is not found (it was never in a file of the runner's).
    const thread = /Thread (\S+) \(/.exec(transcript)![1]!;
    const elsewhere = await runTeam(env, dir, pkg, ["resume", thread, "--no-interactive"], { ...runEnv, DATABASE_URL: "" });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`thread ${thread} not found`);
  }, 900_000);

  it("a client of langgraph dev (--url): through resumes in new processes to the end, the thread on the server", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-runner-dev-")), "parallel-gates");
    const { def, readme, pkg } = await exportedProject<Definition & { gates: GateDef[] }>(fixture(), "langgraph", dir);
    const { env: values, inputs } = runValues(def);
    const modelEnv = { MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" };
    // The export's own langgraph.json, as its README serves it.
    dev = await startLanggraphDev(env, dir, { ...values, ...modelEnv });
    const { url } = dev;
    // The client has no model keys and no model server: every model call is the server's.
    const clientEnv = { ...values, OPENAI_API_KEY: "" };
    const { code, resumes, transcript } = await driveToEnd(dir, pkg, ["--url", url, "--no-interactive", ...runArgs(dir, readme, inputs)], clientEnv, def.gates);
    expect(code, `${transcript}\n${dev.log().slice(-3000)}`).toBe(0);
    expect(resumes, transcript).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(dir, ".langgraph_runs", "checkpoints.sqlite")), transcript).toBe(false);
    const thread = /Thread (\S+) \(/.exec(transcript)![1]!;
    const state = (await (await fetch(`${url}/threads/${thread}/state`)).json()) as { values: { status?: string; result?: unknown }; next: string[] };
    expect(state.values.status).toBe("done");
    expect(state.next).toEqual([]);
    // Gate timeouts when served: sweep asks the server for its interrupted threads.
    const swept = await runTeam(env, dir, pkg, ["sweep", "--url", url], clientEnv);
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stderr).toContain("No gate is past its deadline.");
  }, 900_000);
});
