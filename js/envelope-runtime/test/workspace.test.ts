// The workspace's rules (workspace.ts) as the Python targets' workspace.py has them, word for
// word where an agent reads them; the runner's file store (workspace-store.ts) shared by two
// stores on one folder; and an agent's tools on the store of the graph it runs in.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ChatResult } from "@langchain/core/outputs";
import { AsyncBatchedStore, InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildTeamGraph } from "../src/graph.js";
import type { TeamSpec } from "../src/spec.js";
import { masked, toolDescription, toolIdent, toolNames, Workspace, workspaceTools, type DocumentSpec } from "../src/workspace.js";
import { FileStore } from "../src/workspace-store.js";
import { agent, pipeline, schemas } from "./demo-team.js";

const ATTENDEES: DocumentSpec = {
  name: "attendees",
  type: "contact-list",
  columns: [
    { name: "email", owner: "agent", type: "string", id: true, pii: true },
    { name: "full_name", owner: "agent", type: "string", id: false, pii: true },
    { name: "company", owner: "agent", type: "string", id: false, pii: false },
    { name: "status", owner: "both", type: "string", id: false, pii: false },
    { name: "screening_note", owner: "agent", type: "string", id: false, pii: false },
    { name: "organiser_note", owner: "human", type: "string", id: false, pii: false },
    { name: "checked_in", owner: "human", type: "boolean", id: false, pii: false },
  ],
  statusValues: ["pending", "confirmed", "incomplete", "declined"],
  statusColumns: ["status"],
  triggers: [{ column: "status", status: "declined", action: "notify" }],
  agents: ["screener"],
};
const SPEAKERS: DocumentSpec = {
  name: "speaker-queue",
  type: "content-queue",
  columns: [
    { name: "talk_id", owner: "human", type: "string", id: true, pii: false },
    { name: "title", owner: "both", type: "string", id: false, pii: false },
    { name: "status", owner: "both", type: "string", id: false, pii: false },
  ],
  statusValues: ["proposed", "approved", "briefed", "rejected"],
  statusColumns: ["status"],
  triggers: [],
  agents: ["writer"],
};
const DOCS = [ATTENDEES, SPEAKERS];
const workspace = (store = new InMemoryStore()) => new Workspace(DOCS, store, () => "2026-01-01T00:00:00Z");
const answer = async (w: Workspace, doc: string, rows: object[], by: "agent" | "human" = "agent") => JSON.stringify(await w.write(doc, rows, by));

describe("the store's rules (the Python targets' answers, as an agent reads them)", () => {
  it("refuses a people-owned column and an undeclared status, each with its reason, and writes nothing", async () => {
    const w = workspace();
    expect(await answer(w, "attendees", [{ data: { email: "a@b.c", organiser_note: "x", status: "nope", checked_in: true } }])).toBe(
      JSON.stringify([
        {
          row: "a@b.c",
          outcome: "refused",
          message:
            "column 'organiser_note' is written by people only: read it, leave it as it is; 'nope' is not a status of 'attendees': use one of pending, confirmed, incomplete, declined; column 'checked_in' is written by people only: read it, leave it as it is",
        },
      ]),
    );
    expect(await w.rows("attendees")).toEqual([]);
  });

  it("addresses rows by the id column; an agent creates no row whose id column is people's", async () => {
    const w = workspace();
    const results = await w.write("speaker-queue", [{ data: { talk_id: "t1", status: "x" } }, { data: { title: "T" } }], "agent");
    expect(results).toEqual([
      {
        row: "t1",
        outcome: "refused",
        message:
          "column 'talk_id' is written by people only: read it, leave it as it is; 'x' is not a status of 'speaker-queue': use one of proposed, approved, briefed, rejected; there is no row 't1': people create rows of 'speaker-queue' (its id column 'talk_id' is theirs)",
      },
      { row: "(new)", outcome: "refused", message: "a new row of 'speaker-queue' needs its id column 'talk_id'" },
    ]);
    expect(await w.write("speaker-queue", [{ data: { talk_id: "t1", title: "Hello" } }], "human")).toEqual([{ row: "t1", outcome: "written", version: 1 }]);
    expect((await w.row("speaker-queue", "t1"))?.data).toEqual({ talk_id: "t1", title: "Hello" });
  });

  it("changes a column both write only with the version read (compare-and-set)", async () => {
    const w = workspace();
    expect(await w.write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent")).toEqual([{ row: "a@b.c", outcome: "written", version: 1 }]);
    expect(await answer(w, "attendees", [{ data: { email: "a@b.c", status: "confirmed" } }])).toBe(
      JSON.stringify([
        {
          row: "a@b.c",
          outcome: "conflict",
          message: `row 'a@b.c' exists and a column both you and people write changes: its values now are {"status": "pending"}; if your change still applies, write it again with the version read_ gives`,
        },
      ]),
    );
    expect(await answer(w, "attendees", [{ version: 0, data: { email: "a@b.c", status: "confirmed" } }])).toBe(
      JSON.stringify([
        {
          row: "a@b.c",
          outcome: "conflict",
          message: `row 'a@b.c' changed since version 0: nothing written; its shared values now are {"status": "pending"}: read it again and decide whether your change still applies`,
        },
      ]),
    );
    expect(await w.write("attendees", [{ version: 1, data: { email: "a@b.c", status: "confirmed" } }], "agent")).toEqual([{ row: "a@b.c", outcome: "written", version: 2 }]);
    // A value a column already holds is no change.
    expect(await w.write("attendees", [{ data: { email: "a@b.c", status: "confirmed" } }], "agent")).toEqual([{ row: "a@b.c", outcome: "written", message: "no change", version: 2 }]);
    expect(await w.rows("attendees", { status: "confirmed" })).toHaveLength(1);
  });

  it("masks pii columns, and the id when the id column is pii", async () => {
    const w = workspace();
    await w.write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent");
    expect(masked(ATTENDEES, (await w.rows("attendees"))[0]!)).toEqual({ id: "***", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z", archived: false, version: 1, data: { email: "***", status: "pending" } });
  });

  it("names and describes the tools as the Python targets do", () => {
    expect(toolNames("attendees")).toEqual({ list: "list_attendees_rows", read: "read_attendees_row", write: "write_attendees_rows" });
    expect(toolDescription(ATTENDEES, "write")).toBe(
      "Create or update rows of 'attendees'; each answer says written, refused (why) or conflict (read the row again). Workspace document 'attendees' (a contact-list). columns: email (string, you write it, the row's id); full_name (string, you write it); company (string, you write it); status (string, you and people write it); screening_note (string, you write it); organiser_note (string, people write it, read only); checked_in (boolean, people write it, read only). status columns status take only: pending, confirmed, incomplete, declined.",
    );
    const long = "d".repeat(60);
    expect(toolIdent(long)).toMatch(/^d{41}_[0-9a-f]{8}$/);
    expect(`write_${toolIdent(long)}_rows`.length).toBeLessThanOrEqual(64);
  });
});

describe("the runner's store (FileStore): a folder two processes share", () => {
  it("keeps rows across stores on one folder, private files, a namespace's file removed when empty", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-workspace-")), "store");
    await workspace(new FileStore(dir)).write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent");
    const other = workspace(new FileStore(dir));
    expect((await other.row("attendees", "a@b.c"))?.version).toBe(1);
    const file = readdirSync(dir).find((n) => n.endsWith(".json"))!;
    expect(statSync(join(dir, file)).mode & 0o077).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(readFileSync(join(dir, file), "utf8")).toContain("a@b.c");
    expect(await other.delete("attendees", "a@b.c")).toBe(true);
    expect(readdirSync(dir).filter((n) => n.endsWith(".json"))).toEqual([]);
  });

  it("lets one of two writers of the same version win (the lock across stores), the other a conflict", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-workspace-"));
    const [a, b] = [workspace(new FileStore(dir)), workspace(new FileStore(dir))];
    await a.write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent");
    const results = await Promise.all([a.write("attendees", [{ version: 1, data: { email: "a@b.c", status: "confirmed" } }], "agent"), b.write("attendees", [{ version: 1, data: { email: "a@b.c", status: "declined" } }], "agent")]);
    expect(results.map((r) => r[0]!.outcome).sort()).toEqual(["conflict", "written"]);
    expect((await workspace(new FileStore(dir)).row("attendees", "a@b.c"))?.version).toBe(2);
  });

  it("fires a trigger once when two watchers evaluate the same folder (the firing recorded under the lock)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-workspace-"));
    const [a, b] = [workspace(new FileStore(dir)), workspace(new FileStore(dir))];
    await a.write("attendees", [{ data: { email: "a@b.c", status: "declined" } }], "agent");
    const marker = (await a.evaluate(false))[0]!.marker;
    // Both read the fired triggers before either recorded this one: only one may fire it.
    expect(await a.backend.mark("attendees", marker)).toBe(true);
    expect(await b.backend.mark("attendees", marker)).toBe(false);
    expect(await b.evaluate()).toEqual([]);
  });

  it("does the compare-and-set of an agent's write under the lock, through the store LangGraph gives a node (AsyncBatchedStore)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-workspace-"));
    const batched = new AsyncBatchedStore(new FileStore(dir));
    batched.start();
    try {
      const w = workspace(batched);
      await w.write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent");
      expect((await w.write("attendees", [{ version: 1, data: { email: "a@b.c", status: "confirmed" } }], "agent"))[0]).toMatchObject({ outcome: "written", version: 2 });
    } finally {
      await batched.stop();
    }
    // Claims are how stores without a lock decide: here they would let a person's edit (which
    // takes the lock) land between the agent's check and its write, and be written over.
    expect(readdirSync(dir).filter((n) => n.includes("claims"))).toEqual([]);
  });

  it("names the lock's holder when it waited long enough, with a code the workspace commands report in a line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-workspace-"));
    writeFileSync(join(dir, ".lock"), "4242 another-host\n");
    await expect(workspace(new FileStore(dir, 0)).write("attendees", [{ data: { email: "a@b.c" } }], "agent")).rejects.toMatchObject({
      code: "ELOCKED",
      message: `the workspace store ${dir} is locked by process 4242 on another-host; if process 4242 on host another-host is gone, remove ${join(dir, ".lock")} to release it`,
    });
  });

  it("reads a folder it cannot list as an error, not as an empty store a write would then replace", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "envelope-workspace-")), "not-a-folder");
    writeFileSync(file, "");
    await expect(workspace(new FileStore(file)).rows("attendees")).rejects.toThrow(/ENOTDIR/);
  });

  it("lets one of two writers win on a store without a lock (claims on the store itself)", async () => {
    const store = new InMemoryStore();
    await workspace(store).write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent");
    const results = await Promise.all(["confirmed", "declined"].map((status) => workspace(store).write("attendees", [{ version: 1, data: { email: "a@b.c", status } }], "agent")));
    expect(results.map((r) => r[0]!.outcome)).toContain("conflict");
    expect((await workspace(store).row("attendees", "a@b.c"))?.version).toBeLessThanOrEqual(2);
  });

  it("deletes the claim of a writer killed before taking it back once it is stale, not only ignores it", async () => {
    const store = new InMemoryStore();
    const w = workspace(store);
    await w.write("attendees", [{ data: { email: "a@b.c", status: "pending" } }], "agent");
    const claims = ["envelope_workspace_claims", "attendees"];
    const killed = createHash("sha256").update("a@b.c").digest("hex").slice(0, 32) + ":000000000001:killed";
    await store.put(claims, killed, { claimed: true });
    const write = () => w.write("attendees", [{ version: 1, data: { email: "a@b.c", status: "confirmed" } }], "agent");
    expect((await write())[0]!.outcome).toBe("conflict"); // fresh: the killed writer may yet write
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 301_000); // past CLAIM_TTL_MS: stale
      expect((await write())[0]!.outcome).toBe("written");
    } finally {
      vi.useRealTimers();
    }
    expect((await store.search(claims)).map((i) => i.key)).not.toContain(killed);
  });
});

describe("an agent's workspace tools", () => {
  it("go to the agents the document names, and answer refusals as text", async () => {
    const store = new InMemoryStore();
    expect(workspaceTools(DOCS, "screener", () => store).map((t) => t.name)).toEqual(["list_attendees_rows", "read_attendees_row", "write_attendees_rows"]);
    expect(workspaceTools(DOCS, "nobody", () => store)).toEqual([]);
    const write = workspaceTools(DOCS, "screener", () => store)[2]!;
    const said = String(await write.invoke({ rows: [{ data: { email: "a@b.c", organiser_note: "set by an agent" } }] }));
    expect(said).toContain('"outcome": "refused"');
    expect(said).toContain("organiser_note");
    expect(await workspace(store).rows("attendees")).toEqual([]);
  });

  it("write to the store of the graph the agent runs in", async () => {
    // A model that writes a row through its tool, then gives the step's answer.
    class Scripted extends BaseChatModel {
      _llmType() {
        return "scripted";
      }
      async _generate(messages: BaseMessage[]): Promise<ChatResult> {
        if (!messages.some((m) => m.getType() === "tool")) {
          const calls = [{ id: "c1", name: "write_speaker_queue_rows", args: { rows: [{ id: "t1", version: 1, data: { status: "briefed" } }] }, type: "tool_call" as const }];
          return { generations: [{ text: "", message: new AIMessage({ content: "", tool_calls: calls }) }] };
        }
        return { generations: [{ text: "", message: new AIMessage('{"summary": "done"}') }] };
      }
      override bindTools() {
        return this as never;
      }
    }
    const team: TeamSpec = {
      ...pipeline,
      agents: [agent("writer")],
      steps: [{ key: "brief", agent: "writer", label: null, dependsOn: [], answersFrom: [], gatesBefore: [], gatesAfter: [] }],
      finalStep: "brief",
      gates: [],
      workspace: DOCS,
    };
    const store = new InMemoryStore();
    await workspace(store).write("speaker-queue", [{ data: { talk_id: "t1", title: "Hello", status: "approved" } }], "human");
    const graph = buildTeamGraph(team, schemas, { modelFor: () => new Scripted({}), env: { OPENAI_API_KEY: "x", TOPIC: "t" }, checkpointer: new MemorySaver(), store });
    const out = await graph.invoke({ topic: "t" }, { configurable: { thread_id: "ws" } });
    expect(out).toMatchObject({ status: "done", result: { summary: "done" } });
    expect(await workspace(store).row("speaker-queue", "t1")).toMatchObject({ version: 2, data: { status: "briefed" } });
  });
});
