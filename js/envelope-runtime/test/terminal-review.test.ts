// Gates reviewed at the terminal, as the Python runner asks (gate_terminal.py): record by record,
// an action by number or label, feedback for a rejection, `reset` taking the last answer back;
// the run goes on at once, and nobody answering leaves the decisions file.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, runCli } from "../src/cli.js";
import { addRound, newGateState, type GateSpec } from "../src/gates.js";
import { buildTeamGraph } from "../src/graph.js";
import { reviewAtTerminal } from "../src/terminal-review.js";
import { fakeTeam } from "../src/testing.js";
import { pipeline, schemas } from "./demo-team.js";

let dir = "";
let saved: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-terminal-"));
  saved = process.env.ENVELOPE_RUNS_DIR;
  process.env.ENVELOPE_RUNS_DIR = join(dir, "runs");
});
afterEach(() => {
  if (saved === undefined) delete process.env.ENVELOPE_RUNS_DIR;
  else process.env.ENVELOPE_RUNS_DIR = saved;
});

/** A reviewer typing `lines` (then end of input); what was asked is kept. */
function typing(lines: string[]) {
  const asked: string[] = [];
  const ask = async (prompt: string) => {
    asked.push(prompt);
    return lines.length ? lines.shift()! : null;
  };
  return { ask, asked };
}

async function cli(argv: string[], lines: string[]) {
  const fake = fakeTeam(pipeline, { summary: "done" });
  const out: string[] = [];
  const err: string[] = [];
  const reviewer = typing(lines);
  const code = await runCli({ team: pipeline, argv, ask: reviewer.ask, graph: (checkpointer) => buildTeamGraph(pipeline, schemas, { ...fake.options, checkpointer }), out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: (out.length ? JSON.parse(out.join("\n")) : undefined) as Record<string, unknown> | undefined, err: err.join("\n"), asked: reviewer.asked, tasks: fake.tasks };
}

describe("terminal review", () => {
  it("asks at each gate and goes on; a rejection's feedback reaches the rerun", async () => {
    const run = await cli(["run", "--topic", "cats", "--thread", "t"], ["nope", "2", "too long", "Approve"]);
    expect(run.code).toBe(EXIT.ok);
    expect(run.out).toMatchObject({ status: "done", result: { summary: "done" } });
    expect(run.asked).toEqual(["Action for r1: ", "Action for r1: ", "Feedback (why rejected): ", "Action for r2: "]);
    expect(run.err).toContain("Review gate review (decision) after step draft: 1 record(s).\nActions: [1] Approve  [2] Reject");
    expect(run.err).toContain("  Choose 1-2 or an action label.");
    expect(run.tasks).toEqual(["draft", "draft", "final"]);
    expect(existsSync(join(dir, "runs", "t.decisions.json"))).toBe(false);
  });

  it("leaves the decisions file when nobody answers, and resume without a file asks", async () => {
    const run = await cli(["run", "--topic", "cats", "--thread", "u"], []);
    expect(run.code).toBe(EXIT.waiting);
    expect(existsSync(join(dir, "runs", "u.decisions.json"))).toBe(true);
    const resumed = await cli(["resume", "--thread", "u"], ["1"]);
    expect(resumed).toMatchObject({ code: EXIT.ok, out: { status: "done" } });
  });

  it("asks nothing with --no-interactive", async () => {
    const run = await cli(["run", "--topic", "cats", "--thread", "v", "--no-interactive"], ["1"]);
    expect(run).toMatchObject({ code: EXIT.waiting, asked: [] });
    expect((await cli(["resume", "--thread", "v", "--no-interactive"], [])).code).toBe(EXIT.problems);
  });

  it("takes the last answer back with a reset action", async () => {
    const spec: GateSpec = { ...pipeline.gates[0]!, actions: [...pipeline.gates[0]!.actions, { label: "Undo", verb: "reset" }] };
    const gate = addRound(newGateState(), [{ title: "a" }, { title: "b" }]);
    const said: string[] = [];
    const items = await reviewAtTerminal(spec, gate, typing(["1", "undo", "2", "why", "approve"]).ask, (t) => said.push(t));
    expect(items).toEqual([
      { record: "r1", action: "reject", feedback: "why" },
      { record: "r2", action: "approve", feedback: "" },
    ]);
    expect(said).toContain("  title: a");
  });
});
