// Two gates waiting at once (as the parallel-gates fixture's): a resume value decides only the
// gate it names; the runner checks the environment before a resume applies anything; a thread
// said to wait with nothing left to run is reported stalled; every input problem is said at once.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, runCli, type RunnableGraph } from "../src/cli.js";
import { readResume, type GateState } from "../src/gates.js";
import { buildTeamGraph } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { approveAll, fakeTeam, runTeam } from "../src/testing.js";
import { pipeline, schemas } from "./demo-team.js";

const gate = pipeline.gates[0]!;

/** Steps a and b at once, each with its own gate; the final step from both. */
const team: TeamSpec = {
  ...pipeline,
  steps: [
    { key: "a", agent: "writer", label: "A", dependsOn: [], answersFrom: [], gatesBefore: [], gatesAfter: ["ga"] },
    { key: "b", agent: "writer", label: "B", dependsOn: [], answersFrom: [], gatesBefore: [], gatesAfter: ["gb"] },
    { key: "final", agent: "lead", label: "Finish", dependsOn: ["a", "b"], answersFrom: [], gatesBefore: ["ga", "gb"], gatesAfter: [] },
  ],
  gates: [
    { ...gate, name: "ga", afterStep: "a", triggersStep: "final" },
    { ...gate, name: "gb", afterStep: "b", triggersStep: "final" },
  ],
  variables: ["COMPANY_NAME"],
};

const RESULT = { summary: "done" };
const approveR1 = [{ record: "r1", action: "approve" }];

let dir = "";
const saved: Record<string, string | undefined> = {};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-pg-"));
  for (const name of ["ENVELOPE_RUNS_DIR", "COMPANY_NAME"]) saved[name] = process.env[name];
  process.env.ENVELOPE_RUNS_DIR = join(dir, "runs");
  process.env.COMPANY_NAME = "Acme";
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function waitingAtBoth(thread: string) {
  const fake = fakeTeam(team, RESULT);
  const graph = buildTeamGraph(team, schemas, { ...fake.options, env: { ...fake.env, COMPANY_NAME: "Acme" }, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: thread } };
  await graph.invoke({ topic: "cats" }, config);
  const state = await graph.getState(config);
  const pending = state.tasks.flatMap((t) => t.interrupts);
  expect(pending.map((i) => (i.value as { gate: string }).gate).sort()).toEqual(["ga", "gb"]);
  const gates = async () => (await graph.getState(config)).values.gates as Record<string, GateState>;
  return { graph, config, pending, gates, fake };
}

describe("a resume value while two gates wait", () => {
  it("without a gate decides nothing: LangGraph gives a plain value to every waiting gate, and record ids repeat", async () => {
    const { graph, config, gates } = await waitingAtBoth("plain");
    await graph.invoke(new Command({ resume: { decisions: approveR1 } }), config);
    const after = await gates();
    expect(after.ga!.records.map((r) => r.decision)).toEqual([null]);
    expect(after.gb!.records.map((r) => r.decision)).toEqual([null]);
    expect(after.gb!.problems[0]).toMatch(/^gate gb: the resume value does not name its gate/);
  });

  it("naming one gate decides that gate only; the other asks again, saying why", async () => {
    const { graph, config, gates } = await waitingAtBoth("named");
    await graph.invoke(new Command({ resume: { gate: "ga", decisions: approveR1 } }), config);
    const after = await gates();
    expect(after.ga!.records.map((r) => r.decision)).toEqual(["approve"]);
    expect(after.gb!.records.map((r) => r.decision)).toEqual([null]);
    expect(after.gb!.problems).toEqual(['gate gb: the resume value is for gate "ga", nothing applied; resume each waiting gate by its interrupt id with {"gate": "gb", "decisions": [...]}']);
  });

  it("keyed by interrupt id (the README's form) decides each gate with its own", async () => {
    const { graph, config, pending } = await waitingAtBoth("keyed");
    const resume = Object.fromEntries(pending.map((i) => { const name = (i.value as { gate: string }).gate; return [i.id!, { gate: name, decisions: name === "ga" ? approveR1 : [] }]; }));
    await graph.invoke(new Command({ resume }), config);
    const state = await graph.getState(config);
    const waiting = state.tasks.flatMap((t) => t.interrupts).map((i) => i.value as { gate: string; problems: string[] });
    expect(waiting).toMatchObject([{ gate: "gb", problems: [] }]);
    expect((state.values.gates as Record<string, GateState>).ga!.status).toBe("released");
  });

  it("testing.runTeam names each gate: the run finishes", async () => {
    const fake = fakeTeam(team, RESULT);
    const graph = buildTeamGraph(team, schemas, { ...fake.options, env: { ...fake.env, COMPANY_NAME: "Acme" }, checkpointer: new MemorySaver() });
    const done = await runTeam(graph, { topic: "cats" }, approveAll);
    expect(done.output).toMatchObject({ status: "done", result: RESULT });
  });

  it("readResume refuses a value naming another gate, or none, and reads one naming its own", () => {
    expect(readResume({ decisions: approveR1 }, "ga")).toHaveProperty("problem");
    expect(readResume({ gate: "gb", decisions: approveR1 }, "ga")).toHaveProperty("problem");
    expect(readResume({ gate: "ga", decisions: approveR1 }, "ga")).toEqual({ items: [{ record: "r1", action: "approve", feedback: "" }] });
  });
});

/** One runner command in a new "process", on the runs folder's checkpoints. */
async function cli(...argv: string[]) {
  const fake = fakeTeam(team, RESULT);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({ team, argv, graph: (checkpointer) => buildTeamGraph(team, schemas, { ...fake.options, env: process.env, checkpointer }), out: (t) => out.push(t), err: (t) => err.push(t), ask: async () => null });
  return { code, out: out.length ? (JSON.parse(out.join("\n")) as Record<string, unknown>) : undefined, err: err.join("\n"), tasks: fake.tasks };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("the runner with two gates waiting", () => {
  it("refuses a new run on a thread whose last run has not ended done, and takes one once it has", async () => {
    expect((await cli("run", "--topic", "cats", "--thread", "w", "--no-interactive")).code).toBe(EXIT.waiting);
    const again = await cli("run", "--topic", "dogs", "--thread", "w", "--no-interactive");
    expect(again.code).toBe(EXIT.problems);
    expect(again.err).toContain("thread w: its last run has not ended done (waiting): resume it (resume --thread w --decisions FILE), or start the new run without --thread");
    expect(again.tasks).toEqual([]);
    const both = file("both.json", '{"ga": [{"record": "r1", "action": "approve"}], "gb": [{"record": "r1", "action": "approve"}]}');
    expect((await cli("resume", "--thread", "w", "--no-interactive", "--decisions", both)).code).toBe(EXIT.ok);
    expect((await cli("run", "--topic", "dogs", "--thread", "w", "--no-interactive")).code).toBe(EXIT.waiting);
  });

  it("resumes the gate a decisions file names, the other waits on without a problem", async () => {
    expect((await cli("run", "--topic", "cats", "--thread", "t", "--no-interactive")).code).toBe(EXIT.waiting);
    const resumed = await cli("resume", "--thread", "t", "--no-interactive", "--decisions", file("d.json", '{"ga": [{"record": "r1", "action": "approve"}]}'));
    expect(resumed.code).toBe(EXIT.waiting);
    expect(resumed.out).toMatchObject({ status: "waiting", waiting: [{ gate: "gb", problems: [] }] });
    const done = await cli("resume", "--thread", "t", "--no-interactive", "--decisions", file("d2.json", '{"gb": [{"record": "r1", "action": "approve"}]}'));
    expect(done).toMatchObject({ code: EXIT.ok, out: { status: "done", result: RESULT } });
  });

  it("checks the environment before a resume applies anything: nothing released, the thread can still finish", async () => {
    expect((await cli("run", "--topic", "cats", "--thread", "env", "--no-interactive")).code).toBe(EXIT.waiting);
    delete process.env.COMPANY_NAME;
    const decisions = file("all.json", '{"ga": [{"record": "r1", "action": "approve"}], "gb": [{"record": "r1", "action": "approve"}]}');
    const refused = await cli("resume", "--thread", "env", "--no-interactive", "--decisions", decisions);
    expect(refused).toMatchObject({ code: EXIT.problems, err: "missing environment variables: COMPANY_NAME (see .env.example)", tasks: [] });
    const shown = await cli("show", "--thread", "env");
    expect(shown.out).toMatchObject({ status: "waiting", waiting: [{ gate: "ga" }, { gate: "gb" }] });
    // A decisions file's problems and the environment's are said together.
    const both = await cli("resume", "--thread", "env", "--no-interactive", "--decisions", file("bad.json", '{"ga": [{"record": "r9", "action": "approve"}]}'));
    expect(both.err.split("\n")).toEqual([expect.stringMatching(/gate ga: unknown record "r9"$/), "missing environment variables: COMPANY_NAME (see .env.example)"]);
    process.env.COMPANY_NAME = "Acme";
    expect(await cli("resume", "--thread", "env", "--no-interactive", "--decisions", decisions)).toMatchObject({ code: EXIT.ok, out: { status: "done", result: RESULT } });
  });

  it("reports a thread said to wait, with no gate asking and no step left, as stalled (exit 1)", async () => {
    const stuck: RunnableGraph = { invoke: async () => ({}), getState: async () => ({ values: { status: "waiting", halted: null }, next: [], tasks: [] }) };
    const err: string[] = [];
    const out: string[] = [];
    const code = await runCli({ team, argv: ["show", "--thread", "stuck"], graph: () => stuck, out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(code).toBe(EXIT.failed);
    expect(JSON.parse(out.join("\n"))).toMatchObject({ status: "stalled", waiting: [] });
    expect(err.join("\n")).toMatch(/^thread stuck: stalled: .*no gate is waiting and no step is left to run/);
  });

  it("names every input problem at once: a flag that is not JSON and a required input missing", async () => {
    const withCount: TeamSpec = { ...team, inputs: [...team.inputs, { key: "count", channel: "count", type: "number", required: true, enum: null, hasDefault: false, default: null, description: null }] };
    const err: string[] = [];
    const code = await runCli({ team: withCount, argv: ["run", "--count", "abc", "--no-interactive"], graph: () => ({ invoke: async () => { throw new Error("never run"); }, getState: async () => ({ values: {}, tasks: [] }) }), out: () => undefined, err: (t) => err.push(t) });
    expect(code).toBe(EXIT.problems);
    expect(err.join("\n").split("\n")).toEqual(['--count: expected number as JSON, got "abc"', "input topic: required"]);
  });
});
