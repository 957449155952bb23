// Issue 34: what a reviewer gives at a gate is bounded where it is echoed, and a secret's
// value in it is not stored. content-studio (one gate, onReject rerun, required secrets):
// - both targets, the console script: `resume --decisions FILE` whose action is 2 MB is
//   refused (exit 2) with a problem that quotes the action's start and length only;
// - LangGraph, `langgraph dev` in the exported project (its own langgraph.json) driven by the
//   langgraph-sdk client (gate_values_driver.py): a 2 MB action comes back in the gate's
//   problems bounded and is kept by no file under the server's .langgraph_api/; feedback
//   holding a secret's value reaches the rerun step's model as `[redacted]`, and neither the
//   thread's state and history nor any file under .langgraph_api/ holds the value.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, runArgs, runTeam, scriptedReply, serverRun, userText } from "./harness.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import { freePort } from "../helpers/free-port.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/content-studio.envelope.json");
const DRIVER = join(ROOT, "test/realpath/gate_values_driver.py");
const HUGE = 2_000_000;
const gate = e2eGate();

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe.runIf(gate.run).each(["crewai", "langgraph"])("a 2 MB action in a decisions file: %s", (target) => {
  let env: PythonEnv;
  let models: ModelServer | undefined;
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    await models?.close();
  });

  it("resume refuses it, quoting its start and length only", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-gate-values-${target}-`)), "content-studio");
    const { def, readme, pkg } = await exportedProject<Definition>(FIXTURE, target, dir);
    let n = 0;
    models = await startModelServer((request) => scriptedReply(request, ++n, 3));
    const { env: values, inputs } = serverRun(def, models.baseUrl);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), values);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
    const waiting = JSON.parse(run.stdout) as { decisions_file: string; resume: string };
    const file = resolve(dir, waiting.decisions_file);
    // CrewAI: {"gates": {gate: {"decisions": [...]}}}; LangGraph: {gate: [...]}.
    const decisions = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const lists = target === "crewai" ? Object.values(decisions.gates as Record<string, { decisions: Array<Record<string, string>> }>).map((g) => g.decisions) : (Object.values(decisions) as Array<Array<Record<string, string>>>);
    lists[0]![0]!.action = "x".repeat(HUGE);
    writeFileSync(file, JSON.stringify(decisions));

    const resumed = await runTeam(env, dir, pkg, waiting.resume.split(" ").slice(1), values);
    expect(resumed.code, resumed.stderr.slice(0, 2000)).toBe(2);
    expect(resumed.stderr).toContain(`… (${HUGE} characters)`);
    expect(resumed.stderr).toContain("unknown action 'xxxxxxxx");
    expect(resumed.stderr.length + resumed.stdout.length).toBeLessThan(5_000);
  }, 400_000);
});

describe.runIf(gate.run)("a gate resumed through langgraph dev with the SDK (issue 34)", () => {
  let env: PythonEnv;
  let models: ModelServer;
  let dev: ChildProcess | undefined;
  let log = "";
  let url = "";
  let dir = "";
  let pkg = "";
  let def: Definition;
  let values: Record<string, string> = {};
  let inputs: Record<string, unknown> = {};

  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-gate-values-dev-")), "content-studio");
    ({ def, pkg } = await exportedProject<Definition>(FIXTURE, "langgraph", dir));
    let n = 0;
    models = await startModelServer((request) => scriptedReply(request, ++n, 3));
    ({ env: values, inputs } = serverRun(def, models.baseUrl));
    const home = join(dir, ".home");
    mkdirSync(home, { recursive: true });
    const port = await freePort();
    dev = spawn(join(env.bin, "langgraph"), ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: dir,
      env: {
        PATH: `${env.bin}:${process.env.PATH}`,
        HOME: home,
        PYTHONPATH: join(dir, "src"),
        PYTHONDONTWRITEBYTECODE: "1",
        LANGGRAPH_NO_VERSION_CHECK: "true",
        LANGGRAPH_CLI_NO_ANALYTICS: "1",
        LANGSMITH_TRACING: "false",
        LANGCHAIN_TRACING_V2: "false",
        ...values,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, killed whole in afterAll
    });
    dev.stdout!.on("data", (d: Buffer) => (log += d.toString()));
    dev.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    for (;;) {
      if (await fetch(`${url}/ok`).then((r) => r.ok, () => false)) break;
      if (Date.now() - started > 180_000 || dev.exitCode !== null) throw new Error(`langgraph dev did not start:\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }, 1_800_000);

  /** Stops the server as Ctrl+C does, so it writes .langgraph_api/ (else killed after 60 s). */
  async function stopServer(): Promise<void> {
    if (dev?.pid === undefined || dev.exitCode !== null) return;
    const exited = new Promise((done) => dev!.once("exit", done));
    process.kill(-dev.pid, "SIGINT");
    const late = setTimeout(() => dev?.pid !== undefined && process.kill(-dev.pid, "SIGKILL"), 60_000);
    await exited;
    clearTimeout(late);
  }

  afterAll(async () => {
    if (dev?.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, "SIGKILL");
    await models?.close();
  });

  it("bounds the echo of a 2 MB action, and stores no secret value a reviewer typed", async () => {
    const secretName = def.requiredSecrets![0]!;
    const secret = values[secretName]!;
    expect(secret.length).toBeGreaterThanOrEqual(8); // long enough to be redacted
    const feedback = `Never print the password ${secret} in the article.`;
    const driver = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const child = spawn(env.python, [DRIVER, url, pkg, JSON.stringify(inputs), feedback], { cwd: dir, env: { PATH: `${env.bin}:${process.env.PATH}` }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
    });
    expect(driver.code, `${driver.stderr}\n${log.slice(-4000)}`).toBe(0);
    const report = JSON.parse(driver.stdout) as { refused: unknown[]; interrupted_still: boolean; problems: string[] | null; next: string[]; values: { status?: string }; history: unknown[] };

    // Protocol v2's input.respond (langgraph-sdk's), and a 9 MB run request: refused, the
    // gate still waiting (server_app.py's REFUSED_PATH, MAX_BODY).
    expect(report.refused).toEqual([403, 413]);
    expect(report.interrupted_still).toBe(true);

    // The 2 MB action: refused, its start and length quoted, nothing more.
    expect(report.problems, JSON.stringify(report.problems)?.slice(0, 500)).not.toBeNull();
    const problems = report.problems!.join("\n");
    expect(problems).toContain(`… (${HUGE} characters)`);
    expect(problems.length).toBeLessThan(1_000);
    // The run went on to the end with the good decisions.
    expect(report.values.status, JSON.stringify(report.values).slice(0, 500)).toBe("done");
    expect(report.next).toEqual([]);

    // The rerun step was handed the feedback, the secret's value redacted (README, Configure).
    const handed = models.chats().filter((r) => userText(r).includes("Never print the password"));
    expect(handed.length, "requests carrying the reviewer's feedback").toBeGreaterThan(0);
    for (const r of handed) {
      expect(userText(r)).toContain("Never print the password [redacted] in the article.");
      expect(userText(r)).not.toContain(secret);
    }
    // The thread's state and history, as the SDK reads them.
    const thread = JSON.stringify(report.history) + JSON.stringify(report.values);
    expect(thread).toContain("Never print the password [redacted]");
    expect(thread).not.toContain(secret);

    // What the server keeps on disk (checkpoints, runs, threads): written in full when it
    // stops (the checkpoints are not written while it runs).
    await stopServer();
    const kept = filesUnder(join(dir, ".langgraph_api"));
    expect(kept.some((f) => f.includes("checkpoint")), kept.join("\n")).toBe(true);
    const needle = Buffer.from(secret);
    const long = Buffer.from("x".repeat(10_000));
    for (const file of kept) {
      const bytes = readFileSync(file);
      expect(bytes.includes(needle), `${file} holds ${secretName}'s value`).toBe(false);
      expect(bytes.includes(long), `${file} holds the 2 MB action`).toBe(false);
    }
    const total = kept.reduce((sum, f) => sum + statSync(f).size, 0);
    expect(total, "bytes under .langgraph_api/").toBeLessThan(HUGE);
  }, 600_000);
});
