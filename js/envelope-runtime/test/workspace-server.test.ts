// `workspace --url` and `watch --url`: people's commands and the triggers on the store of the
// Agent Server serving the team, through @langchain/langgraph-sdk's Client (here a fake that
// answers as the server does: a missing item is a 404), under the same rules; `watch --url`
// starts each triggered run on the server, on a new thread, with the triggering rows.
import { describe, expect, it } from "vitest";
import type { TeamSpec } from "../src/spec.js";
import type { DocumentSpec } from "../src/workspace.js";
import { Workspace } from "../src/workspace.js";
import { deadlineMessage } from "../src/graph.js";
import { peopleOn, urlOption } from "../src/workspace-cli.js";
import { ServerStore, type ServerClient } from "../src/workspace-store.js";
import { pipeline } from "./demo-team.js";

const SIGNUPS: DocumentSpec = {
  name: "signups",
  type: "",
  columns: [
    { name: "email", owner: "agent", type: "string", id: true, pii: true },
    { name: "status", owner: "both", type: "string", id: false, pii: false },
    { name: "note", owner: "human", type: "string", id: false, pii: false },
  ],
  statusValues: ["new", "approved", "flagged"],
  statusColumns: ["status"],
  triggers: [
    { column: "status", status: "approved", action: "run" },
    { column: "status", status: "flagged", action: "notify" },
  ],
  agents: ["writer"],
};
const TEAM: TeamSpec = { ...pipeline, workspace: [SIGNUPS] };
const URL = "http://127.0.0.1:2024";

/** A fake of the SDK's Client: the store in memory, threads with a history each, runs recorded. */
function fakeServer(options: { runStatus?: string; waiting?: boolean; values?: Record<string, unknown>; joined?: unknown } = {}) {
  const items = new Map<string, { namespace: string[]; key: string; value: Record<string, unknown>; created_at: string; updated_at: string }>();
  const id = (ns: string[], key: string) => JSON.stringify([ns, key]);
  const runs: Array<{ thread: string; assistant: string; payload: Record<string, unknown> }> = [];
  const histories = new Map<string, Array<Record<string, unknown>>>();
  const deleted: string[] = [];
  const client: ServerClient = {
    store: {
      async getItem(namespace, key) {
        const found = items.get(id(namespace, key));
        if (!found) throw Object.assign(new Error("HTTP 404: Item not found"), { status: 404 });
        return { ...found };
      },
      async putItem(namespace, key, value) {
        const now = new Date().toISOString();
        items.set(id(namespace, key), { namespace, key, value, created_at: items.get(id(namespace, key))?.created_at ?? now, updated_at: now });
      },
      async deleteItem(namespace, key) {
        items.delete(id(namespace, key));
      },
      async searchItems(prefix, o = {}) {
        const found = [...items.values()].filter((i) => prefix.every((l, n) => i.namespace[n] === l));
        return { items: found.slice(o.offset ?? 0, (o.offset ?? 0) + (o.limit ?? 10)) };
      },
      async listNamespaces() {
        return { namespaces: [...new Set([...items.values()].map((i) => JSON.stringify(i.namespace)))].map((n) => JSON.parse(n) as string[]) };
      },
    },
    threads: {
      async create() {
        const thread_id = `t${histories.size + 1}`;
        histories.set(thread_id, []);
        return { thread_id };
      },
      async search(q = {}) {
        return [...histories.keys()].slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 10)).map((thread_id) => ({ thread_id, values: {} }));
      },
      async getHistory(threadId, o = {}) {
        const ns = (o.checkpoint as { checkpoint_ns?: string } | undefined)?.checkpoint_ns ?? "";
        return (histories.get(threadId) ?? []).filter((s) => (s.ns ?? "") === ns);
      },
      async getState() {
        return { values: options.values ?? { status: "done" }, next: [], tasks: options.waiting ? [{ interrupts: [{ value: {} }] }] : [] };
      },
      async delete(threadId) {
        histories.delete(threadId);
        deleted.push(threadId);
      },
    },
    runs: {
      async create(thread, assistant, payload = {}) {
        runs.push({ thread, assistant, payload });
        return { run_id: `r${runs.length}` };
      },
      async join() {
        return options.joined;
      },
      async get() {
        return { status: options.runStatus ?? "success" };
      },
    },
  };
  return { client, items, runs, histories, deleted };
}

async function people(client: ServerClient, ...argv: string[]) {
  return peopleIn({}, TEAM, client, ...argv);
}

async function peopleIn(env: Record<string, string>, team: TeamSpec, client: ServerClient, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let local = 0;
  const runHere = async () => (local++, 0);
  const code = await peopleOn(argv[0]!, argv.slice(1), team, { out: (t) => out.push(t), err: (t) => err.push(t) }, runHere, env, URL, client);
  return { code, out: out.join("\n"), err: err.join("\n"), local };
}

describe("--url", () => {
  it("is taken from the command's own options, not from the run options after --", () => {
    expect(urlOption(["list", "--url", URL, "signups"])).toEqual({ url: URL, rest: ["list", "signups"] });
    expect(urlOption([`--url=${URL}`, "--once", "--", "--inputs", "{}"])).toEqual({ url: URL, rest: ["--once", "--", "--inputs", "{}"] });
    expect(urlOption(["--once", "--", "--url", URL])).toEqual({ url: null, rest: ["--once", "--", "--url", URL] });
    expect(urlOption(["list", "--url"]).problem).toMatch(/needs the Agent Server's URL/);
  });
});

describe("workspace --url", () => {
  it("writes people's edits to the server's store under the rules, by the store's namespace", async () => {
    const server = fakeServer();
    expect((await people(server.client, "workspace", "edit", "signups", "a@example.com", "status=new", "note=hello")).code).toBe(0);
    const row = server.items.get(JSON.stringify([["envelope_workspace", "signups"], "a@example.com"]))!.value;
    expect(row).toMatchObject({ id: "a@example.com", version: 1, data: { email: "a@example.com", status: "new", note: "hello" } });
    // A status the document does not declare is refused there too.
    const refused = await people(server.client, "workspace", "edit", "signups", "a@example.com", "status=gone");
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/'gone' is not a status of 'signups'/);
    const listed = await people(server.client, "workspace", "list", "signups");
    expect(listed.out).toBe('#1 *** v1 status="new" note="hello" email="***"');
    expect(listed.out).not.toContain("a@example.com"); // pii masked
  });

  it("compare-and-sets by claims on the server's store: of two writes at one version, one is written", async () => {
    const server = fakeServer();
    const store = new ServerStore(server.client);
    const [a, b] = [new Workspace([SIGNUPS], store), new Workspace([SIGNUPS], new ServerStore(server.client))];
    await a.write("signups", [{ data: { email: "c@example.com", status: "new" } }], "human");
    const results = await Promise.all([a.write("signups", [{ id: "c@example.com", version: 1, data: { status: "approved" } }], "agent"), b.write("signups", [{ id: "c@example.com", version: 1, data: { status: "flagged" } }], "agent")]);
    const outcomes = results.map((r) => r[0]!.outcome);
    expect(outcomes.filter((o) => o === "written").length).toBeLessThanOrEqual(1);
    expect(outcomes).toContain("conflict");
    expect((await a.row("signups", "c@example.com"))!.version).toBeLessThanOrEqual(2);
    // The claims went to the server's store, beside the rows.
    expect([...server.items.values()].some((i) => i.namespace[0] === "envelope_workspace_claims")).toBe(true);
  });

  it("delete finds the server's threads holding the row's pii values and purges them when asked", async () => {
    const server = fakeServer();
    await people(server.client, "workspace", "edit", "signups", "pat@example.com", "status=new");
    const { thread_id } = await server.client.threads.create();
    await server.client.threads.create(); // one holding nothing
    server.histories.get(thread_id)!.push({ values: {}, tasks: [{ checkpoint: { checkpoint_ns: "screen:1" } }] }, { ns: "screen:1", values: { messages: [{ content: 'read {"email": "pat@example.com"}' }] } });
    const held = await people(server.client, "workspace", "delete", "signups", "pat@example.com");
    expect(held.code).toBe(2);
    expect(held.err).toContain(`threads of the Agent Server at ${URL}`);
    expect(held.err).toContain(thread_id);
    const purged = await people(server.client, "workspace", "delete", "signups", "pat@example.com", "--purge-runs");
    expect(purged.code).toBe(0);
    expect(server.deleted).toEqual([thread_id]);
    expect(server.items.has(JSON.stringify([["envelope_workspace", "signups"], "pat@example.com"]))).toBe(false);
  });

  it("says the server cannot be reached, in a line", async () => {
    const server = fakeServer();
    server.client.store.searchItems = async () => {
      throw new TypeError("fetch failed");
    };
    const answer = await people(server.client, "workspace", "list", "signups");
    expect(answer.code).toBe(2);
    expect(answer.err).toBe(`cannot reach the Agent Server at ${URL} (fetch failed)`);
  });
});

describe("watch --url", () => {
  it("fires the server's rows' triggers: a notify line, and a run started on the server with the triggering rows", async () => {
    const server = fakeServer();
    await people(server.client, "workspace", "edit", "signups", "a@example.com", "status=flagged");
    await people(server.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
    const watched = await people(server.client, "watch", "--once", "--", "--topic", "launch");
    expect(watched.code).toBe(0);
    expect(watched.local).toBe(0); // not the runner's own run
    expect(watched.out).toContain("workspace signups: row *** (#1 listed) has status=flagged (notify)");
    expect(watched.out).toContain("workspace signups: row *** (#2 listed) has status=approved: running the team");
    expect(watched.out).toContain(`watch: run r1 on thread t1 of the Agent Server at ${URL}`);
    expect(server.runs).toHaveLength(1);
    const [run] = server.runs;
    expect(run!.assistant).toBe(TEAM.slug);
    expect(run!.payload.input).toEqual({ topic: "launch" });
    const triggered = (run!.payload.config as { configurable: { envelope_triggered: Array<{ document: string; row: { id: string } }> } }).configurable.envelope_triggered;
    expect(triggered.map((t) => [t.document, t.row.id])).toEqual([["signups", "b@example.com"]]);
    // Each status change fires once: what fired is kept in the server's store.
    const again = await people(server.client, "watch", "--once");
    expect(again.out).toBe("");
    expect(server.runs).toHaveLength(1);
  });

  it("leaves the triggers due when the run is not started (exit 2), and reports a run waiting at a gate (exit 3)", async () => {
    const server = fakeServer({ waiting: true });
    await people(server.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
    const refused = await people(server.client, "watch", "--once", "--", "--nope", "x");
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/not a run option watch --url sends/);
    expect(server.runs).toHaveLength(0);
    const waiting = await people(server.client, "watch", "--once", "--", "--inputs", '{"topic": "launch"}');
    expect(waiting.code).toBe(3);
    expect(waiting.out).toContain("watch: thread t1: waiting");
  });

  it("reports a run that failed on the server with its error, secrets out (exit 1, as the runner's failed run); its trigger stays fired", async () => {
    // The server's join answers a failed run with its error, as the SDK's runs.wait reads it.
    const server = fakeServer({ runStatus: "error", joined: { __error__: { error: "TypeError", message: "the search tool sent key sk-live-123 and was refused" } } });
    const team = { ...TEAM, secrets: ["SEARCH_KEY"] };
    await people(server.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
    const failed = await peopleIn({ SEARCH_KEY: "sk-live-123" }, team, server.client, "watch", "--once", "--", "--topic", "launch");
    expect(failed.code).toBe(1);
    expect(failed.err).toContain("watch: run r1 on thread t1: the run failed (error): TypeError: the search tool sent key {{SEARCH_KEY}} and was refused");
    expect(failed.err).not.toContain("sk-live-123");
    expect((await people(server.client, "watch", "--once")).out).toBe("");
    // A server that gives no error: the status, and that it gave none.
    const bare = fakeServer({ runStatus: "timeout" });
    await people(bare.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
    const timedOut = await people(bare.client, "watch", "--once", "--", "--topic", "launch");
    expect(timedOut.code).toBe(1);
    expect(timedOut.err).toContain("watch: run r1 on thread t1: the run failed (timeout): the server gave no error");
  });

  it("gives the served run what the runner's run would: --model-context as its context, the team's recursion limit", async () => {
    const server = fakeServer();
    await people(server.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
    const watched = await people(server.client, "watch", "--once", "--", "--topic", "launch", "--model-context", '{"writer": "anthropic:claude-sonnet-4-5"}', "--no-interactive");
    expect(watched.code, watched.err).toBe(0);
    const [run] = server.runs;
    expect(run!.payload.context).toEqual({ writer: "anthropic:claude-sonnet-4-5" });
    // Without it LangGraph's default (25 super-steps) bounds a served run, not the team's.
    expect((run!.payload.config as { recursion_limit?: number }).recursion_limit).toBe(TEAM.recursionLimit);
  });

  it("refuses, before any run starts, what the runner's run would refuse and the options it cannot carry, naming them", async () => {
    const server = fakeServer();
    await people(server.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
    const cases: Array<[string[], RegExp]> = [
      [[], /watch: input topic: required/], // the run would fail on the server, its trigger spent
      [["--topic", "x", "--model-context", '{"writer": "gpt-4"}'], /watch: context\.writer="gpt-4": expected provider:model/],
      [["--topic", "x", "--model-context", '{"editor": "openai:gpt-4.1"}'], /--model-context: unknown field "editor"/],
      [["--topic", "x", "--thread", "t9"], /--thread: watch --url starts each run on a new thread of the server/],
      [["--topic", "x", "--interactive"], /--interactive: a run watch --url starts is reviewed on the server/],
    ];
    for (const [options, said] of cases) {
      const refused = await people(server.client, "watch", "--once", "--", ...options);
      expect(refused.code, options.join(" ")).toBe(2);
      expect(refused.err).toMatch(said);
    }
    expect(server.runs).toHaveLength(0);
  });

  it("exits as the runner does on a served run halted by timeout.runMs (124) or otherwise (4), saying why", async () => {
    const deadline = deadlineMessage(TEAM.runTimeoutMs);
    for (const [halted, code] of [[deadline, 124], ["the writer refused", 4]] as const) {
      const server = fakeServer({ values: { status: "halted", halted }, waiting: true });
      await people(server.client, "workspace", "edit", "signups", "b@example.com", "status=approved");
      const watched = await people(server.client, "watch", "--once", "--", "--topic", "launch");
      expect(watched.code).toBe(code);
      expect(watched.out).toContain("watch: thread t1: halted");
      expect(watched.err).toContain(code === 124 ? `watch: thread t1: ${deadline}` : "watch: thread t1: halted: the writer refused");
    }
  });
});
