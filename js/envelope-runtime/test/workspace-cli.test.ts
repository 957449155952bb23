// The runner's `workspace` commands, as the Python runners' (workspace.py's workspace_command):
// people own every column, pii masked unless asked, a masked export imported back leaves the
// stored values, `delete` finds the stored runs holding a row's pii values.
import { FakeListChatModel } from "@langchain/core/utils/testing";
import type { BaseMessage } from "@langchain/core/messages";
import { emptyCheckpoint, InMemoryStore, type BaseStore } from "@langchain/langgraph";
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSaver } from "../src/checkpoint.js";
import { runCli } from "../src/cli.js";
import { buildTeamGraph } from "../src/graph.js";
import { fakeTeam } from "../src/testing.js";
import type { TeamSpec } from "../src/spec.js";
import { Workspace, type DocumentSpec } from "../src/workspace.js";
import { parseCsv, watchOnce, workspaceCommand } from "../src/workspace-cli.js";
import { pipeline, schemas } from "./demo-team.js";

const CONTACTS: DocumentSpec = {
  name: "contacts",
  type: "contact-list",
  columns: [
    { name: "email", owner: "agent", type: "string", id: true, pii: true },
    { name: "name", owner: "agent", type: "string", id: false, pii: true },
    { name: "score", owner: "agent", type: "number", id: false, pii: false },
    { name: "status", owner: "both", type: "string", id: false, pii: false },
    { name: "note", owner: "human", type: "string", id: false, pii: false },
  ],
  statusValues: ["new", "done"],
  statusColumns: ["status"],
  triggers: [],
  agents: ["writer"],
};
const TEAM: TeamSpec = { ...pipeline, workspace: [CONTACTS] };

let dir = "";
const saved: Record<string, string | undefined> = {};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "envelope-workspace-cli-"));
  for (const [name, value] of [["ENVELOPE_WORKSPACE_DIR", join(dir, "store")], ["ENVELOPE_RUNS_DIR", join(dir, "runs")]]) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({ team: TEAM, argv: ["workspace", ...argv], graph: () => ({ invoke: async () => ({}), getState: async () => ({ values: {}, tasks: [] }) }), out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("workspace commands", () => {
  it("edit writes any column (people own them all); list and show mask pii unless asked", async () => {
    expect(await cli("edit", "contacts", "ann@example.com", "name=Ann Lee", "score=7", "status=new", "note=call back")).toMatchObject({ code: 0, out: "ann@example.com: written (version 1)" });
    expect(await cli("list")).toMatchObject({ code: 0, out: "contacts (contact-list): 1 rows" });
    expect((await cli("list", "contacts")).out).toBe('#1 *** v1 name="***" score=7 status="new" note="call back" email="***"');
    expect((await cli("list", "contacts", "--show-pii")).out).toBe('#1 ann@example.com v1 name="Ann Lee" score=7 status="new" note="call back" email="ann@example.com"');
    expect(JSON.parse((await cli("show", "contacts", "ann@example.com", "--show-pii")).out)).toMatchObject({ id: "ann@example.com", version: 1, data: { name: "Ann Lee" } });
    expect(await cli("edit", "contacts", "ann@example.com", "status=lost")).toMatchObject({ code: 1, err: "ann@example.com: refused: 'lost' is not a status of 'contacts': use one of new, done" });
    expect(await cli("edit", "contacts", "ann@example.com", "score=many")).toMatchObject({ code: 2, err: "workspace: column 'score' is a number, not 'many'" });
    expect(await cli("edit", "contacts", "ann@example.com", "status=done", "--version", "3")).toMatchObject({ code: 1 });
    expect(await cli("show", "contacts", "bob@example.com")).toMatchObject({ code: 2, err: "workspace: 'contacts' has no row 'bob@example.com'" });
    expect(await cli("list", "nothing")).toMatchObject({ code: 2, err: "workspace: no workspace document 'nothing'; the documents: contacts" });
  });

  it("archive hides a row from listings (--archived shows it), --undo brings it back", async () => {
    await cli("edit", "contacts", "ann@example.com", "status=new");
    expect(await cli("archive", "contacts", "ann@example.com")).toMatchObject({ code: 0, out: "ann@example.com: written (version 2)" });
    expect((await cli("list", "contacts")).out).toBe("");
    expect((await cli("list", "contacts", "--archived")).out).toContain("(archived)");
    await cli("archive", "contacts", "ann@example.com", "--undo");
    expect((await cli("list", "contacts", "--status", "new")).out).toContain("v3");
  });

  it("a masked CSV export says which cells are masks; importing it leaves the stored values, a --show-pii export restores exactly", async () => {
    await cli("edit", "contacts", "ann@example.com", "name=Lee, Ann", "score=1.5", "status=new", 'note=said "hi"');
    const csv = (await cli("export", "contacts", "--format", "csv")).out;
    const [header, row] = parseCsv(csv);
    expect(header).toEqual(["id (masked)", "email (masked)", "name (masked)", "score", "status", "note", "archived", "version", "created_at", "updated_at"]);
    expect(row!.slice(0, 8)).toEqual(["***", "***", "***", "1.5", "new", 'said "hi"', "false", "1"]);
    const masked = join(dir, "masked.csv");
    writeFileSync(masked, csv);
    // The id is masked: the row addresses nothing and is refused.
    expect(await cli("import", "contacts", masked)).toMatchObject({ code: 1 });
    const full = join(dir, "full.json");
    writeFileSync(full, "an older file, open to all", { mode: 0o644 });
    expect((await cli("export", "contacts", "--show-pii", "--out", full)).code).toBe(0);
    // Unmasked pii: as private as the store's files.
    expect(statSync(full).mode & 0o077).toBe(0);
    await cli("delete", "contacts", "ann@example.com");
    expect(await cli("import", "contacts", full)).toMatchObject({ code: 0, out: "ann@example.com: written (version 1)" });
    expect(JSON.parse((await cli("show", "contacts", "ann@example.com", "--show-pii")).out).data).toEqual({ email: "ann@example.com", name: "Lee, Ann", score: 1.5, status: "new", note: 'said "hi"' });
    // A masked JSON export names its masks: importing it keeps the stored name.
    const json = join(dir, "masked.json");
    const rows = JSON.parse((await cli("export", "contacts")).out) as Array<{ id: string; masked: string[] }>;
    rows[0]!.id = "ann@example.com";
    rows[0]!.masked = rows[0]!.masked.filter((m) => m !== "id");
    writeFileSync(json, JSON.stringify(rows));
    const imported = await cli("import", "contacts", json);
    expect(imported.err).toContain("the masked cells of email (1), name (1) were left as they are");
    expect(JSON.parse((await cli("show", "contacts", "ann@example.com", "--show-pii")).out).data.name).toBe("Lee, Ann");
  });

  it("delete finds the stored runs holding the row's pii values: nothing deleted until asked, --purge-runs deletes them", async () => {
    await cli("edit", "contacts", "ann@example.com", "name=Ann Lee", "status=new");
    const saver = new FileSaver(join(dir, "runs", "threads"));
    const checkpoint = { ...emptyCheckpoint(), channel_values: { answers: { step: 'read: {"name": "Ann Lee"}' } } };
    await saver.put({ configurable: { thread_id: "t-ann", checkpoint_ns: "" } }, checkpoint, { source: "loop", step: 1, parents: {} });
    await saver.put({ configurable: { thread_id: "t-other", checkpoint_ns: "" } }, { ...emptyCheckpoint(), channel_values: { answers: { step: "nothing" } } }, { source: "loop", step: 1, parents: {} });
    const refused = await cli("delete", "contacts", "ann@example.com");
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("1 stored runs");
    expect(refused.err).toContain("t-ann");
    expect((await cli("list", "contacts")).out).not.toBe("");
    expect(await cli("delete", "contacts", "ann@example.com", "--purge-runs")).toMatchObject({ code: 0, out: expect.stringContaining("ann@example.com: deleted\ndeleted 1 stored runs holding its pii values") });
    expect(readdirSync(join(dir, "runs", "threads")).sort()).toEqual(["t-other.json"]);
    expect(existsSync(join(dir, "store"))).toBe(true);
    expect((await cli("list", "contacts")).out).toBe("");
  });

  it("refuses an unknown action or flag with the usage (exit 2)", async () => {
    expect(await cli("frobnicate")).toMatchObject({ code: 2, err: expect.stringContaining('workspace: unknown action "frobnicate"') });
    expect(await cli("list", "contacts", "--colour")).toMatchObject({ code: 2, err: expect.stringContaining("list: unknown flag --colour") });
    expect(await cli("delete", "contacts", "x", "--purge-runs", "--keep-runs")).toMatchObject({ code: 2 });
  });

  it("names the file that is not JSON: an import's, and a store file's", async () => {
    const rows = join(dir, "rows.json");
    writeFileSync(rows, "email,name\n");
    expect(await cli("import", "contacts", rows)).toMatchObject({ code: 2, err: `workspace: ${rows}: not JSON (${errorOf(() => JSON.parse("email,name\n"))}): an import is a .csv file or a JSON list of rows` });
    await cli("edit", "contacts", "ann@example.com", "status=new");
    const stored = join(dir, "store", readdirSync(join(dir, "store")).find((n) => n.endsWith(".json"))!);
    writeFileSync(stored, "{");
    expect(await cli("list", "contacts")).toMatchObject({ code: 2, err: expect.stringContaining(`workspace: the workspace store's file ${stored} is not JSON (`) });
  });
});

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
};

describe("triggers: watch", () => {
  const WATCHED: DocumentSpec = {
    ...CONTACTS,
    triggers: [
      { column: "status", status: "new", action: "run" },
      { column: "status", status: "done", action: "notify" },
    ],
  };
  const team: TeamSpec = { ...pipeline, gates: [], steps: [{ ...pipeline.steps[1]!, gatesBefore: [], dependsOn: [] }], workspace: [WATCHED] };

  /** `watch` through the runner, whose runs use a model that records each task it is given. */
  async function watch(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const seen: string[] = [];
    class Recording extends FakeListChatModel {
      override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]) {
        seen.push(messages.map((m) => String(m.content)).join("\n"));
        return super._generate(messages, options);
      }
      override bindTools() {
        return this as never;
      }
    }
    const fake = fakeTeam(team, { summary: "done" });
    const graph = (checkpointer: FileSaver, store?: BaseStore) => buildTeamGraph(team, schemas, { ...fake.options, env: { ...fake.env, TOPIC: "t" }, modelFor: () => new Recording({ responses: ['{"summary": "done"}'] }), checkpointer, ...(store ? { store } : {}) });
    const code = await runCli({ team, argv: ["watch", ...argv], graph, out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join("\n"), err: err.join("\n"), seen };
  }
  const edit = (argv: string[]) => runCli({ team, argv: ["workspace", "edit", ...argv], graph: () => ({ invoke: async () => ({}), getState: async () => ({ values: {}, tasks: [] }) }), out: () => undefined, err: () => undefined });

  it("runs the team once per status change of a row, the triggering rows in its task after the run inputs", async () => {
    await edit(["contacts", "ann@example.com", "name=Ann Lee", "status=new"]);
    const first = await watch("--once", "--", "--topic", "refunds");
    expect(first.code, first.err + first.out).toBe(0);
    expect(first.out).toContain("workspace contacts: row *** (#1 listed) has status=new: running the team");
    expect(first.out).not.toContain("ann@example.com");
    expect(first.seen.join("\n")).toContain('Run inputs (JSON):\n{\n  "topic": "refunds"\n}\n\nWorkspace rows that triggered this run (JSON):\n[\n  {\n    "document": "contacts",');
    expect(first.seen.join("\n")).toContain('"email": "ann@example.com"');
    // Fired once: the next check runs nothing, until the status changes again.
    expect((await watch("--once", "--", "--topic", "refunds")).seen).toEqual([]);
    // An interval that is no pause (0 would evaluate in a loop) is refused.
    for (const interval of ["0", "-1"]) {
      const refused = await watch("--once", "--interval", interval);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain("--interval is a number of seconds above 0");
    }
    await edit(["contacts", "ann@example.com", "status=done"]);
    expect((await watch("--once", "--", "--topic", "refunds")).out).toBe("workspace contacts: row *** (#1 listed) has status=done (notify)");
    await edit(["contacts", "ann@example.com", "status=new"]);
    expect((await watch("--once", "--", "--topic", "refunds")).seen).not.toEqual([]);
  });

  it("a run refused before it starts (exit 2) leaves its triggers to fire on the next check; an archived row fires nothing", async () => {
    await edit(["contacts", "ann@example.com", "status=new"]);
    const refused = await watch("--once");
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("watch: the run did not start (exit 2): these triggers fire again on the next check");
    expect((await watch("--once", "--", "--topic", "t")).out).toContain("running the team");
    await edit(["contacts", "bob@example.com", "status=done"]);
    await runCli({ team, argv: ["workspace", "archive", "contacts", "bob@example.com"], graph: () => ({ invoke: async () => ({}), getState: async () => ({ values: {}, tasks: [] }) }), out: () => undefined, err: () => undefined });
    expect((await watch("--once", "--", "--topic", "t")).out).toBe("");
  });

  it("a run stopped by Ctrl-C or SIGTERM leaves its triggers due, then the process ends by the signal", async () => {
    const w = new Workspace([WATCHED], new InMemoryStore());
    await w.write("contacts", [{ data: { email: "ann@example.com", status: "new" } }], "human");
    const listeners = new Map<string, (signal: NodeJS.Signals) => void>();
    let ended: (signal: NodeJS.Signals) => void = () => undefined;
    const end = new Promise<NodeJS.Signals>((resolve) => (ended = resolve));
    const stops = { on: (s: NodeJS.Signals, l: (signal: NodeJS.Signals) => void) => listeners.set(s, l), off: (s: NodeJS.Signals) => listeners.delete(s), end: (s: NodeJS.Signals) => ended(s) };
    // The run never ends by itself: Ctrl-C arrives while it works.
    void watchOnce(w, () => (listeners.get("SIGINT")!("SIGINT"), new Promise<number>(() => undefined)), { out: () => undefined, err: () => undefined }, {}, fetch, stops);
    expect(await end).toBe("SIGINT");
    expect(listeners.size).toBe(0);
    expect((await w.evaluate(false)).map((f) => f.trigger.status)).toEqual(["new"]);
  });

  it("names a row whose id is pii by its place in `workspace list`, not `row ***`, and prints no pii", async () => {
    // Ids in creation order: a Store lists the rows written in one second by id.
    const w = new Workspace([WATCHED], new InMemoryStore());
    const rows = [["a-gone@x.org", "done"], ["b-quiet@x.org", null], ["c-done@x.org", "done"], ["d-new@x.org", "new"]] as const;
    for (const [email, status] of rows) await w.write("contacts", [{ data: status === null ? { email } : { email, status } }], "human");
    await w.archive("contacts", "a-gone@x.org");
    const out: string[] = [];
    expect(await watchOnce(w, async () => 0, { out: (t) => out.push(t), err: (t) => out.push(t) }, {})).toBe(0);
    expect(out).toEqual(["workspace contacts: row *** (#2 listed) has status=done (notify)", "workspace contacts: row *** (#3 listed) has status=new: running the team"]);
    // `workspace list` leads each row with that #N, whatever it is asked to show; an archived row (not counted) with `-`.
    const list = async (...options: string[]) => {
      const lines: string[] = [];
      expect(await workspaceCommand(["list", "contacts", ...options], w, { out: (t) => lines.push(t), err: (t) => lines.push(t) })).toBe(0);
      return lines;
    };
    const heads = async (...options: string[]) => (await list("--show-pii", ...options)).map((line) => line.split(" ").slice(0, 2).join(" "));
    expect(await heads()).toEqual(["#1 b-quiet@x.org", "#2 c-done@x.org", "#3 d-new@x.org"]);
    expect(await heads("--status", "new")).toEqual(["#3 d-new@x.org"]);
    expect(await heads("--archived")).toEqual(["- a-gone@x.org", "#1 b-quiet@x.org", "#2 c-done@x.org", "#3 d-new@x.org"]);
    expect(await heads("--status", "done", "--archived")).toEqual(["- a-gone@x.org", "#2 c-done@x.org"]);
    expect((await list("--status", "done")).join("\n")).toMatch(/^#2 \*\*\* v1 /);
  });

  it("posts a notify trigger to the webhook without the row's pii", async () => {
    const store = new InMemoryStore();
    const w = new Workspace([WATCHED], store);
    await w.write("contacts", [{ data: { email: "ann@example.com", name: "Ann Lee", status: "done", score: 3 } }], "human");
    const posted: unknown[] = [];
    const fetcher = (async (_url: string, init: RequestInit) => {
      posted.push(JSON.parse(String(init.body)));
      return new Response("", { status: 204 });
    }) as unknown as typeof fetch;
    const out: string[] = [];
    expect(await watchOnce(w, async () => 0, { out: (t) => out.push(t), err: () => undefined }, { ENVELOPE_WORKSPACE_WEBHOOK_URL: "https://hooks.example.com/x" }, fetcher)).toBe(0);
    expect(out).toEqual(["workspace contacts: row *** (#1 listed) has status=done (notify)"]);
    expect(posted).toEqual([{ document: "contacts", column: "status", status: "done", row: expect.objectContaining({ id: "***", data: { score: 3, status: "done" } }) }]);
  });
});
