// Issue 39, LangGraph: what a team shares across machines lives in PostgreSQL (DATABASE_URL;
// test/realpath/postgres.ts), each test on a database of its own.
// (1) A gate paused by one process is resumed by another on another working directory — a
//     second export of the same definition, no file of the first's — sharing only the URL (and
//     the person's decisions file), through every gate to the end, alternating directories.
// (2) Two worker processes write one workspace document at once through the runner's store
//     (LangGraph's PostgresStore): every row each creates is there, and of their compare-and-set
//     writes of one shared row no two get the same version and none is lost (the row's version
//     is the number of writes that said "written"); some are refused as conflicts, so the two
//     did race.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { decide, type Definition, exportedProject, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import { type OwnDatabases, ownDatabases, type TestDatabase, testDatabase } from "./postgres.js";

const gate = e2eGate();

interface GateDef {
  name: string;
  trigger: string;
  thresholdCount?: number;
}

/** Python in the environment, with `dir`'s package and its vendored library on the path. */
function python(env: PythonEnv, dir: string, args: string[], extra: Record<string, string> = {}) {
  return spawnSync(join(env.bin, "python"), args, {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PYTHONPATH: [join(dir, "src"), join(dir, "vendor", "envelope-runtime", "src")].join(":"), PYTHONDONTWRITEBYTECODE: "1", ...extra },
  });
}

describe.runIf(gate.run)("a LangGraph team on PostgreSQL across processes and working directories", () => {
  let env: PythonEnv;
  let server: ModelServer;
  let database: TestDatabase | undefined;
  let databases: OwnDatabases | undefined;
  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    database = await testDatabase();
    databases = database && ownDatabases(env.python, database.url);
    let n = 0;
    server = await startModelServer((request) => scriptedReply(request, ++n, 4));
  }, 1_800_000);
  afterAll(async () => {
    databases?.dropAll();
    database?.stop();
    await server?.close();
  });

  it("a gate paused in one working directory is resumed from another, each resume a new process, to the end", async (context) => {
    if (database === undefined) return context.skip();
    const path = join(ROOT, "test/fixtures/valid/parallel-gates.envelope.json");
    const base = mkdtempSync(join(tmpdir(), "envelope-lgpg-gates-"));
    const dirs = [join(base, "a", "parallel-gates"), join(base, "b", "parallel-gates")];
    const { def: d, readme, pkg } = await exportedProject<Definition & { gates: GateDef[] }>(path, "langgraph", dirs[0]!);
    await exportedProject(path, "langgraph", dirs[1]!);
    const { env: values, inputs } = runValues(d);
    const runEnv = { ...values, DATABASE_URL: databases!.create("lg_gates"), MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" };
    const byGate = new Map(d.gates.map((g) => [g.name, g]));
    let args = ["--no-interactive", ...runArgs(dirs[0]!, readme, inputs)];
    const log: string[] = [];
    let code = -1;
    let resumes = 0;
    for (let round = 0; round <= 6; round++) {
      const dir = dirs[round % 2]!;
      const run = await runTeam(env, dir, pkg, args, runEnv);
      code = run.code;
      log.push(`$ (${round % 2 ? "b" : "a"}) ${pkg} ${args.join(" ")}\nexit ${run.code}\n${run.stdout.slice(-400)}\n${run.stderr.slice(-2000)}`);
      if (run.code !== 3) break;
      const waiting = JSON.parse(run.stdout) as { decisions_file: string; resume: string };
      const file = resolve(dir, waiting.decisions_file);
      decide(file, (g) => (byGate.get(g)?.trigger === "threshold" ? (byGate.get(g)!.thresholdCount ?? 1) : 1), () => ({ approve: "approve", other: "skip" }));
      // The person's decisions go to the other directory: nothing else of this one does.
      const there = resolve(dirs[(round + 1) % 2]!, waiting.decisions_file);
      mkdirSync(dirname(there), { recursive: true });
      copyFileSync(file, there);
      args = waiting.resume.split(" ").slice(1);
      resumes++;
    }
    const transcript = log.join("\n---\n");
    expect(code, transcript).toBe(0);
    expect(resumes, transcript).toBeGreaterThanOrEqual(1);
    expect(transcript).toContain("$ (b)");
    for (const dir of dirs) expect(existsSync(join(dir, ".langgraph_runs", "checkpoints.sqlite")), transcript).toBe(false);
  }, 900_000);

  it("two workers write one workspace document at once: no row and no write lost", async (context) => {
    if (database === undefined) return context.skip();
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-lgpg-ws-")), "outbound-lead-desk");
    const { pkg } = await exportedProject(join(ROOT, "test/fixtures/valid/outbound-lead-desk.envelope.json"), "langgraph", dir);
    const url = databases!.create("lg_workspace");
    const seed = python(env, dir, ["-c", `from envelope_runtime.langgraph.workspace_store import open_store, open_workspace\nfrom envelope_runtime.team_package import TeamPackage\n[r] = open_workspace(TeamPackage("${pkg}"), open_store()).write("messaging-experiments", [{"id": "shared", "data": {"angle": "seed"}}], "human")\nassert r.outcome == "written" and r.version == 1, r`], { DATABASE_URL: url });
    expect(seed.status, seed.stderr).toBe(0);
    const rounds = 30;
    const driver = join(ROOT, "test/realpath/langgraph_workspace_driver.py");
    // Both start writing at the same moment, whatever their imports cost on a loaded machine.
    const startAt = String(Date.now() / 1000 + 15);
    const worker = (name: string) =>
      new Promise<{ worker: string; won: number[]; conflicts: number }>((done, fail) => {
        const child = spawn(join(env.bin, "python"), [driver, pkg, name, String(rounds), startAt], {
          cwd: dir,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, PYTHONPATH: [join(dir, "src"), join(dir, "vendor", "envelope-runtime", "src")].join(":"), PYTHONDONTWRITEBYTECODE: "1", DATABASE_URL: url },
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (b: Buffer) => (out += b.toString()));
        child.stderr.on("data", (b: Buffer) => (err += b.toString()));
        child.on("close", (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`worker ${name} exit ${code}\n${err}`))));
      });
    const results = await Promise.all([worker("a"), worker("b")]);
    const won = results.flatMap((r) => r.won);
    const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
    const check = python(env, dir, ["-c", `import json\nfrom envelope_runtime.langgraph.workspace_store import open_store, open_workspace\nfrom envelope_runtime.team_package import TeamPackage\nw = open_workspace(TeamPackage("${pkg}"), open_store())\nprint(json.dumps({"version": w.row("messaging-experiments", "shared")["version"], "ids": sorted(r["id"] for r in w.rows("messaging-experiments"))}))`], { DATABASE_URL: url });
    expect(check.status, check.stderr).toBe(0);
    const final = JSON.parse(check.stdout) as { version: number; ids: string[] };
    const summary = JSON.stringify({ results, final: final.version });
    // Every compare-and-set write that said "written" made a version of its own, and they are all there.
    expect(new Set(won).size, summary).toBe(won.length);
    expect([...won].sort((x, y) => x - y), summary).toEqual(Array.from({ length: won.length }, (_, i) => i + 2));
    expect(final.version, summary).toBe(1 + won.length);
    expect(won.length + conflicts, summary).toBe(2 * rounds);
    expect(conflicts, `the workers raced: ${summary}`).toBeGreaterThan(0);
    // Every row each worker created.
    const own = ["a", "b"].flatMap((w) => Array.from({ length: rounds }, (_, i) => `${w}-${i}`));
    expect(final.ids, summary).toEqual([...own, "shared"].sort());
    // In the database, not in a file of the runner's.
    expect(existsSync(join(dir, ".envelope-workspace.sqlite3"))).toBe(false);
  }, 900_000);
});
