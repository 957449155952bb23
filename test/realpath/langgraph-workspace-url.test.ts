// Issue 39: a person works on a served team's workspace from any machine. `workspace --url`
// reads and writes the rows in the Agent Server's own store (langgraph-sdk's store API,
// workspace_store.ServerStore), under the same rules as the agents' tools: a row written with
// it is what the server's store API returns, a stale --version is refused as a conflict, the
// listing shows the server's rows, and no workspace file is made where the command runs.
// `workspace --url delete` looks through the server's threads (the runs there) for the row's
// pii values as the local delete looks through the runner's checkpoints (run_client.
// ServerThreads), and `--help` documents --url (run_client takes it out before argparse).
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, runTeam, scriptedReply, serverRun } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";
import { type ChatRequest, type ModelServer, startModelServer, textOf } from "./model-server.js";

const gate = e2eGate();
// A speaker's email with a quote and a backslash: JSON-escaped in a thread's tool answer.
const EMAIL = 'o"neil\\talks@example.org';
const READS = "reads-T7";

const offered = (r: ChatRequest, name: string) => r.tools?.some((t) => t.function.name === name) ?? false;
const called = (r: ChatRequest, name: string) => r.messages.some((m) => (m.tool_calls ?? []).some((c) => c.function.name === name));

describe.runIf(gate.run)("workspace --url: the served team's rows, from the command line", () => {
  let env: PythonEnv;
  let dev: DevServer | undefined;
  let models: ModelServer | undefined;
  let dir = "";
  let pkg = "";
  let url = "";
  let inputs: Record<string, unknown> = {};
  const workspace = (args: string[]) => runTeam(env, dir, pkg, ["workspace", ...args], {});

  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-ws-url-")), "event-signup-desk");
    const exported = await exportedProject<Definition>(join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json"), "langgraph", dir);
    pkg = exported.pkg;
    // An agent of a run whose event names READS reads the speaker's row T7 once; else the default script.
    models = await startModelServer((request, log) => {
      const asked = request.messages.some((m) => textOf(m.content).includes(READS));
      if (asked && offered(request, "read_speaker_queue_row") && !called(request, "read_speaker_queue_row")) {
        return { toolCalls: [{ name: "read_speaker_queue_row", arguments: { id: "T7" } }] };
      }
      return scriptedReply(request, log.length, 1);
    });
    const run = serverRun(exported.def, models.baseUrl);
    inputs = run.inputs;
    dev = await startLanggraphDev(env, dir, run.env);
    url = dev.url;
  }, 1_800_000);
  afterAll(async () => {
    dev?.stop();
    await models?.close();
  });

  it("edit, conflict and list go to the server's store", async () => {
    const edited = await workspace(["--url", url, "edit", "speaker-queue", "T9", "title=Rust at scale", "duration_min=30"]);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stdout).toContain("T9: written (version 1)");
    const stored = (await (await fetch(`${url}/store/items?namespace=envelope_workspace.speaker-queue&key=T9`)).json()) as { value: { version: number; data: Record<string, unknown> } };
    expect(stored.value.version).toBe(1);
    expect(stored.value.data).toMatchObject({ talk_id: "T9", title: "Rust at scale", duration_min: 30 });

    const stale = await workspace([`--url=${url}`, "edit", "speaker-queue", "T9", "title=Later", "--version", "5"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("T9: conflict");
    const again = await workspace(["--url", url, "edit", "speaker-queue", "T9", "title=Rust at scale, again", "--version", "1"]);
    expect(again.stdout, again.stderr).toContain("T9: written (version 2)");

    const listed = await workspace(["list", "speaker-queue", "--url", url]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^#\d+ T9 v2 .*title="Rust at scale, again"/m);
    // Nothing of it here: no workspace file, and without --url the local store has no such row.
    expect(existsSync(join(dir, ".envelope-workspace.sqlite3"))).toBe(false);
    const local = await workspace(["list", "speaker-queue"]);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).not.toContain("T9");
    expect(dev!.log()).not.toMatch(/Traceback/);
  }, 900_000);

  it("--help documents --url, for workspace, its actions and watch", async () => {
    for (const args of [["workspace", "--help"], ["workspace", "delete", "--help"], ["watch", "--help"]]) {
      const help = await runTeam(env, dir, pkg, args, {});
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout, args.join(" ")).toMatch(/--url URL\s+the Agent Server/);
    }
  }, 300_000);

  it("delete looks through the server's threads for the row's pii values, and purges those holding them", async () => {
    const edited = await workspace(["--url", url, "edit", "speaker-queue", "T7", `speaker_email=${EMAIL}`, "title=Typed Rust"]);
    expect(edited.code, edited.stderr).toBe(0);
    // Two runs on the server, each a thread: one whose agent reads T7, one that reads nothing.
    const thread = async (eventName: string) => {
      const made = (await (await fetch(`${url}/threads`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { thread_id: string };
      const ran = await fetch(`${url}/threads/${made.thread_id}/runs/wait`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ assistant_id: pkg, input: { ...inputs, event_name: eventName } }) });
      expect(ran.status, `${await ran.text()}\n${dev!.log().slice(-4000)}`).toBe(200);
      return made.thread_id;
    };
    const reader = await thread(`Rust Berlin ${READS}`);
    const other = await thread("Rust Berlin");
    // The brief writer (an agent the screener asks: a subgraph's subgraph) read the row: the
    // email is in its tool answer, JSON-escaped, in that agent's checkpoints on the server.
    const answers = models!.chats().flatMap((r) => r.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content)));
    expect(answers.filter((a) => a.includes(JSON.stringify(EMAIL).slice(1, -1)))).toHaveLength(1);

    // Neither option: nothing deleted, the thread holding the email named.
    const asked = await workspace(["--url", url, "delete", "speaker-queue", "T7"]);
    expect(asked.code, asked.stderr).toBe(2);
    expect(asked.stderr).toContain(`1 stored runs (threads of the Agent Server at ${url}) hold pii values of 'T7': ${reader}. Nothing deleted`);
    expect((await fetch(`${url}/store/items?namespace=envelope_workspace.speaker-queue&key=T7`)).status).toBe(200);

    const purged = await workspace(["delete", "speaker-queue", "T7", "--purge-runs", "--url", url]);
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toContain("T7: deleted");
    expect(purged.stdout).toContain(`deleted 1 stored runs holding its pii values (threads of the Agent Server at ${url}):\n  ${reader}`);
    expect((await fetch(`${url}/threads/${reader}`)).status).toBe(404);
    expect((await fetch(`${url}/threads/${other}`)).status).toBe(200);
    const gone = await fetch(`${url}/store/items?namespace=envelope_workspace.speaker-queue&key=T7`);
    expect(`${gone.status} ${await gone.text()}`).toMatch(/^404 |^200 null$/);
    const listed = await workspace(["--url", url, "list", "speaker-queue", "--show-pii"]);
    expect(listed.stdout, listed.stderr).toMatch(/^#\d+ T9 /m);
    expect(listed.stdout).not.toContain("T7");
    expect(dev!.log()).not.toMatch(/Traceback/);
  }, 900_000);
});
