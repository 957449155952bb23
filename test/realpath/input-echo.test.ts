// Issue 34: what a person gives as a run's inputs is bounded where it is echoed. Both targets,
// the console script as its README runs it (content-studio): `--inputs @FILE` holding a 2 MB
// input name, and 5,000 more unknown names, is refused before any model call (exit 2) with
// problems that quote the name's start and length only and list at most 20 of them. The same
// rule bounds a gate's problems (gate-resume-values.test.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, runTeam, serverRun } from "./harness.js";
import { type ModelServer, startModelServer } from "./model-server.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/content-studio.envelope.json");
const HUGE = 2_000_000;
const gate = e2eGate();

describe.runIf(gate.run).each(["crewai", "langgraph"])("a 2 MB input name: %s", (target) => {
  let env: PythonEnv;
  let models: ModelServer | undefined;
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    await models?.close();
  });

  it("run refuses it, quoting its start and length, and lists at most 20 problems", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-input-echo-${target}-`)), "content-studio");
    const { def, pkg } = await exportedProject<Definition>(FIXTURE, target, dir);
    models = await startModelServer(() => ({ text: "unexpected" }));
    const { env: values, inputs } = serverRun(def, models.baseUrl);
    const given: Record<string, unknown> = { ...inputs, ["n".repeat(HUGE)]: 1 };
    for (let i = 0; i < 5_000; i++) given[`extra_${i}`] = i;
    writeFileSync(join(dir, "big-inputs.json"), JSON.stringify(given));

    const run = await runTeam(env, dir, pkg, ["--inputs", "@big-inputs.json"], values);
    expect(run.code, run.stderr.slice(0, 2000)).toBe(2);
    expect(run.stderr).toContain(`unknown input 'nnnnnnnn`);
    expect(run.stderr).toContain(`… (${HUGE} characters)`);
    expect(run.stderr).toMatch(/and \d+ more problems/);
    expect(run.stderr.length + run.stdout.length).toBeLessThan(6_000);
    expect(models.requests).toHaveLength(0);
  }, 400_000);
});
