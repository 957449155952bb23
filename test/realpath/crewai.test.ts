// The real-path harness on crewai (realpath.ts), and issue 34's run-time limit across a gate.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { decide, exportedProject, runArgs, runTeam, scriptedReply, serverRun } from "./harness.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import { describeRealPath } from "./realpath.js";

describeRealPath("crewai");

const RUN_MS = 30_000;
/** A draft step, a gate, a summary step; timeout.runMs bounds the working time of every process. */
const TIMED = {
  $schema: "https://schema.openenvelope.org/team/v1.json",
  name: "Timed Review",
  slug: "timed-review",
  version: "1.0.0",
  description: "Drafts claims about a topic, has a person review them, and summarises the approved ones.",
  inputs: { topic: { type: "string", description: "What to write about.", required: true } },
  outputs: { summary: { type: "string", description: "The approved claims in a paragraph." } },
  agents: [
    { key: "writer", name: "Wren", title: "Writer", role: "specialist", prompt: "You draft short factual claims about {{TOPIC}}." },
    { key: "editor", name: "Eddie", title: "Editor", role: "specialist", prompt: "You summarise approved claims in one paragraph." },
  ],
  pipeline: [
    { key: "draft", agentKey: "writer", label: "Draft the claims" },
    { key: "summary", agentKey: "editor", label: "Summarise the approved claims", dependsOn: ["draft"] },
  ],
  gates: [{ name: "claims-review", type: "content_generation", afterStep: "draft", triggersStep: "summary", fields: ["claim"], trigger: "any_approved", onReject: "halt" }],
  timeout: { runMs: RUN_MS },
};

const gate = e2eGate();

describe.runIf(gate.run)("crewai: timeout.runMs counts the time spent before a gate (issue 34)", () => {
  let env: PythonEnv;
  let server: ModelServer | undefined;
  beforeAll(() => {
    env = ensureEnv("crewai", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    await server?.close();
  });

  it("the run that stops at the gate saves the time it worked; the resumed run stops at the limit of the total", async () => {
    const work = mkdtempSync(join(tmpdir(), "envelope-realpath-runms-"));
    const file = join(work, "timed-review.envelope.json");
    writeFileSync(file, JSON.stringify(TIMED, null, 2));
    const dir = join(work, "timed-review");
    const { def, readme, pkg } = await exportedProject(file, "crewai", dir);
    // Before the gate the first model answer takes 12 s; after it every answer 20 s: more than
    // what is left of timeout.runMs when the first process's time counts, less than all of it
    // (the slack is for a loaded machine: CrewAI's own work counts too).
    let delayMs = 12_000;
    let n = 0;
    server = await startModelServer((request) => {
      const reply = { ...scriptedReply(request, ++n, 3), delayMs };
      if (delayMs === 12_000) delayMs = 0;
      return reply;
    });
    const { env: values, inputs } = serverRun(def, server.baseUrl);

    const started = Date.now();
    const first = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), values);
    const wall = Date.now() - started;
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(3);
    const waiting = JSON.parse(first.stdout) as { run_id: string; decisions_file: string; resume: string };
    const stateFile = resolve(dir, /\(state: (.+\.json)\)/.exec(first.stderr)![1]!);
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as { status: string; spent_ms: number };
    expect(saved.status).toBe("pending");
    // The real working time: at least the slow answer, at most the process's whole life.
    expect(saved.spent_ms).toBeGreaterThanOrEqual(12_000);
    expect(saved.spent_ms).toBeLessThan(Math.min(wall, RUN_MS));

    decide(resolve(dir, waiting.decisions_file), () => 1, () => ({ approve: "approve", other: "skip" }));
    delayMs = 20_000;
    const resumed = await runTeam(env, dir, pkg, waiting.resume.split(" ").slice(1), values);
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(124);
    expect(resumed.stderr).toContain(`Run deadline exceeded: the team did not finish within ${RUN_MS} ms (timeout.runMs)`);
    const ended = JSON.parse(readFileSync(stateFile, "utf8")) as { status: string; spent_ms: number };
    expect(ended.status).toBe("timed_out");
    expect(ended.spent_ms).toBeGreaterThanOrEqual(RUN_MS);
  }, 600_000);
});
