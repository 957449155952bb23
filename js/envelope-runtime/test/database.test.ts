// The runner with DATABASE_URL: its runs in PostgreSQL (LangGraph.js's PostgresSaver), a gate
// paused in one command and resumed in another, a thread locked for one process at a time (an
// advisory lock, released with its connection), a sweep finding its team's threads there, and
// nothing written to the runs folder's threads/. Needs a server: ENVELOPE_TEST_DATABASE_URL
// (.ci/run starts one); without it these tests are skipped, loudly.
import { emptyCheckpoint } from "@langchain/langgraph";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, runCli } from "../src/cli.js";
import { openDatabaseSaver } from "../src/database.js";
import { databaseWhere, DatabaseStore, shownUrl } from "../src/workspace-store.js";
import { buildTeamGraph } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { fakeTeam } from "../src/testing.js";
import type { DocumentSpec } from "../src/workspace.js";
import { pipeline, schemas } from "./demo-team.js";

const url = process.env.ENVELOPE_TEST_DATABASE_URL;
if (!url) process.stderr.write("\n!!! database.test.ts SKIPPED: no ENVELOPE_TEST_DATABASE_URL (a PostgreSQL server's URL)\n");

/** A team of its own per test run: a sweep sees only its threads (the database outlives the run). */
const slug = `demo-${process.pid}-${Date.now().toString(36)}`;
const team: TeamSpec = { ...pipeline, slug, gates: pipeline.gates.map((g) => ({ ...g, timeout: { after: "1h", afterMs: 3_600_000, behaviour: "halt" as const } })) };

let dir = "";
const saved: Record<string, string | undefined> = {};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-database-"));
  for (const key of ["ENVELOPE_RUNS_DIR", "ENVELOPE_WORKSPACE_DIR", "DATABASE_URL"]) saved[key] = process.env[key];
  process.env.ENVELOPE_RUNS_DIR = join(dir, "runs");
  process.env.ENVELOPE_WORKSPACE_DIR = join(dir, "store");
  process.env.DATABASE_URL = url;
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

function commands() {
  const fake = fakeTeam(team, { summary: "done" });
  const out: string[] = [];
  const err: string[] = [];
  /** One command in a new "process": a graph built afresh on the database's checkpoints. */
  const run = async (...argv: string[]) => {
    out.length = 0;
    err.length = 0;
    const code = await runCli({ team, argv, now: fake.clock.now, graph: (checkpointer) => buildTeamGraph(team, schemas, { ...fake.options, checkpointer }), out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.length ? (JSON.parse(out.join("\n")) as Record<string, unknown>) : undefined, err: err.join("\n") };
  };
  return { run, fake };
}

const thread = (name: string) => `${name}-${slug}`;

describe.runIf(url)("runner on PostgreSQL (DATABASE_URL)", () => {
  it("pauses at a gate, says where the run is kept (no password), resumes in a new command to the end; no thread file written", async () => {
    const { run } = commands();
    const id = thread("t1");
    const paused = await run("run", "--topic", "cats", "--thread", id);
    expect(paused.code).toBe(EXIT.waiting);
    expect(paused.err).toContain(`thread ${id} (state: ${databaseWhere(url!)})`);
    const path = paused.out!.decisions_file as string;
    writeFileSync(path, JSON.stringify({ review: [{ record: "r1", action: "approve" }] }));
    const done = await run("resume", "--thread", id, "--decisions", path);
    expect(done.code, done.err).toBe(EXIT.ok);
    expect(done.out).toMatchObject({ thread: id, status: "done" });
    expect(existsSync(join(dir, "runs/threads")) ? readdirSync(join(dir, "runs/threads")) : []).toEqual([]);
    expect(readdirSync(join(dir, "runs"))).toEqual([`${id}.decisions.json`]);
  });

  it("one process at a time on a thread: another holding its lock is named; its lock goes with its connection", async () => {
    const { run } = commands();
    const id = thread("t2");
    const other = await openDatabaseSaver(url!, slug);
    try {
      expect(await other.lock(id)).toBeNull();
      const refused = await run("run", "--topic", "cats", "--thread", id);
      expect(refused.code).toBe(EXIT.problems);
      expect(refused.err).toBe(`thread ${id}: process ${process.pid} on ${hostname()} is running or resuming it (its lock in ${databaseWhere(url!)}); try again when it has finished`);
    } finally {
      await other.end();
    }
    expect((await run("run", "--topic", "cats", "--thread", id)).code).toBe(EXIT.waiting);
  });

  it("sweep finds this team's waiting threads in the database and applies a past deadline's timeout", async () => {
    const { run, fake } = commands();
    const id = thread("t3");
    expect((await run("run", "--topic", "cats", "--thread", id)).code).toBe(EXIT.waiting);
    fake.clock.advance(3_600_001);
    const swept = await run("sweep");
    expect(swept.code, swept.err).toBe(EXIT.ok);
    expect(swept.out).toEqual({ swept: expect.arrayContaining([{ thread: id, status: "halted", halted: "gate review: no decision within 1h (halt)", waiting: [] }]) });
    expect((swept.out!.swept as Array<{ thread: string }>).every((s) => s.thread.endsWith(slug))).toBe(true);
  });

  it("keeps a run's worked time in the database: a thread whose time is spent is not resumed", async () => {
    const { run } = commands();
    const id = thread("t4");
    expect((await run("run", "--topic", "cats", "--thread", id)).code).toBe(EXIT.waiting);
    const saver = await openDatabaseSaver(url!, slug);
    try {
      await saver.readWorked(id);
      saver.startWork(id, () => 0);
      await saver.stopWork(id, team.runTimeoutMs);
    } finally {
      await saver.end();
    }
    const late = await run("resume", "--thread", id, "--decisions", join(dir, "none.json"));
    expect(late.code).toBe(EXIT.timeout);
  });
});

const CONTACTS: DocumentSpec = {
  name: "contacts",
  type: "contact-list",
  columns: [
    { name: "email", owner: "agent", type: "string", id: true, pii: true },
    { name: "name", owner: "agent", type: "string", id: false, pii: true },
    { name: "status", owner: "both", type: "string", id: false, pii: false },
  ],
  statusValues: ["new", "done"],
  statusColumns: ["status"],
  triggers: [],
  agents: ["writer"],
};

describe.runIf(url)("the workspace on PostgreSQL (DATABASE_URL)", () => {
  const desk: TeamSpec = { ...team, workspace: [CONTACTS] };
  const people = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli({ team: desk, argv: ["workspace", ...argv], graph: () => ({ invoke: async () => ({}), getState: async () => ({ values: {}, tasks: [] }) }), out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("people's rows go to LangGraph.js's PostgresStore, none to the store's folder; delete --purge-runs deletes the runs in the database holding the row's pii", async () => {
    const email = `ann-${slug}@example.com`;
    const name = `Ann ${slug}`;
    expect(await people("edit", "contacts", email, `name=${name}`, "status=new")).toMatchObject({ code: 0 });
    expect(JSON.parse((await people("show", "contacts", email, "--show-pii")).out).data.name).toBe(name);
    expect(existsSync(join(dir, "store"))).toBe(false);
    const saver = await openDatabaseSaver(url!, slug);
    const foreign = await openDatabaseSaver(url!, `${slug}-other`);
    const held = thread("ann");
    const theirs = thread("theirs");
    try {
      await saver.put({ configurable: { thread_id: held, checkpoint_ns: "" } }, { ...emptyCheckpoint(), channel_values: { answers: { step: `read: {"name": "${name}"}` } }, channel_versions: { answers: 1 } }, { source: "loop", step: 1, parents: {} }, { answers: 1 });
      // Another team's run in the same database is not this team's to read or purge.
      await foreign.put({ configurable: { thread_id: theirs, checkpoint_ns: "" } }, { ...emptyCheckpoint(), channel_values: { answers: { step: name } }, channel_versions: { answers: 1 } }, { source: "loop", step: 1, parents: {} }, { answers: 1 });
      const refused = await people("delete", "contacts", email);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(held);
      expect(await people("delete", "contacts", email, "--purge-runs")).toMatchObject({ code: 0, out: expect.stringContaining(`${email}: deleted\ndeleted 1 stored runs holding its pii values`) });
      expect(await saver.getTuple({ configurable: { thread_id: held, checkpoint_ns: "" } })).toBeUndefined();
      expect(await foreign.getTuple({ configurable: { thread_id: theirs, checkpoint_ns: "" } })).toBeDefined();
    } finally {
      await saver.end();
      await foreign.end();
    }
    expect((await people("show", "contacts", email)).code).not.toBe(0);
  });
});

describe.runIf(url)("DatabaseStore: the workspace's namespaces in LangGraph.js's PostgresStore", () => {
  it("keeps labels it refuses (_, %) and finds a namespace's items by whole labels only (speaker, not speaker-queue)", async () => {
    const store = new DatabaseStore(url!);
    const root = `envelope_ws_${slug}%`;
    try {
      await store.put([root, "speaker"], "a", { n: 1 });
      await store.put([root, "speaker-queue"], "b", { n: 2 });
      await store.put([root, "_claims", "speaker"], "c", { n: 3 });
      expect((await store.search([root, "speaker"])).map((i) => [i.namespace, i.key])).toEqual([[[root, "speaker"], "a"]]);
      expect((await store.get([root, "_claims", "speaker"], "c"))?.namespace).toEqual([root, "_claims", "speaker"]);
      expect((await store.listNamespaces({ prefix: [root] })).sort()).toEqual([[root, "_claims", "speaker"], [root, "speaker"], [root, "speaker-queue"]]);
    } finally {
      await store.close();
    }
  });
});

describe("the database's URL in messages", () => {
  it("hides a password in the URL or its query", () => {
    expect(shownUrl("postgresql://app:s3cret@db.example:5432/runs?sslmode=require&password=other")).toBe("postgresql://app:***@db.example:5432/runs?sslmode=require&password=***");
    expect(shownUrl("host=db password=s3cret")).toBe("$DATABASE_URL");
    expect(databaseWhere("postgresql://app@db/runs")).toBe("PostgreSQL, postgresql://app@db/runs");
  });
});
