// What the command-line runner keeps beside a thread's checkpoints, as the Python runner does:
// the decisions file a waiting run gets (never written over a reviewer's work), the time a run
// has worked (timeout.runMs bounds it across resumes) and the lock that keeps a second process
// off a thread someone runs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSaver } from "../src/checkpoint.js";
import { EXIT, runCli, type RunnableGraph } from "../src/cli.js";
import { buildTeamGraph } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { fakeTeam } from "../src/testing.js";
import { pipeline, schemas } from "./demo-team.js";

let dir = "";
let saved: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-runner-files-"));
  saved = process.env.ENVELOPE_RUNS_DIR;
  process.env.ENVELOPE_RUNS_DIR = join(dir, "runs");
});
afterEach(() => {
  if (saved === undefined) delete process.env.ENVELOPE_RUNS_DIR;
  else process.env.ENVELOPE_RUNS_DIR = saved;
});

/** One command in a new "process"; `work` wraps the graph's invoke (a test's clock moves there). */
async function cli(team: TeamSpec, argv: string[], extra: { workClock?: () => number; work?: (invoke: () => Promise<unknown>, config: Record<string, unknown>) => Promise<unknown> } = {}) {
  const fake = fakeTeam(team, { summary: "done" });
  const out: string[] = [];
  const err: string[] = [];
  const graph = (checkpointer: FileSaver): RunnableGraph => {
    const built = buildTeamGraph(team, schemas, { ...fake.options, checkpointer });
    const work = extra.work;
    if (!work) return built;
    return { invoke: (input, config) => work(() => built.invoke(input as never, config), config), getState: (config) => built.getState(config) };
  };
  const code = await runCli({ team, argv, graph, workClock: extra.workClock, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.length ? (JSON.parse(out.join("\n")) as Record<string, unknown>) : undefined, err: err.join("\n"), tasks: fake.tasks };
}

const runs = (...parts: string[]) => join(dir, "runs", ...parts);
const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as unknown;
const write = (path: string, value: unknown) => writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));

describe("decisions file", () => {
  it("is written when gates wait, in the Python runner's shape, and applies as it is filled in", async () => {
    const run = await cli(pipeline, ["run", "--topic", "cats", "--thread", "d1"]);
    expect(run.code).toBe(EXIT.waiting);
    const path = runs("d1.decisions.json");
    expect(run.out).toMatchObject({ status: "waiting", decisions_file: path });
    expect(run.err).toContain(`fill in ${path}, then: resume --thread d1 --decisions ${path}`);
    // json.dumps(template, indent=2, ensure_ascii=False) + "\n", as review.py writes it.
    expect(readFileSync(path, "utf8")).toBe('{\n  "review": [\n    {\n      "record": "r1",\n      "fields": {\n        "title": "title 1"\n      },\n      "action": "",\n      "feedback": ""\n    }\n  ]\n}\n');

    // Given back blank: nothing applied, the gate waits again, the template rewritten.
    const blank = await cli(pipeline, ["resume", "--thread", "d1", "--decisions", path]);
    expect(blank.code).toBe(EXIT.waiting);
    expect(blank.tasks).toEqual([]);

    const filled = read(path) as { review: Array<Record<string, unknown>> };
    filled.review[0]!.action = "Approve";
    write(path, filled);
    const done = await cli(pipeline, ["resume", "--thread", "d1", "--decisions", path]);
    expect(done).toMatchObject({ code: EXIT.ok, out: { status: "done", result: { summary: "done" } } });
  });

  it("is never written over a reviewer's work it did not read; work on records no longer waiting is moved aside", async () => {
    expect((await cli(pipeline, ["run", "--topic", "cats", "--thread", "d2"])).code).toBe(EXIT.waiting);
    const path = runs("d2.decisions.json");
    // A reviewer fills in the runner's file while another file is given to resume (blank).
    const work = { review: [{ record: "r1", action: "", feedback: "half done" }] };
    write(path, work);
    mkdirSync(join(dir, "other"), { recursive: true });
    const other = join(dir, "other", "mine.json");
    write(other, { review: [] });
    const again = await cli(pipeline, ["resume", "--thread", "d2", "--decisions", other]);
    expect(again.code).toBe(EXIT.waiting);
    expect(again.err).toContain(`Kept ${path}: it holds filled-in decisions.`);
    expect(read(path)).toEqual(work);

    // r1 rejected (rerun): r2 waits now; the runner's file, not read, holds work on r1 only.
    write(path, { review: [{ record: "r1", action: "", feedback: "old notes" }] });
    write(other, { review: [{ record: "r1", action: "Reject", feedback: "again" }] });
    const rerun = await cli(pipeline, ["resume", "--thread", "d2", "--decisions", other]);
    expect(rerun.code).toBe(EXIT.waiting);
    expect(rerun.err).toContain(`Moved ${path} to ${path}.1: its decisions are on records no longer waiting.`);
    expect(read(`${path}.1`)).toEqual({ review: [{ record: "r1", action: "", feedback: "old notes" }] });
    expect(read(path)).toEqual({ review: [{ record: "r2", fields: { title: "title 1" }, action: "", feedback: "" }] });
  });

  it("of another thread is refused, naming it", async () => {
    expect((await cli(pipeline, ["run", "--topic", "cats", "--thread", "a"])).code).toBe(EXIT.waiting);
    expect((await cli(pipeline, ["run", "--topic", "dogs", "--thread", "b"])).code).toBe(EXIT.waiting);
    const wrong = await cli(pipeline, ["resume", "--thread", "a", "--decisions", runs("b.decisions.json")]);
    expect(wrong.code).toBe(EXIT.problems);
    expect(wrong.err).toBe(`decisions file ${runs("b.decisions.json")}: holds the decisions of thread b, not of a: resume b with it (or give it another name to use it here)`);
  });
});

describe("timeout.runMs", () => {
  const team: TeamSpec = { ...pipeline, runTimeoutMs: 1000 };

  it("counts a run's work across its resumes; a thread whose time is spent is not resumed (124)", async () => {
    let t = 0;
    const workClock = () => t;
    const work = (invoke: () => Promise<unknown>) => {
      t += 600;
      return invoke();
    };
    expect((await cli(team, ["run", "--topic", "cats", "--thread", "w1"], { workClock, work })).code).toBe(EXIT.waiting);
    expect(new FileSaver(runs("threads")).workedMs("w1")).toBe(600);
    const reject = join(dir, "reject.json");
    write(reject, { review: [{ record: "r1", action: "Reject" }] });
    // 400 ms left; this part takes 600 by the test's clock (nothing stops it in real time): 1200 kept.
    expect((await cli(team, ["resume", "--thread", "w1", "--decisions", reject], { workClock, work })).code).toBe(EXIT.waiting);
    expect(new FileSaver(runs("threads")).workedMs("w1")).toBe(1200);
    const approve = join(dir, "approve.json");
    write(approve, { review: [{ record: "r2", action: "Approve" }] });
    const late = await cli(team, ["resume", "--thread", "w1", "--decisions", approve], { workClock, work });
    expect(late).toMatchObject({ code: EXIT.timeout, tasks: [] });
    expect(late.err).toBe("thread w1: the team did not finish within 1000 ms of work (timeout.runMs, counted across a run and its resumes); no further model calls are made");
  });

  it("starts a new run on a thread afresh: its earlier run's time is not counted (as the graph's prepare and the Python runner do)", async () => {
    let t = 0;
    const workClock = () => t;
    const work = (ms: number) => (invoke: () => Promise<unknown>) => {
      t += ms;
      return invoke();
    };
    expect((await cli(team, ["run", "--topic", "cats", "--thread", "w3"], { workClock, work: work(600) })).code).toBe(EXIT.waiting);
    const approve = join(dir, "approve-w3.json");
    write(approve, { review: [{ record: "r1", action: "Approve" }] });
    expect((await cli(team, ["resume", "--thread", "w3", "--decisions", approve], { workClock, work: work(300) })).code).toBe(EXIT.ok);
    expect(new FileSaver(runs("threads")).workedMs("w3")).toBe(900);
    // The same thread, a new run once the last ended done: the whole of timeout.runMs again.
    expect((await cli(team, ["run", "--topic", "dogs", "--thread", "w3"], { workClock, work: work(100) })).code).toBe(EXIT.waiting);
    expect(new FileSaver(runs("threads")).workedMs("w3")).toBe(100);
  });

  it("gives a resume only what is left of it", async () => {
    const long: TeamSpec = { ...pipeline, runTimeoutMs: 600_000 };
    let t = 0;
    const workClock = () => t;
    const spend = (invoke: () => Promise<unknown>) => {
      t += 599_990;
      return invoke();
    };
    expect((await cli(long, ["run", "--topic", "cats", "--thread", "w2"], { workClock, work: spend })).code).toBe(EXIT.waiting);
    // A part that never finishes: only the run's deadline (10 ms left, not 600 000) ends it.
    const hang = (_invoke: () => Promise<unknown>, config: Record<string, unknown>) =>
      new Promise((_, reject) => (config.signal as AbortSignal).addEventListener("abort", () => reject(new Error("aborted"))));
    const approve = join(dir, "approve.json");
    write(approve, { review: [{ record: "r1", action: "Approve" }] });
    const stopped = await cli(long, ["resume", "--thread", "w2", "--decisions", approve], { workClock, work: hang });
    expect(stopped.code).toBe(EXIT.timeout);
    expect(new FileSaver(runs("threads")).workedMs("w2")).toBe(600_000);
  });
});

describe("thread lock", () => {
  it("lets one process at a time run or resume a thread, naming the holder", async () => {
    const [a, b] = await Promise.all([cli(pipeline, ["run", "--topic", "cats", "--thread", "L"]), cli(pipeline, ["run", "--topic", "dogs", "--thread", "L"])]);
    expect(a.code).toBe(EXIT.waiting);
    expect(b).toMatchObject({ code: EXIT.problems, tasks: [] });
    expect(b.err).toBe(`thread L: process ${process.pid} on ${hostname()} is running or resuming it (lock ${runs("threads", "L.lock")}); try again when it has finished`);
    expect(existsSync(runs("threads", "L.lock"))).toBe(false);
    expect((await cli(pipeline, ["show", "--thread", "L"])).out).toMatchObject({ status: "waiting", waiting: [{ gate: "review" }] });
  });

  it("takes over a lock whose process is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    mkdirSync(runs("threads"), { recursive: true });
    writeFileSync(runs("threads", "S.lock"), `${gone} ${hostname()}\n`);
    expect((await cli(pipeline, ["run", "--topic", "cats", "--thread", "S"])).code).toBe(EXIT.waiting);
    expect(existsSync(runs("threads", "S.lock"))).toBe(false);
  });

  it("takes over a leftover lock naming this process's own pid that this process does not hold (a restarted container)", async () => {
    mkdirSync(runs("threads"), { recursive: true });
    writeFileSync(runs("threads", "P.lock"), `${process.pid} ${hostname()}\n`);
    expect((await cli(pipeline, ["run", "--topic", "cats", "--thread", "P"])).code).toBe(EXIT.waiting);
    expect(existsSync(runs("threads", "P.lock"))).toBe(false);
  });

  it("takes over an empty lock file a process left when it died before writing its holder", async () => {
    mkdirSync(runs("threads"), { recursive: true });
    writeFileSync(runs("threads", "E.lock"), "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(runs("threads", "E.lock"), old, old);
    expect((await cli(pipeline, ["run", "--topic", "cats", "--thread", "E"])).code).toBe(EXIT.waiting);
    expect(existsSync(runs("threads", "E.lock"))).toBe(false);
  });

  it("says how to release a lock held on another host, whose process cannot be checked from here", async () => {
    mkdirSync(runs("threads"), { recursive: true });
    writeFileSync(runs("threads", "H.lock"), "4242 elsewhere.example\n");
    const run = await cli(pipeline, ["run", "--topic", "cats", "--thread", "H"]);
    expect(run).toMatchObject({ code: EXIT.problems, tasks: [] });
    const path = runs("threads", "H.lock");
    expect(run.err).toBe(`thread H: process 4242 on elsewhere.example is running or resuming it (lock ${path}); try again when it has finished, or, if process 4242 on host elsewhere.example is gone, remove ${path} to release it`);
    expect(readFileSync(path, "utf8")).toBe("4242 elsewhere.example\n");
  });
});
