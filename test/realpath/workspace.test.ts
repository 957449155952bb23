// Issue 19, workspace documents on the real path: an exported team's agents read and write
// the store through their tools (driven by the scripted model), people through the runner's
// `workspace` commands, and `watch --once` runs the team or only notifies when a trigger
// fires. Asserted from the outside: the runner's commands and their output, exit codes, the
// requests that reached the scripted model server (tool results included) and the posts of
// the notify webhook. Nothing here is specific to one target but the list of targets.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { exportedProject, runArgs, runTeam, scriptedReply, serverRun, userText } from "./harness.js";
import { type ChatRequest, startModelServer, textOf } from "./model-server.js";

// event-signup-desk: attendees (email is the id and pii, organiser_note and checked_in are
// people's, status is both's) for the screener; speaker-queue (talk_id is people's id,
// speaker_email pii, title and status both's) for the brief writer; speaker-queue's status
// `approved` runs the team, `rejected` notifies.
const FIXTURE = join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json");
const gate = e2eGate();
/** What shows pii columns unmasked, in a listing, a row and an export. */
const PII_FLAG = "--show-pii";

/** The tool calls of one conversation (a request's messages) to the tool `name`, as parsed arguments. */
const callsTo = (request: ChatRequest, name: string) => request.messages.flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name === name));
const offers = (request: ChatRequest, name: string) => request.tools?.some((t) => t.function.name === name) ?? false;
/** Every tool result the model was sent, in any request. */
const toolResults = (requests: ChatRequest[]) => [...new Set(requests.flatMap((r) => r.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content))))];

describe.runIf(gate.run).each(["crewai", "langgraph"])("workspace documents on the real path: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  /** The exported project, a store of its own in a temp dir, and the runner's `workspace` command. */
  async function project(name: string) {
    const work = mkdtempSync(join(tmpdir(), `envelope-realpath-workspace-${name}-${target}-`));
    const dir = join(work, "event-signup-desk");
    const exported = await exportedProject(FIXTURE, target, dir);
    const store = { ENVELOPE_WORKSPACE_DB: join(work, "store", "workspace.sqlite3") };
    return { dir, ...exported, store };
  }

  it("agents write rows through their tools; people's columns, undeclared statuses and stale shared writes are refused", async () => {
    const { dir, def, readme, pkg, store } = await project("tools");
    let runEnv: Record<string, string> = {};
    const workspace = (...args: string[]) => runTeam(env, dir, pkg, ["workspace", ...args], runEnv);
    // A person's edit while the model server answers (it blocks until the command is done).
    const editNow = (...args: string[]) => {
      const launcher = `import sys; sys.argv[0] = ${JSON.stringify(pkg)}; from ${pkg}.main import run; sys.exit(run())`;
      const done = spawnSync(env.python, ["-c", launcher, "workspace", "edit", ...args], {
        cwd: dir,
        env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: join(dir, ".home"), PYTHONPATH: join(dir, "src"), CREWAI_DISABLE_TELEMETRY: "true", CREWAI_TRACING_ENABLED: "false", OTEL_SDK_DISABLED: "true", LANGSMITH_TRACING: "false", ...runEnv },
        encoding: "utf8",
        timeout: 60_000,
      });
      if (done.status !== 0) throw new Error(`workspace edit failed: ${done.stdout}${done.stderr}`);
    };
    const attendeeWrites = [
      { rows: [{ data: { email: "ada@example.org", full_name: "Ada Lovelace", company: "Analytical Engines", status: "confirmed" } }, { data: { email: "bob@example.org", full_name: "Bob", status: "pending" } }] },
      { rows: [{ data: { email: "ada@example.org", organiser_note: "front row, please" } }] },
      { rows: [{ data: { email: "bob@example.org", status: "waitlisted" } }] },
    ];
    const server = await startModelServer((request) => {
      if (!request.response_format && offers(request, "write_attendees_rows")) {
        const next = attendeeWrites[callsTo(request, "write_attendees_rows").length];
        if (next) return { toolCalls: [{ name: "write_attendees_rows", arguments: next }] };
      }
      if (!request.response_format && offers(request, "write_speaker_queue_rows")) {
        if (!callsTo(request, "read_speaker_queue_row").length) return { toolCalls: [{ name: "read_speaker_queue_row", arguments: { id: "T1" } }] };
        const writes = callsTo(request, "write_speaker_queue_rows").length;
        if (writes === 0) {
          // The version the agent read; then a person changes the row before the agent writes.
          const read = request.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content)).find((t) => t.includes('"T1"'))!;
          const version = (JSON.parse(read) as { version: number }).version;
          editNow("speaker-queue", "T1", "title=Retitled by an organiser");
          return { toolCalls: [{ name: "write_speaker_queue_rows", arguments: { rows: [{ id: "T1", version, data: { title: "Retitled by the agent", brief: "A brief." } }] } }] };
        }
        if (writes === 1) return { toolCalls: [{ name: "write_speaker_queue_rows", arguments: { rows: [{ id: "T1", data: { title: "Retitled by the agent, no version" } }] } }] };
      }
      return scriptedReply(request, server.requests.length, 2);
    });
    closers.push(() => server.close());
    const { env: values, inputs } = serverRun(def, server.baseUrl);
    runEnv = { ...values, ...store };

    const proposed = await workspace("edit", "speaker-queue", "T1", "title=First title", "status=proposed", "speaker_email=grace@example.org");
    expect(proposed.code, proposed.stderr).toBe(0);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), runEnv);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

    // Each write was answered, and the answers reached the model.
    const results = toolResults(server.chats());
    const outcomes = results.flatMap((t) => (t.startsWith("[") && t.includes('"outcome"') ? (JSON.parse(t) as Array<{ row: string; outcome: string; message?: string }>) : []));
    expect(outcomes.filter((o) => o.outcome === "written").map((o) => o.row)).toEqual(["ada@example.org", "bob@example.org"]);
    const refused = outcomes.filter((o) => o.outcome === "refused");
    expect(refused.map((o) => o.row)).toEqual(["ada@example.org", "bob@example.org"]);
    expect(refused[0]!.message).toContain("organiser_note");
    expect(refused[0]!.message).toContain("people only");
    expect(refused[1]!.message).toContain("'waitlisted' is not a status");
    const conflicts = outcomes.filter((o) => o.outcome === "conflict");
    expect(conflicts.map((o) => o.row)).toEqual(["T1", "T1"]);

    // The store holds the agent's rows, not what it was refused; the person's edit stands.
    const listed = await workspace("list", "attendees", "--show-pii");
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^#1 ada@example\.org v1 .*full_name="Ada Lovelace".*status="confirmed"/);
    expect(lines[1]).toMatch(/^#2 bob@example\.org v1 .*status="pending"/);
    expect(listed.stdout).not.toContain("front row");
    expect(listed.stdout).not.toContain("waitlisted");
    const masked = await workspace("list", "attendees");
    expect(masked.stdout).not.toContain("example.org");
    expect(masked.stdout).not.toContain("Ada Lovelace");
    const talk = await workspace("show", "speaker-queue", "T1");
    const row = JSON.parse(talk.stdout) as { version: number; data: Record<string, unknown> };
    expect(row.version).toBe(2);
    expect(row.data.title).toBe("Retitled by an organiser");
    expect(row.data.brief).toBeUndefined();

    // A hard delete leaves none of the row's values in any file we keep: the store, and the
    // runs that held what the agents read of it (LangGraph's checkpoints), deleted whole.
    if (target === "langgraph") {
      // Runs hold its pii (the agents' tool calls): nothing is deleted without a choice.
      const asked = await workspace("delete", "attendees", "ada@example.org");
      expect(asked.code).toBe(2);
      expect(asked.stderr).toMatch(/1 stored runs \(\.langgraph_runs\/checkpoints\.sqlite\) hold pii values of 'ada@example\.org'.*Nothing deleted/);
      expect((await workspace("show", "attendees", "ada@example.org")).code).toBe(0);
    }
    const deleted = await workspace("delete", "attendees", "ada@example.org", "--purge-runs");
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain("ada@example.org: deleted");
    if (target === "langgraph") expect(deleted.stdout).toMatch(/deleted 1 stored runs holding its pii values \(\.langgraph_runs\/checkpoints\.sqlite\)/);
    const kept = [store.ENVELOPE_WORKSPACE_DB, join(dir, ".langgraph_runs", "checkpoints.sqlite"), join(dir, ".envelope-runs")].flatMap((path) =>
      !existsSync(path) ? [] : path.endsWith(".envelope-runs") ? readdirSync(path).map((f) => join(path, f)) : [path, `${path}-wal`].filter(existsSync),
    );
    expect(kept.length).toBeGreaterThan(0);
    for (const file of kept) expect(readFileSync(file).includes("Ada Lovelace"), file).toBe(false);
    expect((await workspace("list", "attendees", "--show-pii")).stdout).not.toContain("ada@example.org");
  }, 400_000);

  it("workspace import never stores an export's masks (it skips them and says so); a --show-pii export round-trips exactly, CSV and JSON", async () => {
    const { dir, pkg, store } = await project("roundtrip");
    const work = join(dir, "..");
    const files = join(work, "files");
    mkdirSync(files);
    const workspace = (where: Record<string, string>, ...args: string[]) => runTeam(env, dir, pkg, ["workspace", ...args], where);
    const ok = async (where: Record<string, string>, ...args: string[]) => {
      const r = await workspace(where, ...args);
      expect(r.code, `workspace ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
      return r;
    };
    type Row = { id: string; version: number; archived: boolean; data: Record<string, unknown> };
    /** Two commands at a time (each loads the framework: more at once only thrash 2 cores). */
    const inTurns = async <T>(tasks: Array<() => Promise<T>>) => {
      const results: T[] = [];
      for (let i = 0; i < tasks.length; i += 2) results.push(...(await Promise.all(tasks.slice(i, i + 2).map((t) => t()))));
      return results;
    };
    const docs = ["attendees", "speaker-queue"] as const;
    /** The whole document as the store holds it (archived rows too, pii shown). */
    const snapshot = async (where: Record<string, string>, doc: string) => JSON.parse((await ok(where, "export", doc, "--archived", PII_FLAG)).stdout) as Row[];
    const file = (name: string, rows: unknown) => {
      writeFileSync(join(files, name), JSON.stringify(rows));
      return join(files, name);
    };

    // People's rows, imported. A pii value a person typed as "***" is a value, not a mask;
    // a title with a comma, quotes and a line break, a fractional number, a boolean, an
    // archived row. (Commands of one store run one after another; exports, reads, at once.)
    await ok(store, "import", "attendees", file("people-attendees.json", [
      { email: "ada@example.org", full_name: "Ada Lovelace", company: "Analytical Engines", status: "confirmed", checked_in: true },
      { email: "anon@example.org", full_name: "***", status: "pending" },
    ]));
    await ok(store, "import", "speaker-queue", file("people-talks.json", [
      { talk_id: "T1", speaker_email: "grace@example.org", title: "Compilers", duration_min: 45, status: "proposed" },
      { id: "T2", archived: true, data: { speaker_email: "alan@example.org", title: 'Machines, "thinking"\nand more', duration_min: 1.5, status: "rejected" } },
    ]));
    const exported: Record<string, string> = {};
    const exports = docs.flatMap((doc) =>
      ["csv", "json"].flatMap((format) =>
        [false, true].map((shown) => () => {
          const name = `${doc}${shown ? "-shown" : ""}.${format}`;
          exported[name] = join(files, name);
          return ok(store, "export", doc, "--archived", "--format", format, "--out", exported[name], ...(shown ? [PII_FLAG] : []));
        }),
      ),
    );
    await inTurns(exports);
    const before = Object.fromEntries(docs.map((doc) => [doc, JSON.parse(readFileSync(exported[`${doc}-shown.json`]!, "utf8")) as Row[]]));
    expect(before["attendees"]!.map((r) => [r.id, r.data.full_name])).toEqual([["ada@example.org", "Ada Lovelace"], ["anon@example.org", "***"]]);
    expect(before["speaker-queue"]!.map((r) => [r.id, r.archived])).toEqual([["T1", false], ["T2", true]]);
    for (const [name, path] of Object.entries(exported)) {
      const text = readFileSync(path, "utf8");
      const values = name.startsWith("attendees") ? ["ada@example.org", "Ada Lovelace", "anon@example.org"] : ["grace@example.org", "alan@example.org"];
      for (const value of values) expect(text.includes(value), `${name}: ${value}`).toBe(name.includes("-shown"));
    }

    // A masked export imported back. attendees' id (email) is pii, so no row of it can be
    // addressed: each is refused, saying why, and nothing is written.
    for (const format of ["csv", "json"]) {
      const r = await workspace(store, "import", "attendees", exported[`attendees.${format}`]!);
      expect(r.code, `${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.match(/: refused: .*masked/g) ?? [], r.stderr).toHaveLength(2);
    }
    // speaker-queue's rows are addressed by talk_id (not pii): a person corrects a title in
    // the masked file; the import writes that, leaves each masked speaker_email as it is,
    // and says so.
    const csv = readFileSync(exported["speaker-queue.csv"]!, "utf8");
    expect(csv).toContain("Compilers");
    writeFileSync(exported["speaker-queue.csv"]!, csv.replace("Compilers", "Compilers revised"));
    const fromCsv = await ok(store, "import", "speaker-queue", exported["speaker-queue.csv"]!);
    expect(fromCsv.stderr).toMatch(/masked.*speaker_email|speaker_email.*masked/);
    expect(fromCsv.stdout).toMatch(/^T1: written \(version 2\)$/m);
    expect(fromCsv.stdout).toMatch(/^T2: written \(version 1\): no change$/m);
    const json = JSON.parse(readFileSync(exported["speaker-queue.json"]!, "utf8")) as Row[];
    json.find((r) => r.id === "T1")!.data.title = "Compilers, revised again";
    writeFileSync(exported["speaker-queue.json"]!, JSON.stringify(json));
    const fromJson = await ok(store, "import", "speaker-queue", exported["speaker-queue.json"]!);
    expect(fromJson.stderr).toMatch(/masked.*speaker_email|speaker_email.*masked/);
    const [talks, attendees] = await Promise.all(docs.toReversed().map((doc) => snapshot(store, doc)));
    expect(talks!.map((r) => [r.id, r.version, r.data.title, r.data.speaker_email])).toEqual([
      ["T1", 3, "Compilers, revised again", "grace@example.org"],
      ["T2", 1, 'Machines, "thinking"\nand more', "alan@example.org"],
    ]);
    expect(attendees).toEqual(before["attendees"]);

    // A --show-pii export imported into an empty store gives the same rows (ids, columns,
    // archived; the store's own fields are the new store's), and imported over the store it
    // came from changes nothing.
    const shape = (rows: Row[]) => rows.map((r) => ({ id: r.id, archived: r.archived, data: r.data }));
    await inTurns(
      ["csv", "json"].map((format) => async () => {
        const fresh = { ENVELOPE_WORKSPACE_DB: join(work, `restored-${format}`, "workspace.sqlite3") };
        for (const doc of docs) {
          const restored = await ok(fresh, "import", doc, exported[`${doc}-shown.${format}`]!);
          expect(restored.stderr).toBe("");
        }
        for (const doc of docs) expect(shape(await snapshot(fresh, doc)), `${doc} from ${format}`).toEqual(shape(before[doc]!));
      }),
    );
    const again = await ok(store, "import", "attendees", exported["attendees-shown.csv"]!);
    expect(again.stdout.trim().split("\n")).toEqual(["ada@example.org: written (version 1): no change", "anon@example.org: written (version 1): no change"]);
    expect(await snapshot(store, "attendees")).toEqual(before["attendees"]);
  }, 1_200_000);

  it("watch --once runs the team once for an approved talk, only notifies for a rejected one, and shows no pii", async () => {
    const { dir, def, readme, pkg, store } = await project("watch");
    const server = await startModelServer((request) => scriptedReply(request, server.requests.length, 2));
    closers.push(() => server.close());
    const posts: string[] = [];
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        posts.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", () => resolve()));
    closers.push(() => new Promise((r) => hook.close(r)));
    const { env: values, inputs } = serverRun(def, server.baseUrl);
    const runEnv = { ...values, ...store, ENVELOPE_WORKSPACE_WEBHOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` };
    const workspace = (...args: string[]) => runTeam(env, dir, pkg, ["workspace", ...args], runEnv);
    const traceFile = join(dir, "trace.jsonl");
    const watch = () => runTeam(env, dir, pkg, ["watch", "--once", "--", ...runArgs(dir, readme, inputs), "--trace", traceFile], runEnv);
    const pii = ["rejected-speaker@example.org", "approved-speaker@example.org"];
    const outputs: string[] = [];

    const rejected = await workspace("edit", "speaker-queue", "T2", "status=rejected", "title=A rejected talk", `speaker_email=${pii[0]}`);
    expect(rejected.code, rejected.stderr).toBe(0);
    const notified = await watch();
    outputs.push(notified.stdout, notified.stderr);
    expect(notified.code, notified.stderr).toBe(0);
    expect(notified.stdout).toMatch(/speaker-queue: row T2 has status=rejected \(notify\)/);
    expect(server.chats()).toEqual([]);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!)).toMatchObject({ document: "speaker-queue", column: "status", status: "rejected", row: { id: "T2" } });

    const approved = await workspace("edit", "speaker-queue", "T1", "status=approved", "title=An approved talk", `speaker_email=${pii[1]}`);
    expect(approved.code, approved.stderr).toBe(0);
    const ran = await watch();
    outputs.push(ran.stdout, ran.stderr);
    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/speaker-queue: row T1 has status=approved: running the team/);
    expect(ran.stdout).not.toContain("T2");
    // One run, and its task carries the triggering row (the approved talk, not the rejected one).
    const chats = server.chats();
    expect(chats.length).toBeGreaterThan(0);
    const triggered = chats.filter((r) => userText(r).includes('"id": "T1"') && userText(r).includes('"status": "approved"'));
    expect(triggered.length).toBeGreaterThan(0);
    const runStarts = triggered.filter((r) => !r.messages.some((m) => m.role === "assistant" || m.role === "tool"));
    expect(runStarts).toHaveLength(1);
    expect(chats.some((r) => userText(r).includes("A rejected talk"))).toBe(false);

    const again = await watch();
    outputs.push(again.stdout, again.stderr);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/running the team|\(notify\)/);
    expect(server.chats().length).toBe(chats.length);
    expect(posts).toHaveLength(1);

    // The model saw the triggering row's pii (its task needs it); the run's trace does not hold it.
    expect(triggered.some((r) => userText(r).includes(pii[1]!))).toBe(true);
    const trace = readFileSync(traceFile, "utf8");
    expect(trace).toContain('\\"id\\": \\"T1\\"');
    for (const value of pii) {
      for (const text of [...outputs, ...posts, trace]) expect(text).not.toContain(value);
    }
  }, 400_000);
});
