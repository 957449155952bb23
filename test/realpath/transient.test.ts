// Transient provider errors on the real path (issue 13 §3): the scripted server answers the
// first requests with 503, as an overloaded provider does; the run still finishes. Four
// failures outlast the OpenAI client's own two retries, so the framework's retry above it
// (LangGraph: the node's RetryPolicy; CrewAI: the agent's max_retry_limit) must take over.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Exchange, exportedProject, runArgs, runTeam, runValues, scriptedReply } from "./harness.js";
import { startModelServer } from "./model-server.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/weekly-pipeline-review.envelope.json");
const FAILURES = 4;

const gate = e2eGate();

describe.runIf(gate.run).each(["crewai", "langgraph"])("transient provider errors on the real path: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it(`${FAILURES} answers of 503 in a row are retried and the run finishes`, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-503-${target}-`)), "weekly-pipeline-review");
    const { def, readme, pkg } = await exportedProject(FIXTURE, target, dir);
    const exchanges: Exchange[] = [];
    let failed = 0;
    const server = await startModelServer((request) => {
      if (failed < FAILURES) {
        failed += 1;
        return { status: 503, error: "the scripted provider is overloaded" };
      }
      const n = exchanges.length + 1;
      const reply = scriptedReply(request, n, 2);
      exchanges.push({ n, request, reply });
      return reply;
    });
    closers.push(() => server.close());
    const { env: values, inputs } = runValues(def);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
      ...values,
      MODEL_OVERRIDE: "openai:realpath-model",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "dummy",
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(failed).toBe(FAILURES);
    expect(server.requests.length).toBeGreaterThan(FAILURES);
  }, 300_000);
});
