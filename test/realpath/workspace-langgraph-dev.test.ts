// Issue 19, the workspace through `langgraph dev` (LangGraph only); issue 38: the rows are in
// the server's own store (the export's langgraph.json names none), not in a file of the
// team's: a person's row put through the server's store API is what the agents' tools read
// inside a server run, and what an agent writes there is what the store API returns. The
// store's rules hold in the server too: a human column written by an agent is refused, and
// the refusal reaches the model; no workspace file is ever opened.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { exportedProject, scriptedReply, serverRun } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";
import { type ChatRequest, type ModelServer, startModelServer, textOf } from "./model-server.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json");
const gate = e2eGate();

const offered = (r: ChatRequest, name: string) => r.tools?.some((t) => t.function.name === name) ?? false;
const called = (r: ChatRequest, name: string) => r.messages.some((m) => (m.tool_calls ?? []).some((c) => c.function.name === name));
const toolAnswers = (r: ChatRequest) => r.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content));

describe.runIf(gate.run)("the workspace through langgraph dev", () => {
  let env: PythonEnv;
  let server: ModelServer;
  let dev: DevServer | undefined;
  let dir = "";
  let pkg = "";
  let url = "";
  let values: Record<string, string> = {};
  let inputs: Record<string, unknown> = {};
  const db = () => join(dir, "state", "workspace.sqlite3");

  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-ws-dev-")), "event-signup-desk");
    const exported = await exportedProject(FIXTURE, "langgraph", dir);
    pkg = exported.pkg;
    let n = 0;
    server = await startModelServer((request) => {
      n++;
      // The entry agent (screener) asks the brief writer once (scriptedReply), and tries
      // once to write a column people own; the brief writer writes the brief and the next
      // status with the version it read.
      if (offered(request, "write_attendees_rows") && !called(request, "write_attendees_rows")) {
        return { toolCalls: [{ name: "write_attendees_rows", arguments: { rows: [{ id: "ann@example.org", data: { organiser_note: "agent was here", status: "pending" } }] } }] };
      }
      if (offered(request, "write_speaker_queue_rows") && !called(request, "write_speaker_queue_rows")) {
        return { toolCalls: [{ name: "write_speaker_queue_rows", arguments: { rows: [{ id: "T1", version: 1, data: { brief: "Brief by the agent", status: "briefed" } }] } }] };
      }
      return scriptedReply(request, n, 1);
    });
    const run = serverRun(exported.def as never, server.baseUrl);
    values = { ...run.env, ENVELOPE_WORKSPACE_DB: db() };
    inputs = run.inputs;
    dev = await startLanggraphDev(env, dir, values);
    url = dev.url;
  }, 1_800_000);

  afterAll(async () => {
    dev?.stop();
    await server?.close();
  });

  const search = async (document: string) =>
    ((await (await fetch(`${url}/store/items/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ namespace_prefix: ["envelope_workspace", document] }) })).json()) as { items: Array<{ key: string; value: { data: Record<string, unknown>; version: number } }> }).items;

  it("a person's row put in the server's store is there, and no workspace file is made", async () => {
    const now = new Date().toISOString();
    const row = { id: "T1", created_at: now, updated_at: now, archived: false, version: 1, data: { title: "Rust at scale", status: "approved", speaker_email: "speaker@example.org", duration_min: 25 } };
    const put = await fetch(`${url}/store/items`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ namespace: ["envelope_workspace", "speaker-queue"], key: "T1", value: row }) });
    expect(put.status, await put.text()).toBeLessThan(300);
    expect((await search("speaker-queue")).map((i) => [i.key, i.value.data.status, i.value.version])).toEqual([["T1", "approved", 1]]);
    expect(dev!.log()).not.toContain("Using custom store");
    expect(existsSync(db())).toBe(false);
  });

  it("a server run's agents write through their tools under the store's rules, into the server's store", async () => {
    const response = await fetch(`${url}/runs/wait`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ assistant_id: pkg, input: inputs }) });
    const body = await response.text();
    expect(response.status, `${body}\n${dev!.log().slice(-4000)}`).toBe(200);
    const chats = server.chats();
    // The brief writer's write went through (its version matched) ...
    const afterWrite = chats.find((r) => called(r, "write_speaker_queue_rows"));
    expect(afterWrite, "the brief writer's tool was called").toBeDefined();
    expect(toolAnswers(afterWrite!).join("\n")).toContain('"outcome": "written"');
    // ... and the screener's write of a column people own was refused, the reason in its answer.
    const refused = chats.find((r) => called(r, "write_attendees_rows"));
    expect(refused, "the screener's tool was called").toBeDefined();
    const answer = toolAnswers(refused!).join("\n");
    expect(answer).toContain('"outcome": "refused"');
    expect(answer).toContain("organiser_note");
    // The row the agent wrote is the server's: version 2, a person's columns kept.
    const [written] = await search("speaker-queue");
    expect(written!.value.version).toBe(2);
    expect(written!.value.data).toMatchObject({ brief: "Brief by the agent", status: "briefed", title: "Rust at scale", speaker_email: "speaker@example.org" });
    expect(await search("attendees")).toEqual([]);
    expect(existsSync(db()), "the server's run opened no workspace file").toBe(false);
  });
});
