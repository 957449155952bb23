// Two runs of one team in one process (issue 14, Done when): crewai_driver.py calls the
// documented `<pkg>.main.main(argv)` from two threads at once, each run with its own input
// values (a distinct tag per run in every string input). Every request the scripted server
// sees belongs to one run only — it carries one run's tag, never both, and quotes no answer
// given to the other run — and both runs finish (exit 0, or 3 waiting at a gate).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type ModelServer, startModelServer, textOf } from "./model-server.js";
import { type Definition, type Exchange, exportedProject, markersIn, runInProject, runValues, scriptedReply } from "./harness.js";

const DRIVER = join(ROOT, "test/realpath/crewai_driver.py");
// One hierarchy, one pipeline with gates (both runs stop at the first gate, exit 3).
const FIXTURES = ["chargeback-responder", "parallel-gates"];
const RUNS = ["A", "B"] as const;
const tag = (run: string) => `run-${run}-5v`;

const gate = e2eGate();

describe.runIf(gate.run)("crewai: two concurrent runs in one process keep their own inputs", () => {
  let env: PythonEnv;
  const servers: ModelServer[] = [];
  const work = mkdtempSync(join(tmpdir(), "envelope-realpath-concurrent-"));
  beforeAll(() => {
    env = ensureEnv("crewai", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it.each(FIXTURES)("%s: every request carries one run's inputs only; both runs finish", async (name) => {
    const dir = join(work, name);
    const { def, pkg } = await exportedProject<Definition>(join(ROOT, `test/fixtures/valid/${name}.envelope.json`), "crewai", dir);
    const exchanges: Exchange[] = [];
    const server = await startModelServer((request) => {
      const n = exchanges.length + 1;
      const reply = scriptedReply(request, n, 3);
      exchanges.push({ n, request, reply });
      return reply;
    });
    servers.push(server);
    const { env: values, inputs } = runValues(def);
    // Each run: the same inputs, every string one tagged with its run (`--inputs JSON`, as documented).
    const argv = RUNS.map((run) => {
      const own = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, typeof v === "string" && !def.inputs?.[k]?.enum ? `${tag(run)} ${k}` : v]));
      return JSON.stringify(["--inputs", JSON.stringify(own)]);
    });
    expect(Object.values(inputs).some((v) => typeof v === "string"), "the fixture has a required string input").toBe(true);
    const out = join(dir, "concurrent.json");
    const run = await runInProject(env, dir, env.python, [DRIVER, "concurrent", pkg, out, ...argv], { ...values, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" });
    writeFileSync(join(dir, "realpath-exchanges.json"), JSON.stringify(exchanges, null, 1));
    const transcript = `exit ${run.code}\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-3000)}\n(requests: ${join(dir, "realpath-exchanges.json")})`;
    expect(run.code, transcript).toBe(0);
    const report = JSON.parse(readFileSync(out, "utf8")) as { codes: Array<number | null>; errors: string[] };
    expect(report.errors, transcript).toEqual([]);
    for (const code of report.codes) expect([0, 3], `exit codes ${report.codes.join(", ")}\n${transcript}`).toContain(code);

    // Who each request belongs to: the run whose tag it carries, else the run whose answers it quotes.
    const text = (e: Exchange) => e.request.messages.map((m) => textOf(m.content)).join("\n");
    const owner = new Map<number, string>();
    const problems: string[] = [];
    for (const e of exchanges) {
      const t = text(e);
      const tagged = RUNS.filter((r) => t.includes(tag(r)));
      if (tagged.length > 1) problems.push(`request ${e.n} carries the inputs of both runs`);
      const quoted = new Set(markersIn(t).flatMap((m) => (owner.has(m) ? [owner.get(m)!] : [])));
      const runs = new Set([...tagged, ...quoted]);
      if (runs.size > 1) problems.push(`request ${e.n} mixes runs ${[...runs].join(" and ")} (tags: ${tagged.join(",") || "none"}; quotes answers of ${[...quoted].join(",") || "none"})`);
      if (runs.size === 1) owner.set(e.n, [...runs][0]!);
    }
    for (const r of RUNS) if (![...owner.values()].includes(r)) problems.push(`no request of run ${r}`);
    expect(problems, transcript).toEqual([]);
  }, 600_000);
});
