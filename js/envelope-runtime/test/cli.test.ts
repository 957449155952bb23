// The command-line runner as a user drives it: a run that pauses at a gate, a resume in a new
// process with a decisions file, and every mistake refused with a message naming its place
// (the flag, the input, the file, the gate), before anything runs, with the Python runner's
// exit codes.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSaver } from "../src/checkpoint.js";
import { EXIT, runCli, type RunnableGraph } from "../src/cli.js";
import { buildTeamGraph } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { fakeTeam } from "../src/testing.js";
import { pipeline, schemas } from "./demo-team.js";

const team: TeamSpec = { ...pipeline, inputs: [...pipeline.inputs, { key: "count", channel: "count", type: "number", required: false, enum: null, hasDefault: false, default: null, description: null }] };

let dir = "";
let saved: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-cli-"));
  saved = process.env.ENVELOPE_RUNS_DIR;
  process.env.ENVELOPE_RUNS_DIR = join(dir, "runs");
});
afterEach(() => {
  if (saved === undefined) delete process.env.ENVELOPE_RUNS_DIR;
  else process.env.ENVELOPE_RUNS_DIR = saved;
});

/** One command in a new "process": a graph built afresh on the runs folder's checkpoints. */
async function cli(...argv: string[]) {
  const fake = fakeTeam(team, { summary: "done" });
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({ team, argv, graph: (checkpointer) => buildTeamGraph(team, schemas, { ...fake.options, checkpointer }), out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.length ? (JSON.parse(out.join("\n")) as Record<string, unknown>) : undefined, err: err.join("\n"), tasks: fake.tasks };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("runner", () => {
  it("pauses at a gate (exit 3), refuses bad decisions naming each, resumes in a new process (exit 0)", async () => {
    const run = await cli("run", "--topic", "cats", "--thread", "t1");
    expect(run.code).toBe(EXIT.waiting);
    expect(run.out).toMatchObject({ thread: "t1", status: "waiting", waiting: [{ gate: "review", round: 1 }] });
    expect(run.err).toContain(`then: resume --thread t1 --decisions ${join(dir, "runs/t1.decisions.json")}`);

    const typo = await cli("resume", "--thread", "t1", "--decisions", file("typo.json", '{"reveiw": [{"record": "r1", "action": "approve"}], "review": [{"record": "r7", "action": "approve"}]}'));
    expect(typo.code).toBe(EXIT.problems);
    expect(typo.err).toContain('typo.json: no gate "reveiw" in this team (waiting: review)');
    expect(typo.err).toContain('typo.json: gate review: unknown record "r7"');
    expect(typo.tasks).toEqual([]);

    const notJson = await cli("resume", "--thread", "t1", "--decisions", file("bad.json", "approve all"));
    expect(notJson.code).toBe(EXIT.problems);
    expect(notJson.err).toMatch(/^decisions file .*bad\.json: not JSON/);
    const missing = await cli("resume", "--thread", "t1", "--decisions", join(dir, "none.json"));
    expect(missing.code).toBe(EXIT.problems);
    expect(missing.err).toMatch(/none\.json: cannot be read \(ENOENT\)/);
    const list = await cli("resume", "--thread", "t1", "--decisions", file("list.json", "[]"));
    expect(list.code).toBe(EXIT.problems);
    expect(list.err).toContain('expected {"<gate>"');

    const done = await cli("resume", "--thread", "t1", "--decisions", file("ok.json", '{"review": [{"record": "r1", "action": "Approve"}]}'));
    expect(done.err).toBe("");
    expect(done.code).toBe(EXIT.ok);
    expect(done.out).toMatchObject({ thread: "t1", status: "done", result: { summary: "done" }, waiting: [] });
    expect((await cli("resume", "--thread", "t1", "--decisions", file("ok.json", "{}"))).err).toBe("thread t1: no gate waiting for review (status: done)");
    expect((await cli("resume", "--thread", "t9", "--decisions", file("ok.json", "{}"))).err).toBe("thread t9: no such run");
  });

  it("keeps a secret a reviewer wrote out of the run's files", async () => {
    const saved = process.env.API_TOKEN;
    process.env.API_TOKEN = "sk-live-123";
    try {
      const secretTeam = { ...team, secrets: ["API_TOKEN"] };
      const fake = fakeTeam(secretTeam, { summary: "done" });
      const env = { ...fake.env, API_TOKEN: "sk-live-123" };
      const run = (...argv: string[]) => runCli({ team: secretTeam, argv, graph: (checkpointer) => buildTeamGraph(secretTeam, schemas, { ...fake.options, env, checkpointer }), out: () => undefined, err: () => undefined });
      expect(await run("run", "--topic", "cats", "--thread", "s1")).toBe(EXIT.waiting);
      expect(await run("resume", "--thread", "s1", "--decisions", file("s.json", '{"review": [{"record": "r1", "action": "reject", "feedback": "use sk-live-123"}]}'))).toBe(EXIT.waiting);
      // Every checkpoint and write in the thread's file, decoded.
      const saver = new FileSaver(join(dir, "runs/threads"));
      expect(readdirSync(join(dir, "runs/threads"))).toEqual(["s1.json"]);
      const stored = [...Object.values(saver.storage).flatMap((ns) => Object.values(ns).flatMap((cs) => Object.values(cs).flatMap(([c, m]) => [c, m]))), ...Object.values(saver.writes).flatMap((ws) => Object.values(ws).map(([, , v]) => v))];
      expect(stored.map((b) => Buffer.from(b).toString("utf8")).filter((t) => t.includes("sk-live-123"))).toEqual([]);
      const values = JSON.stringify(await buildTeamGraph(secretTeam, schemas, { ...fake.options, env, checkpointer: new FileSaver(join(dir, "runs/threads")) }).getState({ configurable: { thread_id: "s1" } }));
      expect(values).toContain("use {{API_TOKEN}}");
      expect(values).not.toContain("sk-live-123");
    } finally {
      if (saved === undefined) delete process.env.API_TOKEN;
      else process.env.API_TOKEN = saved;
    }
  });

  it("says a decisions file came after a gate's deadline, whose timeout applies instead", async () => {
    const timed: TeamSpec = { ...team, gates: team.gates.map((g) => ({ ...g, timeout: { after: "1h", afterMs: 3_600_000, behaviour: "halt" as const } })) };
    const fake = fakeTeam(timed, { summary: "done" });
    const err: string[] = [];
    const run = (...argv: string[]) => runCli({ team: timed, argv, now: fake.clock.now, graph: (checkpointer) => buildTeamGraph(timed, schemas, { ...fake.options, checkpointer }), out: () => undefined, err: (t) => err.push(t) });
    expect(await run("run", "--topic", "cats", "--thread", "late")).toBe(EXIT.waiting);
    fake.clock.advance(3_600_001);
    const path = file("late.json", '{"review": [{"record": "r1", "action": "approve"}]}');
    expect(await run("resume", "--thread", "late", "--decisions", path)).toBe(EXIT.halted);
    expect(err).toContain(`decisions file ${path}: gate review: given after its deadline (2026-01-01T01:00:00.000Z: 1h from 2026-01-01T00:00:00.000Z), not applied; the timeout applies (halt)`);
  });

  it("sweep applies the timeout of every gate past its deadline, and only those", async () => {
    const timed: TeamSpec = { ...team, gates: team.gates.map((g) => ({ ...g, timeout: { after: "1h", afterMs: 3_600_000, behaviour: "halt" as const } })) };
    const fake = fakeTeam(timed, { summary: "done" });
    const out: string[] = [];
    const run = (...argv: string[]) => runCli({ team: timed, argv, now: fake.clock.now, graph: (checkpointer) => buildTeamGraph(timed, schemas, { ...fake.options, checkpointer }), out: (t) => out.push(t), err: () => undefined });
    expect(await run("run", "--topic", "cats", "--thread", "old")).toBe(EXIT.waiting);
    fake.clock.advance(1_800_000);
    expect(await run("run", "--topic", "dogs", "--thread", "new")).toBe(EXIT.waiting);
    fake.clock.advance(1_800_001);
    out.length = 0;
    expect(await run("sweep")).toBe(EXIT.ok);
    expect(JSON.parse(out.join("\n"))).toEqual({ swept: [{ thread: "old", status: "halted", halted: "gate review: no decision within 1h (halt)", waiting: [] }] });
    out.length = 0;
    expect(await run("show", "--thread", "new")).toBe(EXIT.waiting);
  });

  it("sweep goes on past a thread whose resume fails, naming it, its message without the team's secrets, and exits 1", async () => {
    const saved = process.env.API_TOKEN;
    process.env.API_TOKEN = "sk-live-123";
    try {
      const timed: TeamSpec = { ...team, secrets: ["API_TOKEN"], gates: team.gates.map((g) => ({ ...g, timeout: { after: "1h", afterMs: 3_600_000, behaviour: "halt" as const } })) };
      const fake = fakeTeam(timed, { summary: "done" });
      const env = { ...fake.env, API_TOKEN: "sk-live-123" };
      const out: string[] = [];
      const err: string[] = [];
      let failing = false;
      const graph = (checkpointer: FileSaver): RunnableGraph => {
        const built = buildTeamGraph(timed, schemas, { ...fake.options, env, checkpointer });
        return {
          invoke: async (input, config) => {
            if (failing && (config as { configurable: { thread_id: string } }).configurable.thread_id === "a-bad") throw new Error("provider said: key sk-live-123 refused");
            return built.invoke(input as never, config);
          },
          getState: (config) => built.getState(config),
        };
      };
      const run = (...argv: string[]) => runCli({ team: timed, argv, now: fake.clock.now, graph, out: (t) => out.push(t), err: (t) => err.push(t) });
      expect(await run("run", "--topic", "cats", "--thread", "a-bad")).toBe(EXIT.waiting);
      expect(await run("run", "--topic", "dogs", "--thread", "b-good")).toBe(EXIT.waiting);
      fake.clock.advance(3_600_001);
      out.length = 0;
      err.length = 0;
      failing = true;
      expect(await run("sweep")).toBe(EXIT.failed);
      expect(JSON.parse(out.join("\n"))).toEqual({
        swept: [
          { thread: "a-bad", status: "failed", halted: null, waiting: ["review"] },
          { thread: "b-good", status: "halted", halted: "gate review: no decision within 1h (halt)", waiting: [] },
        ],
      });
      expect(err).toContain("thread a-bad: failed: Error: provider said: key {{API_TOKEN}} refused");
      expect(err.join("\n")).not.toContain("sk-live-123");
    } finally {
      if (saved === undefined) delete process.env.API_TOKEN;
      else process.env.API_TOKEN = saved;
    }
  });

  it("says why a run failed without the team's secret values (an error can echo a prompt)", async () => {
    const saved = process.env.API_TOKEN;
    process.env.API_TOKEN = "sk-live-123";
    try {
      const secretTeam = { ...team, secrets: ["API_TOKEN"] };
      const err: string[] = [];
      const graph = (): RunnableGraph => ({
        invoke: () => Promise.reject(new Error("provider said: key sk-live-123 refused")),
        // A new thread, as `run --thread` reads it first; the failure is then the run's.
        getState: () => Promise.resolve({ values: {}, next: [], tasks: [] }) as ReturnType<RunnableGraph["getState"]>,
      });
      expect(await runCli({ team: secretTeam, argv: ["run", "--topic", "cats", "--thread", "f1"], graph, out: () => undefined, err: (t) => err.push(t) })).toBe(EXIT.failed);
      expect(err).toEqual(["the run failed: Error: provider said: key {{API_TOKEN}} refused", "finished steps and decisions are kept; continue from the last finished step with: resume --thread f1"]);
    } finally {
      if (saved === undefined) delete process.env.API_TOKEN;
      else process.env.API_TOKEN = saved;
    }
  });

  it("goes on from the last finished step when a run that failed is resumed, its decisions kept (as in Python)", async () => {
    const fake = fakeTeam(team, { summary: "done" });
    let down = true;
    const modelFor: typeof fake.options.modelFor = (agent, choice, task) => {
      if (task === "final" && down) throw new Error("provider unreachable");
      return fake.options.modelFor(agent, choice, task);
    };
    const run = async (...argv: string[]) => {
      const err: string[] = [];
      const out: string[] = [];
      const code = await runCli({ team, argv, graph: (checkpointer) => buildTeamGraph(team, schemas, { ...fake.options, modelFor, checkpointer }), out: (t) => out.push(t), err: (t) => err.push(t) });
      return { code, err: err.join("\n"), out: out.length ? (JSON.parse(out.join("\n")) as Record<string, unknown>) : undefined };
    };
    expect((await run("run", "--topic", "cats", "--thread", "f2")).code).toBe(EXIT.waiting);
    const failed = await run("resume", "--thread", "f2", "--decisions", file("ok.json", '{"review": [{"record": "r1", "action": "approve"}]}'));
    expect(failed).toMatchObject({ code: EXIT.failed, err: expect.stringContaining("continue from the last finished step with: resume --thread f2") });
    expect(await run("resume", "--thread", "f2", "--decisions", file("ok.json", "{}"))).toMatchObject({ code: EXIT.problems, err: "thread f2 is not waiting for review: it stopped on an error; resume it without --decisions" });
    down = false;
    const tasksBefore = fake.tasks.length;
    const done = await run("resume", "--thread", "f2");
    expect(done).toMatchObject({ code: EXIT.ok, out: { thread: "f2", status: "done", result: { summary: "done" } } });
    // Only the failed step ran again: the draft and the gate's decision were kept.
    expect(fake.tasks.slice(tasksBefore)).toEqual(["final"]);
    expect(await run("resume", "--thread", "f2")).toMatchObject({ code: EXIT.problems, err: "thread f2: no gate waiting for review (status: done)" });
  });

  it("keeps the runs of two processes at once, each on its own thread", async () => {
    const [a, b] = await Promise.all([cli("run", "--topic", "cats", "--thread", "A"), cli("run", "--topic", "dogs", "--thread", "B")]);
    expect([a.code, b.code]).toEqual([EXIT.waiting, EXIT.waiting]);
    expect((await cli("show", "--thread", "A")).out).toMatchObject({ thread: "A", status: "waiting" });
    expect((await cli("show", "--thread", "B")).out).toMatchObject({ thread: "B", status: "waiting" });
  });

  it("refuses bad inputs and flags before any model call, naming each", async () => {
    const missing = await cli("run", "--count", "3");
    expect(missing).toMatchObject({ code: EXIT.problems, err: "input topic: required", tasks: [] });
    const typed = await cli("run", "--topic", "cats", "--count", "three");
    expect(typed).toMatchObject({ code: EXIT.problems, err: '--count: expected number as JSON, got "three"', tasks: [] });
    const wrongType = await cli("run", "--inputs", '{"topic": "cats", "count": "3"}');
    expect(wrongType).toMatchObject({ code: EXIT.problems, err: 'input count: expected number, got "3"', tasks: [] });
    expect((await cli("run", "--inputs", "{topic"))).toMatchObject({ code: EXIT.problems, tasks: [] });
    expect((await cli("run", "--inputs", "{topic")).err).toMatch(/^--inputs: not JSON/);
    expect((await cli("run", "--inputs", '{"topik": "cats"}')).err).toContain('--inputs: unknown input "topik"');
    const flag = await cli("run", "--topic", "cats", "--toppic", "dogs");
    expect(flag.code).toBe(EXIT.problems);
    expect(flag.err).toMatch(/^run: unknown flag --toppic \(inputs and flags: /);
    expect((await cli("run", "--topic"))).toMatchObject({ code: EXIT.problems, err: "--topic: needs a value" });
    expect((await cli("run", "--topic", "cats", "--model-context", "gpt"))).toMatchObject({ code: EXIT.problems, err: expect.stringMatching(/^--model-context: not JSON/) });
    expect(await cli("run", "--topic", "cats", "--model-context", '{"modle": "openai:gpt-4.1"}')).toMatchObject({ code: EXIT.problems, err: '--model-context: unknown field "modle" (fields: model, lead, writer)', tasks: [] });
  });

  it("says missing variables with the inputs' problems, before the thread's first checkpoint", async () => {
    const envTeam: TeamSpec = { ...team, secrets: ["ENVELOPE_TEST_TOKEN"], variables: ["ENVELOPE_TEST_REGION"] };
    const fake = fakeTeam(envTeam, { summary: "done" });
    const run = async (...argv: string[]) => {
      const err: string[] = [];
      const code = await runCli({ team: envTeam, argv, graph: (checkpointer) => buildTeamGraph(envTeam, schemas, { ...fake.options, checkpointer }), out: () => {}, err: (t) => err.push(t) });
      return { code, err: err.join("\n") };
    };
    const missing = "missing environment variables: ENVELOPE_TEST_TOKEN, ENVELOPE_TEST_REGION (see .env.example)";
    expect(await run("run", "--count", "3", "--thread", "e1")).toEqual({ code: EXIT.problems, err: `input topic: required\n${missing}` });
    expect(await run("run", "--topic", "cats", "--thread", "e2")).toEqual({ code: EXIT.problems, err: missing });
    // Nothing was kept of either run: a resume finds no such run.
    const threads = join(dir, "runs", "threads");
    expect(existsSync(threads) ? readdirSync(threads).filter((f) => !f.endsWith(".lock")) : []).toEqual([]);
    expect(fake.tasks).toEqual([]);
  });

  it("says a run halted, exit 4, though a gate beside the halted branch still asks (as the Python runner)", async () => {
    const err: string[] = [];
    const out: string[] = [];
    const graph = (): RunnableGraph => ({
      invoke: () => Promise.reject(new Error("not reached")),
      getState: async () => ({ values: { status: "halted", halted: "gate a: no decision within 1h (halt)" }, tasks: [{ interrupts: [{ id: "i-b", value: { gate: "b", round: 1 } }] }] }),
    });
    const code = await runCli({ team, argv: ["show", "--thread", "h1"], graph, out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(code).toBe(EXIT.halted);
    expect(JSON.parse(out.join("\n"))).toMatchObject({ thread: "h1", status: "halted", halted: "gate a: no decision within 1h (halt)" });
    expect(err).toEqual(["halted: gate a: no decision within 1h (halt)"]);
  });

  it("refuses an unknown command and a show or resume without its thread", async () => {
    expect(await cli("bogus")).toMatchObject({ code: EXIT.problems, err: expect.stringMatching(/^unknown command "bogus"/) });
    expect(await cli()).toMatchObject({ code: EXIT.problems, err: expect.stringMatching(/^a command is needed/) });
    expect(await cli("show")).toMatchObject({ code: EXIT.problems, err: "show: --thread ID is needed" });
    expect(await cli("resume", "--thread", "t1")).toMatchObject({ code: EXIT.problems, err: "thread t1: no such run" });
    expect((await cli("run", "--topic", "cats", "--thread", "t1")).code).toBe(EXIT.waiting);
    expect(await cli("resume", "--thread", "t1")).toMatchObject({ code: EXIT.problems, err: "resume: --decisions FILE is needed (or review at a terminal: --interactive)" });
  });
});
