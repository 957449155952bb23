// The team graph run offline with LangChain's fake chat models: a pipeline through a gate
// (rejected, rerun, approved), a hierarchy, a restart between interrupt and resume.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { FileSaver } from "../src/checkpoint.js";
import type { BaseMessage } from "@langchain/core/messages";
import { buildTeamGraph, deadlineMessage, resolveInputs, RunProblems, TeamRuntime, textOf, workedMs } from "../src/graph.js";
import { approveAll, decideAll, fakeTeam, runTeam } from "../src/testing.js";
import type { TeamSpec } from "../src/spec.js";
import { agent, pipeline, schemas } from "./demo-team.js";

function fakes(script: Record<string, string[]>) {
  const asked: Record<string, number> = {};
  return {
    asked,
    modelFor: (key: string) => {
      asked[key] = (asked[key] ?? 0) + 1;
      const answers = script[key]!;
      return new FakeListChatModel({ responses: [answers[Math.min(asked[key]! - 1, answers.length - 1)]!] });
    },
  };
}

describe("pipeline with a gate", () => {
  it("pauses, refuses a bad resume, reruns on reject, finishes on approve, across a restart", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "envelope-rt-")), "runs.json");
    const { modelFor, asked } = fakes({ writer: ['{"records": [{"title": "one"}]}', '{"records": [{"title": "two"}]}'], lead: ['{"summary": "done"}'] });
    const config = { configurable: { thread_id: "t" } };
    let graph = buildTeamGraph(pipeline, schemas, { modelFor, checkpointer: new FileSaver(file) });
    const first = (await graph.invoke({ topic: "cats" }, config)) as Record<string, unknown>;
    expect(first.__interrupt__).toBeDefined();
    let state = await graph.getState(config);
    expect(state.tasks[0]!.interrupts[0]!.value).toMatchObject({ gate: "review", records: [{ id: "r1", fields: { title: "one" } }] });
    await graph.invoke(new Command({ resume: { gate: "review", decisions: "nope" } }), config);
    state = await graph.getState(config);
    expect((state.tasks[0]!.interrupts[0]!.value as { problems: string[] }).problems[0]).toMatch(/expected \{"gate": "review", "decisions"/);
    // A new process: the gate still waits.
    graph = buildTeamGraph(pipeline, schemas, { modelFor, checkpointer: new FileSaver(file) });
    await graph.invoke(new Command({ resume: { gate: "review", decisions: [{ record: "r1", action: "reject", feedback: "better title" }] } }), config);
    state = await graph.getState(config);
    expect(state.tasks[0]!.interrupts[0]!.value).toMatchObject({ round: 2, records: [{ id: "r2", fields: { title: "two" } }] });
    const done = (await graph.invoke(new Command({ resume: { gate: "review", decisions: [{ record: "r2", action: "Approve" }] } }), config)) as Record<string, unknown>;
    expect(done).toMatchObject({ status: "done", result: { summary: "done" }, halted: null });
    expect(asked).toEqual({ writer: 2, lead: 1 });
  });

  it("refuses a run without its required input before any model call", async () => {
    const { modelFor, asked } = fakes({ writer: ["{}"], lead: ["{}"] });
    const graph = buildTeamGraph(pipeline, schemas, { modelFor, checkpointer: new MemorySaver() });
    await expect(graph.invoke({}, { configurable: { thread_id: "x" } })).rejects.toThrow(/topic/);
    await expect(graph.invoke({ topic: 3 }, { configurable: { thread_id: "y" } })).rejects.toThrow(/topic/);
    expect(asked).toEqual({});
  });
});

describe("inputs", () => {
  it("are checked all at once, defaults applied", () => {
    const team: TeamSpec = { ...pipeline, inputs: [...pipeline.inputs, { key: "tone", channel: "input:tone", type: "string", required: false, enum: ["calm", "warm"], hasDefault: true, default: "calm", description: null }] };
    expect(resolveInputs(team, { topic: "a" })).toEqual({ topic: "a", tone: "calm" });
    expect(() => resolveInputs(team, { "input:tone": "loud" })).toThrow(RunProblems);
    try {
      resolveInputs(team, { "input:tone": "loud" });
    } catch (error) {
      expect((error as RunProblems).problems).toEqual(["input topic: required", 'input tone: "loud" is not one of "calm", "warm"']);
    }
  });
});

describe("hierarchy", () => {
  it("runs the entry agent and validates its result", async () => {
    const team: TeamSpec = { ...pipeline, mode: "hierarchy", steps: [], gates: [], finalStep: null };
    const { modelFor } = fakes({ lead: ['Here: ```json\n{"summary": "ok"}\n```'], writer: ["x"] });
    const graph = buildTeamGraph(team, schemas, { modelFor, checkpointer: new MemorySaver() });
    expect(await graph.invoke({ topic: "t" }, { configurable: { thread_id: "h" } })).toMatchObject({ status: "done", result: { summary: "ok" } });
  });
});

describe("ask_ tools", () => {
  it("describe the report as the Python targets do, capabilities included", () => {
    const team: TeamSpec = { ...pipeline, mode: "hierarchy", agents: [agent("lead", { reports: ["writer"] }), agent("writer", { reportsTo: "lead", name: "Wren", title: "Staff Writer", role: "writer", capabilities: ["drafting", "editing"] })] };
    const [ask] = new TeamRuntime(team, schemas).tools(team.agents[0]!, {}, undefined, true);
    expect(ask!.name).toBe("ask_writer");
    expect(ask!.description).toBe("Delegate a task to your report Wren: Staff Writer (writer). Capabilities: drafting, editing. Returns the answer.");
  });
});

describe("a failing model", () => {
  it("fails the run with an error naming the agent and its task", async () => {
    // A provider that cannot be reached (FakeListChatModel's bindTools would copy it without the failure).
    class Down extends BaseChatModel {
      _llmType() {
        return "down";
      }
      async _generate(): Promise<never> {
        throw new Error("Connection error.");
      }
      override bindTools() {
        return this;
      }
    }
    const graph = buildTeamGraph(pipeline, schemas, { modelFor: () => new Down({}), checkpointer: new MemorySaver() });
    await expect(graph.invoke({ topic: "t" }, { configurable: { thread_id: "down" } })).rejects.toThrow(/^agent writer \(draft\): Connection error\.$/);
  });

  it("keeps the team's secret values out of the failure's text (a provider's error can echo the prompt)", async () => {
    class Echo extends BaseChatModel {
      _llmType() {
        return "echo";
      }
      async _generate(): Promise<never> {
        throw new Error("400: bad request for prompt 'token sk-live-123'");
      }
      override bindTools() {
        return this;
      }
    }
    const team: TeamSpec = { ...pipeline, secrets: ["API_TOKEN"] };
    const env = { ...fakeTeam(team, {}).env, API_TOKEN: "sk-live-123" };
    const graph = buildTeamGraph(team, schemas, { modelFor: () => new Echo({}), env, checkpointer: new MemorySaver() });
    const failure = await graph.invoke({ topic: "t" }, { configurable: { thread_id: "echo" } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/^Error: agent writer \(draft\): 400: bad request for prompt 'token \{\{API_TOKEN\}\}'$/);
    // Nor in what a log prints of it (util.inspect shows an error's cause and its stack).
    expect(inspect(failure)).not.toContain("sk-live-123");
  });
});

describe("timeout.runMs", () => {
  // A model that answers after `ms` (FakeListChatModel's own sleep).
  const slow = (fake: ReturnType<typeof fakeTeam>, ms: number): typeof fake.options.modelFor => (agentKey, choice, task) => {
    const model = fake.options.modelFor(agentKey, choice, task) as FakeListChatModel;
    model.sleep = ms;
    return model;
  };

  it("halts a run whose model work reaches it, wherever the graph runs (no runner needed)", async () => {
    const team: TeamSpec = { ...pipeline, runTimeoutMs: 150 };
    const fake = fakeTeam(team, { summary: "done" });
    const graph = buildTeamGraph(team, schemas, { ...fake.options, modelFor: slow(fake, 600), checkpointer: new MemorySaver() });
    const output = await graph.invoke({ topic: "t" }, { configurable: { thread_id: "slow" } });
    expect(output).toMatchObject({ status: "halted", halted: deadlineMessage(150), result: null });
  });

  it("does not count a reviewer's time", async () => {
    const team: TeamSpec = { ...pipeline, runTimeoutMs: 400 };
    const fake = fakeTeam(team, { summary: "done" });
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "review" } };
    await buildTeamGraph(team, schemas, { ...fake.options, modelFor: slow(fake, 250), checkpointer: saver }).invoke({ topic: "t" }, config);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the reviewer reads
    const graph = buildTeamGraph(team, schemas, { ...fake.options, checkpointer: saver });
    const interruptId = (await graph.getState(config)).tasks.flatMap((t) => t.interrupts)[0]!.id!;
    const output = await graph.invoke(new Command({ resume: { [interruptId]: { gate: "review", decisions: [{ record: "r1", action: "approve" }] } } }), config);
    expect(output).toMatchObject({ status: "done", result: { summary: "done" } });
  });

  it("counts the work of a run and its resumes", async () => {
    const team: TeamSpec = { ...pipeline, runTimeoutMs: 400 };
    const fake = fakeTeam(team, { summary: "done" });
    const saver = new MemorySaver();
    const graph = buildTeamGraph(team, schemas, { ...fake.options, modelFor: slow(fake, 250), checkpointer: saver });
    const config = { configurable: { thread_id: "spans" } };
    await graph.invoke({ topic: "t" }, config);
    const waiting = await graph.getState(config);
    const work = (waiting.values as { work: Array<[number, number]> }).work;
    expect(work).toHaveLength(1);
    expect(workedMs(work)).toBeGreaterThanOrEqual(250);
    // The draft's 250 ms are spent; the final step gets the 150 left, and its model needs 250.
    const interruptId = waiting.tasks.flatMap((t) => t.interrupts)[0]!.id!;
    const output = await graph.invoke(new Command({ resume: { [interruptId]: { gate: "review", decisions: [{ record: "r1", action: "approve" }] } } }), config);
    expect(output).toMatchObject({ status: "halted", halted: deadlineMessage(400) });
  });

  // Two steps at once (a, b), then the final step from both.
  const parallel = (runTimeoutMs: number): TeamSpec => ({
    ...pipeline,
    runTimeoutMs,
    steps: [
      { key: "a", agent: "writer", label: "A", dependsOn: [], answersFrom: [], gatesBefore: [], gatesAfter: [] },
      { key: "b", agent: "writer", label: "B", dependsOn: [], answersFrom: [], gatesBefore: [], gatesAfter: [] },
      { key: "final", agent: "lead", label: "Finish", dependsOn: ["a", "b"], answersFrom: ["a", "b"], gatesBefore: [], gatesAfter: [] },
    ],
    gates: [],
  });

  it("counts the time of steps that ran at once once (as Python's add_spans does)", async () => {
    // a and b take 250 ms each, at once: 250 ms spent, so the final step's 150 fit in the 600.
    const team = parallel(600);
    const fake = fakeTeam(team, { summary: "done" });
    const modelFor: typeof fake.options.modelFor = (agentKey, choice, task) => slow(fake, task === "final" ? 150 : 250)(agentKey, choice, task);
    const graph = buildTeamGraph(team, schemas, { ...fake.options, modelFor, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "parallel" } };
    expect(await graph.invoke({ topic: "t" }, config)).toMatchObject({ status: "done", result: { summary: "done" } });
    // One span for a and b together, one for the final step.
    expect((await graph.getState(config)).values.work).toHaveLength(2);
  });

  it("counts a node's time by the monotonic clock, not the wall clock's jumps", async () => {
    const team = parallel(60_000);
    const fake = fakeTeam(team, { summary: "done" });
    const now = Date.now;
    let jump = 0;
    // The wall clock is set an hour ahead while each of a and b works.
    const modelFor: typeof fake.options.modelFor = (agentKey, choice, task) => {
      if (task !== "final") jump += 3_600_000;
      return fake.options.modelFor(agentKey, choice, task);
    };
    Date.now = () => now() + jump;
    try {
      const graph = buildTeamGraph(team, schemas, { ...fake.options, modelFor, checkpointer: new MemorySaver() });
      expect(await graph.invoke({ topic: "t" }, { configurable: { thread_id: "jump" } })).toMatchObject({ status: "done", result: { summary: "done" } });
    } finally {
      Date.now = now;
    }
  });

  it("leaves nothing of a node's deadline once it returned: its signal is never aborted later", async () => {
    const team: TeamSpec = { ...pipeline, runTimeoutMs: 100 };
    const runtime = new TeamRuntime(team, schemas);
    let seen: AbortSignal | undefined;
    let aborted = false;
    // A node's work that listens to its signal (as LangChain's model calls do) and returns at once.
    const work = async (config: { signal?: AbortSignal } | undefined) => {
      seen = config?.signal;
      seen?.addEventListener("abort", () => (aborted = true));
      return { answers: {} };
    };
    const bounded = (runtime as unknown as { bounded: (s: unknown, c: unknown, w: typeof work) => Promise<unknown> }).bounded.bind(runtime);
    expect(await bounded({ work: [] }, { signal: new AbortController().signal }, work)).toMatchObject({ answers: {}, work: [[expect.any(Number), expect.any(Number)]] });
    // Past the deadline: a timer left behind would abort it (and keep it, and what listens, until then).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([seen?.aborted, aborted]).toEqual([false, false]);
  });
});

describe("checkpoints", () => {
  it("hold the team's state only: no agent conversation, so no secret an agent saw or said", async () => {
    const team: TeamSpec = { ...pipeline, secrets: ["API_TOKEN"] };
    const fake = fakeTeam(team, { summary: "done" }, { draft: '{"records": [{"title": "sk-live-123"}]}', final: '{"summary": "used sk-live-123"}' });
    const saver = new MemorySaver();
    const graph = buildTeamGraph(team, schemas, { ...fake.options, env: { ...fake.env, API_TOKEN: "sk-live-123" }, checkpointer: saver });
    const run = await runTeam(graph, { topic: "t" });
    expect(run.output).toMatchObject({ status: "done", result: { summary: "used {{API_TOKEN}}" } });
    // Each agent is a createAgent graph run inside a node: checkpointed as a subgraph, its
    // messages (the model's answers before redaction) would be kept under a namespace of their own.
    expect(Object.values(saver.storage).flatMap((namespaces) => Object.keys(namespaces))).toEqual([""]);
    const stored = [...Object.values(saver.storage).flatMap((ns) => Object.values(ns).flatMap((cs) => Object.values(cs).flatMap(([c, m]) => [c, m]))), ...Object.values(saver.writes).flatMap((ws) => Object.values(ws).map(([, , v]) => v))];
    expect(stored.map((bytes) => Buffer.from(bytes).toString("utf8")).filter((text) => text.includes("sk-live-123"))).toEqual([]);
  });
});

describe("a reviewer's secret", () => {
  it("is redacted from the gate's state: feedback, and a refused value quoted back", async () => {
    const team: TeamSpec = { ...pipeline, secrets: ["API_TOKEN"] };
    const fake = fakeTeam(team, { summary: "done" });
    const graph = buildTeamGraph(team, schemas, { ...fake.options, env: { ...fake.env, API_TOKEN: "sk-live-123" }, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "r" } };
    await graph.invoke({ topic: "t" }, config);
    await graph.invoke(new Command({ resume: { gate: "review", decisions: "sk-live-123" } }), config);
    let state = await graph.getState(config);
    expect((state.tasks[0]!.interrupts[0]!.value as { problems: string[] }).problems[0]).toContain("{{API_TOKEN}}");
    await graph.invoke(new Command({ resume: { gate: "review", decisions: [{ record: "r1", action: "reject", feedback: "use sk-live-123" }] } }), config);
    state = await graph.getState(config);
    expect(JSON.stringify(state.values)).toContain("use {{API_TOKEN}}");
    expect(JSON.stringify(state.values)).not.toContain("sk-live-123");
  });
});

describe("task texts", () => {
  it("carry their data as the Python targets write it (json.dumps indent=2, ensure_ascii=False)", async () => {
    const seen: Array<{ task: string; text: string }> = [];
    const fake = fakeTeam(pipeline, { summary: "done" });
    const graph = buildTeamGraph(pipeline, schemas, { ...fake.options, checkpointer: new MemorySaver() });
    // The last human message of each model call, as the model receives it.
    const callbacks = [{ handleChatModelStart: (_llm: unknown, messages: BaseMessage[][], _run: string, _parent?: string, _extra?: unknown, _tags?: string[], metadata?: Record<string, unknown>) => void seen.push({ task: String(metadata?.envelope_task), text: textOf(messages[0]!.filter((m) => m.getType() === "human").at(-1)) }) }];
    let round = 0;
    await runTeam(graph, { topic: "Café ☕ 1e-7" }, (review, waiting) => (++round === 1 ? decideAll("reject", "needs a date")(review, waiting) : approveAll(review, waiting)), { callbacks });
    const texts = (task: string) => seen.filter((s) => s.task === task).map((s) => s.text);
    expect(texts("draft")[0]).toMatch(/^Task: Draft\n\nTeam: Demo\. A demo\.\n\nRun inputs \(JSON\):\n\{\n {2}"topic": "Café ☕ 1e-7"\n\}\n\n/);
    expect(texts("draft")[1]).toContain('rejected these records of your last answer, with their feedback (JSON):\n[\n  {\n    "id": "r1",\n    "title": "title 1",\n    "feedback": "needs a date"\n  }\n]');
    expect(texts("final")[0]).toContain('Records of step draft approved at gate review (JSON):\n[\n  {\n    "id": "r2",\n    "title": "title 1"\n  }\n]');
  });

  it("carry the workspace rows a served run was started for (watch --url puts them in its config)", async () => {
    const seen: string[] = [];
    const fake = fakeTeam(pipeline, { summary: "done" });
    const graph = buildTeamGraph(pipeline, schemas, { ...fake.options, checkpointer: new MemorySaver() });
    const callbacks = [{ handleChatModelStart: (_llm: unknown, messages: BaseMessage[][]) => void seen.push(textOf(messages[0]!.filter((m) => m.getType() === "human").at(-1))) }];
    const triggered = [{ document: "leads", trigger: { column: "status", status: "ready", action: "run" }, row: { id: "r-7", status: "ready" } }];
    await graph.invoke({ topic: "t" }, { configurable: { thread_id: "served", envelope_triggered: triggered }, callbacks });
    expect(seen[0]).toContain('Run inputs (JSON):\n{\n  "topic": "t"\n}\n\nWorkspace rows that triggered this run (JSON):\n[\n  {\n    "document": "leads",');
    expect(seen[0]).toContain('"id": "r-7"');
  });
});
