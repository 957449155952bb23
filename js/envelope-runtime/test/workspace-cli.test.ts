// The runner's `workspace` commands, as the Python runners' (workspace.py's workspace_command):
// people own every column, pii masked unless asked, a masked export imported back leaves the
// stored values, `delete` finds the stored runs holding a row's pii values.
import { emptyCheckpoint } from "@langchain/langgraph";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSaver } from "../src/checkpoint.js";
import { runCli } from "../src/cli.js";
import type { TeamSpec } from "../src/spec.js";
import type { DocumentSpec } from "../src/workspace.js";
import { parseCsv } from "../src/workspace-cli.js";
import { pipeline } from "./demo-team.js";

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
    expect((await cli("list", "contacts")).out).toBe('*** v1 name="***" score=7 status="new" note="call back" email="***"');
    expect((await cli("list", "contacts", "--show-pii")).out).toBe('ann@example.com v1 name="Ann Lee" score=7 status="new" note="call back" email="ann@example.com"');
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
    expect((await cli("export", "contacts", "--show-pii", "--out", full)).code).toBe(0);
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
});
