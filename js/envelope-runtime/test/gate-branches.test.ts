// Every way a gate leaves its wait, run offline through the team graph with the testing
// helpers (fake models by task, a test clock): a timeout that proceeds, halts or escalates to
// the manager (who approves, or rejects and the step reruns), a rejection that escalates (the
// manager revises), halts, or reruns until the round limit.
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { GateSpec } from "../src/gates.js";
import { buildTeamGraph } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { agent, pipeline, schemas } from "./demo-team.js";
import { approveAll, decideAll, drawnEdges, drawnNodes, fakeTeam, lettingTimeOut, runTeam, TestClock, type Reviewer } from "../src/testing.js";

const HOUR = 3_600_000;
const RESULT = { summary: "done" };

/** The demo team with its gate changed. */
const teamWith = (gate: Partial<GateSpec>): TeamSpec => ({ ...pipeline, gates: [{ ...pipeline.gates[0]!, ...gate }] });

type GateRecords = Array<{ id: string; round: number; decision: string | null; decidedBy: string | null }>;

/** Runs the demo team with `gate`, reviewed by what `reviewer` makes of the run's clock. */
async function run(gate: Partial<GateSpec>, reviewer: (clock: TestClock, team: TeamSpec) => Reviewer, answers: Record<string, unknown> = {}, change: Partial<TeamSpec> = {}) {
  const team = { ...teamWith(gate), ...change };
  const fake = fakeTeam(team, RESULT, answers);
  const graph = buildTeamGraph(team, schemas, { ...fake.options, checkpointer: new MemorySaver() });
  const done = await runTeam(graph, { topic: "cats" }, reviewer(fake.clock, team));
  const gateState = (done.values.gates as Record<string, { records: GateRecords; message: string | null }>).review!;
  return { ...done, tasks: fake.tasks, gate: gateState, graph };
}

/** Nobody decides the gate's first review before its deadline; every later review is approved. */
const late = (clock: TestClock, team: TeamSpec) => lettingTimeOut(team, "review", clock);
const always = (reviewer: Reviewer) => (): Reviewer => reviewer;

const timeout = (behaviour: "proceed" | "halt" | "escalate") => ({ timeout: { after: "1h", afterMs: HOUR, behaviour } });

describe("a gate's timeout", () => {
  it("is not reached by an empty resume before the deadline: the gate asks again, with its deadline", async () => {
    let asked = 0;
    const done = await run(timeout("halt"), always((review, waiting) => (++asked === 1 ? [] : approveAll(review, waiting))));
    expect(done.reviews.map((r) => r.round)).toEqual([1, 1]);
    expect(done.reviews[0]!.deadline).toBe(new Date(Date.parse(done.reviews[0]!.waiting_since!) + HOUR).toISOString());
    expect(done.output).toMatchObject({ status: "done", result: RESULT });
  });

  it("proceed: the undecided records are released as approved by the timeout", async () => {
    const done = await run(timeout("proceed"), late);
    expect(done.output).toMatchObject({ status: "done", halted: null, result: RESULT });
    expect(done.gate.records).toMatchObject([{ id: "r1", decision: "approve", decidedBy: "timeout" }]);
    expect(done.gate.message).toBe("gate review: no decision within 1h (proceed: 1 undecided record(s) released)");
    expect(done.tasks).toEqual(["draft", "final"]);
  });

  it("halt: the run halts and says why, the next step never runs", async () => {
    const done = await run(timeout("halt"), late);
    expect(done.output).toMatchObject({ status: "halted", halted: "gate review: no decision within 1h (halt)", result: null });
    expect(done.tasks).toEqual(["draft"]);
    expect(done.reviews).toHaveLength(1);
  });

  it("escalate: the step agent's manager decides each record (its approval releases the gate)", async () => {
    const done = await run(timeout("escalate"), late);
    expect(done.output).toMatchObject({ status: "done", halted: null, result: RESULT });
    expect(done.tasks).toEqual(["draft", "escalate:review", "final"]);
    expect(done.gate.records).toMatchObject([{ id: "r1", decision: "approve", decidedBy: "agent:lead" }]);
  });

  it("escalate: a record the manager leaves undecided is skipped by the timeout", async () => {
    const done = await run(timeout("escalate"), late, { "escalate:review": { decisions: [] } });
    expect(done.gate.records).toMatchObject([{ id: "r1", decision: "skip", decidedBy: "timeout" }]);
    // all_resolved: every record resolved releases the gate, with nothing approved.
    expect(done.output).toMatchObject({ status: "done", result: RESULT });
  });

  it("escalate: the manager's rejection is routed as the reviewers' would be (onReject rerun: the step runs again)", async () => {
    const done = await run(timeout("escalate"), late, { "escalate:review": { decisions: [{ record: "r1", action: "reject", feedback: "too vague" }] } });
    expect(done.tasks).toEqual(["draft", "escalate:review", "draft", "final"]);
    expect(done.reviews.map((r) => r.round)).toEqual([1, 2]);
    expect(done.output).toMatchObject({ status: "done", result: RESULT });
  });
  it("escalate: a manager's decision naming a record of an earlier round fails the run, its other decisions not dropped silently", async () => {
    // round 1 rejected (onReject rerun), round 2 left to time out: the manager names r1 and r2
    const reviewer = (clock: TestClock, team: TeamSpec): Reviewer => {
      const late = lettingTimeOut(team, "review", clock);
      return (review, waiting) => (review.round === 1 ? decideAll("Reject", "again")(review, waiting) : late(review, waiting));
    };
    const decisions = [{ record: "r2", action: "approve" }, { record: "r1", action: "approve" }];
    await expect(run({ ...timeout("escalate"), onReject: "rerun" }, reviewer, { "escalate:review": { decisions } })).rejects.toThrow("gate review: record r1 was reviewed already");
  });
});

describe("a gate's rejection", () => {
  it("escalate: the manager writes revised records, reviewed in a new round", async () => {
    const done = await run({ onReject: "escalate" }, always((review, waiting) => (review.round === 1 ? decideAll("Reject", "needs a date")(review, waiting) : approveAll(review, waiting))), { "revise:review": { records: [{ title: "revised" }] } });
    expect(done.tasks).toEqual(["draft", "revise:review", "final"]);
    expect(done.reviews.map((r) => [r.round, r.records])).toEqual([
      [1, [{ id: "r1", fields: { title: "title 1" } }]],
      [2, [{ id: "r2", fields: { title: "revised" } }]],
    ]);
    expect(done.output).toMatchObject({ status: "done", result: RESULT });
  });

  it("escalate: a graph with an escalation node draws it, routed from and back to its gate", async () => {
    const { graph } = await run({ onReject: "escalate" }, always(approveAll));
    expect(drawnNodes(graph)).toEqual(["draft", "escalate_review", "final", "finalize", "gate_review", "prepare", "released_review"].map((n) => (["draft", "final"].includes(n) ? `step_${n}` : n)).sort());
    expect(drawnEdges(graph)).toEqual(expect.arrayContaining(["gate_review -> escalate_review ?", "escalate_review -> gate_review ?"]));
  });

  it("halt: the run halts at the first rejection", async () => {
    const done = await run({ onReject: "halt" }, always(decideAll("reject")));
    expect(done.output).toMatchObject({ status: "halted", halted: "gate review: rejected r1 (onReject: halt)", result: null });
    expect(done.tasks).toEqual(["draft"]);
  });

  it("rerun: the step reruns, at most 3 rounds; then a gate that needs an approval halts the run", async () => {
    const done = await run({ onReject: "rerun", trigger: "any_approved" }, always(decideAll("reject", "again")));
    expect(done.reviews.map((r) => r.round)).toEqual([1, 2, 3]);
    expect(done.tasks).toEqual(["draft", "draft", "draft"]);
    expect(done.output).toMatchObject({ status: "halted", halted: "gate review: not released after 3 rounds, the most a gate runs (0 approved, 1 needed)" });
  });
});

describe("an escalation that would go to the gated step's own agent", () => {
  // The writer drafts the gated step and is the entry agent, reporting to nobody: its
  // escalation (its manager, else the entry agent) would be itself.
  const writerLeads: Partial<TeamSpec> = { entryAgent: "writer", agents: [agent("writer", { reports: ["lead"] }), agent("lead", { reportsTo: "writer" })] };
  const why = "the escalation would go to writer, the agent of step draft itself (it reports to nobody and is the first root), and nobody else can decide: run halted, no agent approves its own work";

  it("timeout escalate: the run halts and says why; nobody decides, the next step never runs", async () => {
    const done = await run(timeout("escalate"), late, {}, writerLeads);
    expect(done.output).toMatchObject({ status: "halted", halted: `gate review: no decision within 1h (escalate); ${why}`, result: null });
    expect(done.tasks).toEqual(["draft"]);
    expect(done.gate.records).toMatchObject([{ id: "r1", decision: null, decidedBy: null }]);
  });

  it("onReject escalate: the run halts at the rejection and says why; nobody revises the records", async () => {
    const done = await run({ onReject: "escalate" }, always(decideAll("Reject", "needs a date")), {}, writerLeads);
    expect(done.output).toMatchObject({ status: "halted", halted: `gate review: 1 record(s) rejected; ${why}`, result: null });
    expect(done.tasks).toEqual(["draft"]);
    expect(done.reviews).toHaveLength(1);
  });
});
