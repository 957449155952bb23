// Issue 39 (CrewAI): with DATABASE_URL set, a run's state, its gates and the workspace live in
// that database (PostgreSQL here; test/realpath/postgres.ts), so machines share them:
// - a gated pipeline (parallel-gates) run by process A in its own copy of the project pauses
//   at a gate; process B, in another copy (another working directory) sharing only the URL,
//   gets what waits for review (`resume RUN_ID`, which writes B's own decisions file), decides
//   it, and resumes the run to its end; neither directory holds the run's state;
// - two workers (two copies of outbound-lead-desk) import rows into one workspace at once and
//   none is lost; two edits of one row at the version both read: one is written, the other is
//   refused as a conflict (compare-and-set across processes).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { decide, type Definition, exportedProject, type Invocation, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import { type OwnDatabases, ownDatabases, type TestDatabase, testDatabase } from "./postgres.js";

const gate = e2eGate();

/** The run's state files under a project directory (there must be none). */
function stateFiles(dir: string): string[] {
  const runs = join(dir, ".envelope-runs");
  return existsSync(runs) ? readdirSync(runs).filter((f) => f.endsWith(".json") && !f.endsWith(".decisions.json")) : [];
}

const said = (run: Invocation) => `exit ${run.code}\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-3000)}`;

describe.runIf(gate.run)("crewai: state, gates and the workspace in PostgreSQL (DATABASE_URL)", () => {
  let env: PythonEnv;
  let server: ModelServer;
  let database: TestDatabase | undefined;
  let databases: OwnDatabases | undefined;
  const work = mkdtempSync(join(tmpdir(), "envelope-realpath-crewai-pg-"));
  beforeAll(async () => {
    env = ensureEnv("crewai", gate.python!);
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

  it("a gate paused by one process is answered and resumed by another, in another directory, sharing only the URL", async (context) => {
    if (database === undefined) return context.skip();
    const path = join(ROOT, "test/fixtures/valid/parallel-gates.envelope.json");
    const def = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    const a = join(work, "machine-a", "parallel-gates");
    const b = join(work, "machine-b", "parallel-gates");
    const { readme, pkg } = await exportedProject<Definition>(path, "crewai", a);
    await exportedProject<Definition>(path, "crewai", b);
    const { env: values, inputs } = runValues(def as unknown as Definition);
    const runEnv = { ...values, DATABASE_URL: databases!.create("crewai_gates"), MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" };

    const started = await runTeam(env, a, pkg, ["--no-interactive", ...runArgs(a, readme, inputs)], runEnv);
    expect(started.code, said(started)).toBe(3);
    const runId = (JSON.parse(started.stdout) as { run_id: string }).run_id;
    expect(started.stderr).toContain(`(state: run ${runId} in the database at postgresql://`);

    // B knows the run id only. `resume RUN_ID` with no decisions lists what waits (exit 3) and
    // writes the decisions file in B's directory; B fills it and resumes, until the run ends
    // (A, when A wins the race below).
    const log = [said(started)];
    let code = 3;
    let resumes = 0;
    let args = ["resume", runId, "--no-interactive"];
    let raced = false;
    let at = b; // the directory of the process that went on
    while (code === 3 && resumes < 8) {
      let run: Invocation;
      if (raced || !args.includes("--decisions")) run = await runTeam(env, at, pkg, args, runEnv);
      else {
        // The same resume from A at the same moment (two reviewers, or two machines' sweep):
        // one process takes the run and goes on; the other runs nothing and says why.
        raced = true;
        const fromA = args.map((arg, i) => (args[i - 1] === "--decisions" ? resolve(b, arg) : arg));
        const both = await Promise.all([runTeam(env, b, pkg, args, runEnv), runTeam(env, a, pkg, fromA, runEnv)]);
        const refused = both.filter((r) => r.code === 2);
        log.push(`$ ${args.join(" ")} (B and A at once)\n${both.map(said).join("\n---\n")}`);
        expect(refused.length, log.join("\n---\n")).toBe(1);
        expect(refused[0]!.stderr).toMatch(/resumed by another process meanwhile|is not waiting for review \(status: running\)/);
        run = both.find((r) => r.code !== 2)!;
        at = run === both[0] ? b : a;
      }
      log.push(`$ ${args.join(" ")}\n${said(run)}`);
      code = run.code;
      if (code !== 3) break;
      const waiting = JSON.parse(run.stdout) as { decisions_file: string; resume: string };
      const file = resolve(at, waiting.decisions_file);
      expect(file.startsWith(at), waiting.decisions_file).toBe(true);
      decide(file, () => 99, () => ({ approve: "approve", other: "approve" }));
      args = waiting.resume.split(" ").slice(1);
      resumes++;
    }
    const transcript = log.join("\n---\n");
    expect(code, transcript).toBe(0);
    expect(resumes, transcript).toBeGreaterThanOrEqual(1);
    expect(stateFiles(a), transcript).toEqual([]);
    expect(stateFiles(b), transcript).toEqual([]);
    // A sees the finished run in the database; without the URL it is found nowhere.
    const again = await runTeam(env, a, pkg, ["resume", runId, "--no-interactive"], runEnv);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`run ${runId} is not waiting for review (status: done)`);
    const elsewhere = await runTeam(env, a, pkg, ["resume", runId, "--no-interactive"], { ...runEnv, DATABASE_URL: "" });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`not found: ${join(a, ".envelope-runs", `${runId}.json`)}`);
    const swept = await runTeam(env, b, pkg, ["sweep"], runEnv);
    expect(swept.code, said(swept)).toBe(0);
    expect(swept.stderr).toContain("No gate is past its deadline.");
  }, 900_000);

  it("two workers writing rows into one workspace at once lose none; a row's version is compare-and-set", async (context) => {
    if (database === undefined) return context.skip();
    const fixture = join(ROOT, "test/fixtures/valid/outbound-lead-desk.envelope.json");
    const workers = ["worker-1", "worker-2"].map((w) => join(work, w, "outbound-lead-desk"));
    let pkg = "";
    for (const dir of workers) ({ pkg } = await exportedProject<Definition>(fixture, "crewai", dir));
    const runEnv = { DATABASE_URL: databases!.create("crewai_workspace") };
    const perWorker = 40;
    const files = workers.map((dir, w) => {
      const rows = Array.from({ length: perWorker }, (_, i) => ({ email: `w${w}-${i}@example.com`, company: `Co ${w}-${i}`, status: "new" }));
      const file = join(dir, "leads.json");
      writeFileSync(file, JSON.stringify(rows));
      return file;
    });
    const imports = await Promise.all(workers.map((dir, w) => runTeam(env, dir, pkg, ["workspace", "import", "leads", files[w]!], runEnv)));
    for (const run of imports) expect(run.code, said(run)).toBe(0);
    const listed = await runTeam(env, workers[0]!, pkg, ["workspace", "export", "leads", "--show-pii"], runEnv);
    expect(listed.code, said(listed)).toBe(0);
    const emails = (JSON.parse(listed.stdout) as Array<{ id: string }>).map((r) => r.id).sort();
    expect(emails).toEqual(workers.flatMap((_, w) => Array.from({ length: perWorker }, (_, i) => `w${w}-${i}@example.com`)).sort());
    for (const dir of workers) expect(existsSync(join(dir, ".envelope-workspace.sqlite3")), dir).toBe(false);

    // Both workers edit one row at the version both read (1): one write wins, the other conflicts.
    const edits = await Promise.all(workers.map((dir, w) => runTeam(env, dir, pkg, ["workspace", "edit", "leads", "w0-0@example.com", `status=${w ? "enriched" : "disqualified"}`, "--version", "1"], runEnv)));
    const outcomes = edits.map((run) => run.code).sort();
    expect(outcomes, edits.map(said).join("\n---\n")).toEqual([0, 1]);
    const loser = edits.find((run) => run.code !== 0)!;
    expect(`${loser.stdout}${loser.stderr}`).toContain("changed since version 1");
  }, 600_000);
});
