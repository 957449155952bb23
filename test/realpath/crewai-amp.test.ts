// Issue 39: a CrewAI export runs as CrewAI AMP runs a deployment, with no hand edit. AMP (and
// any CrewAI developer) builds the crew or Flow class with no arguments and kicks it off with
// the API's inputs: `SupportTierCrew().crew().kickoff(inputs=…)`, `ParallelGatesFlow()
// .kickoff(inputs=…)`. crewai_amp_driver.py does exactly that in a fresh process, the class
// found by CrewAI's own discovery (get_crews, get_flows), every model call sent to our
// scripted server. The crew's prompts must be byte for byte those of our runner's run with
// the same inputs; the flow must pause at its first gate with CrewAI's HumanFeedbackPending,
// its state saved where `resume` and `Flow.from_pending` find it; wrong inputs are refused,
// naming the input, before any model call. timeout.runMs holds without our runner too: past
// it no model call reaches the server and the kickoff fails naming timeout.runMs (a Flow's
// saved run then says timed_out).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, type Invocation, runArgs, runInProject, runTeam, scriptedReply, serverRun } from "./harness.js";
import { type ChatRequest, type ModelServer, startModelServer } from "./model-server.js";

const CREW = join(ROOT, "examples/support-tier.envelope.json");
const FLOW = join(ROOT, "test/fixtures/valid/parallel-gates.envelope.json");
const DRIVER = join(ROOT, "test/realpath/crewai_amp_driver.py");
/** A reviewer's answer per gate of parallel-gates: one action for every record. */
const ANSWERS = { "redline-approval": "Approve", "risk-triage": "Accept risk" };
/** timeout.runMs of the slow runs, and how long their model takes to answer: more than that. */
const SLOW_RUN_MS = 8_000;
const SLOW_ANSWER_MS = 10_000;

const gate = e2eGate();

interface Project {
  dir: string;
  pkg: string;
  readme: string;
  def: Definition;
  env: Record<string, string>;
  inputs: Record<string, unknown>;
}

/** The driver's one JSON line. */
function report(r: Invocation): Record<string, unknown> {
  const line = r.stdout.trim().split("\n").at(-1) ?? "";
  expect(line.startsWith("{"), `${r.stdout}\n${r.stderr}`).toBe(true);
  return JSON.parse(line) as Record<string, unknown>;
}

describe.runIf(gate.run)("a CrewAI export kicked off as CrewAI AMP does", () => {
  let env: PythonEnv;
  let server: ModelServer;
  const requests: ChatRequest[] = [];
  let answerMs = 0; // how long the server takes to answer (a slow model)
  const work = mkdtempSync(join(tmpdir(), "envelope-realpath-amp-"));

  async function project(fixture: string, name: string, runMs?: number): Promise<Project> {
    const dir = join(work, name);
    let path = fixture;
    if (runMs !== undefined) {
      const def = JSON.parse(readFileSync(fixture, "utf8")) as Definition & { timeout?: Record<string, number> };
      path = join(work, `${name}.envelope.json`);
      writeFileSync(path, JSON.stringify({ ...def, timeout: { ...def.timeout, runMs } }));
    }
    const { def, pkg, readme } = await exportedProject(path, "crewai", dir);
    return { dir, pkg, readme, def, ...serverRun(def, server.baseUrl) };
  }
  /** A kickoff whose model answers only after timeout.runMs: the requests that reached the server. */
  async function slowKickoff(p: Project, kind: "crew" | "flow"): Promise<{ out: Record<string, unknown>; reached: number }> {
    const from = requests.length;
    answerMs = SLOW_ANSWER_MS;
    try {
      const out = report(await amp(p, kind, p.inputs));
      return { out, reached: requests.length - from };
    } finally {
      answerMs = 0;
    }
  }
  const deadlineMessage = `RunTimeout: Run deadline exceeded: the team did not finish within ${SLOW_RUN_MS} ms (timeout.runMs)`;
  const amp = (p: Project, kind: "crew" | "flow", inputs: unknown): Promise<Invocation> =>
    runInProject(env, p.dir, env.python, [DRIVER, kind, JSON.stringify(inputs), JSON.stringify(ANSWERS)], p.env);

  beforeAll(async () => {
    env = ensureEnv("crewai", gate.python!);
    server = await startModelServer((request) => {
      requests.push(request);
      return { ...scriptedReply(request, requests.length, 2), delayMs: answerMs };
    });
  }, 1_800_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("a crew (hierarchy team: support-tier)", () => {
    let crew: Project;
    beforeAll(async () => {
      crew = await project(CREW, "support-tier");
    }, 120_000);

    it("`SupportTierCrew().crew().kickoff(inputs=…)` runs, its prompts those of the runner's run", async () => {
      const inputs = { ...crew.inputs, customer_name: "Ada {role} {{TICKET_TEXT}}" };
      const ours = requests.length;
      const runner = await runTeam(env, crew.dir, crew.pkg, runArgs(crew.dir, crew.readme, inputs), crew.env);
      expect(runner.code, runner.stderr).toBe(0);
      const theirs = requests.length;
      const r = await amp(crew, "crew", inputs);
      const out = report(r);
      expect(out.error, r.stderr).toBeUndefined();
      expect(out.result).toHaveProperty("resolution");
      // The first request of each run: the manager's prompt with the task and its inputs.
      expect(requests.length).toBeGreaterThan(theirs);
      expect(requests[theirs]!.messages).toEqual(requests[ours]!.messages);
      // The input as given: neither CrewAI's `{role}` nor our `{{NAME}}` is filled into a value.
      expect(JSON.stringify(requests[theirs]!.messages)).toContain(JSON.stringify("Ada {role} {{TICKET_TEXT}}").slice(1, -1));
    }, 300_000);

    it("wrong inputs are refused, naming each, before any model call", async () => {
      const from = requests.length;
      const out = report(await amp(crew, "crew", { customer_name: "Ada", priority_override: "soon" }));
      expect(out.error).toContain("InputsRefused");
      expect(out.error).toContain("input 'ticket_text' is required");
      expect(out.error).toContain("input 'priority_override': Input should be 'low', 'normal', 'high' or 'urgent'");
      expect(requests.length).toBe(from);
    }, 120_000);

    it("timeout.runMs holds: past it no model call is made and the kickoff fails naming it", async () => {
      const slow = await project(CREW, "support-tier-runms", SLOW_RUN_MS);
      const { out, reached } = await slowKickoff(slow, "crew");
      expect(out.error).toContain(deadlineMessage);
      // The manager's first call only (it delegates): its coworker's call is refused.
      expect(reached).toBeLessThanOrEqual(1);
    }, 300_000);
  });

  describe("a Flow (pipeline with gates: parallel-gates)", () => {
    let flow: Project;
    beforeAll(async () => {
      flow = await project(FLOW, "parallel-gates");
    }, 120_000);

    it("`ParallelGatesFlow().kickoff(inputs=…)` runs to its first gate and pauses there; from_pending resumes it until it is done", async () => {
      const from = requests.length;
      const out = report(await amp(flow, "flow", flow.inputs));
      expect(out.error).toBeUndefined();
      expect(out.pending).toBe(true);
      // Its two gates follow parallel steps: whichever is reached first pauses the run.
      expect(["redline-approval", "risk-triage"]).toContain(out.gate);
      expect(out.resumable).toBe(out.gate);
      const state = out.state as { id: string; team: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> };
      // The inputs as the runner keeps them (TeamInputs: the default filled in), not as state fields.
      expect(state.inputs).toEqual({ ...flow.inputs, data_classes: ["customer PII"] });
      expect(state).not.toHaveProperty("vendor_name");
      expect(state.team).toBe("parallel-gates");
      expect(Object.keys(state.outputs)).toContain("intake");
      expect(existsSync(join(flow.dir, ".envelope-runs", `${state.id}.json`))).toBe(true);
      // Saved as our runner saves a paused run, so `resume RUN_ID` and `sweep` take it.
      expect(out.saved_status).toBe("pending");
      // Resumed unconfigured, as AMP resumes it: configured from the saved inputs, the gate decided.
      expect(out.resume_error).toBeUndefined();
      const resumed = out.resumed as { gates: Record<string, { status: string }> };
      expect(resumed.gates[out.gate as string]!.status).toBe("released");
      expect(requests.slice(from).some((r) => JSON.stringify(r).includes("in-vendor_name"))).toBe(true);
      // Resumed as AMP resumes it until it no longer pauses: each resume before the last
      // paused (at the gate waiting beside), and the last ends the run done, both gates released.
      const resumes = out.resumes as { gate: string; pending: boolean; state: { status: string; gates: Record<string, { status: string }> } }[];
      expect(resumes[0]!.gate).toBe(out.gate);
      expect(resumes.slice(0, -1).map((r) => r.pending)).toEqual(resumes.slice(0, -1).map(() => true));
      const last = resumes.at(-1)!;
      expect(last.pending).toBe(false);
      expect(last.state.status).toBe("done");
      expect(Object.fromEntries(Object.entries(last.state.gates).map(([name, g]) => [name, g.status]))).toEqual({
        "redline-approval": "released",
        "risk-triage": "released",
      });
    }, 300_000);

    it("wrong inputs are refused, naming each, before any model call", async () => {
      const from = requests.length;
      const out = report(await amp(flow, "flow", { vendor_name: "Acme", annual_value_usd: "a lot" }));
      expect(out.error).toContain("InputsRefused");
      expect(out.error).toContain("input 'contract_text' is required");
      expect(out.error).toContain("input 'annual_value_usd': Input should be a valid number");
      expect(requests.length).toBe(from);
    }, 120_000);

    it("timeout.runMs holds: past it no model call is made, the kickoff fails naming it, the run is saved timed_out", async () => {
      const slow = await project(FLOW, "parallel-gates-runms", SLOW_RUN_MS);
      const { out, reached } = await slowKickoff(slow, "flow");
      expect(out.error).toContain(deadlineMessage);
      // The first step's call only: the steps after it are refused.
      expect(reached).toBeLessThanOrEqual(1);
      const runs = readdirSync(join(slow.dir, ".envelope-runs")).filter((name) => name.endsWith(".json"));
      expect(runs).toHaveLength(1);
      const saved = JSON.parse(readFileSync(join(slow.dir, ".envelope-runs", runs[0]!), "utf8")) as { status: string; message: string; spent_ms: number };
      expect(saved.status).toBe("timed_out");
      expect(`RunTimeout: ${saved.message}`).toContain(deadlineMessage);
      // The time it worked, so a resume's budget counts it.
      expect(saved.spent_ms).toBeGreaterThanOrEqual(SLOW_RUN_MS);
    }, 300_000);
  });
});
