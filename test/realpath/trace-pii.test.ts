// Issue 34, both targets: a run of event-signup-desk with `--trace` whose screener writes an
// attendee (email and full_name are `pii` columns) through its workspace tool. The value is in
// the screener's model answer (the tool call's arguments) before the store holds it; the trace,
// read with the validating reader, must still hold it only redacted, as the README says.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { checkTrace } from "../helpers/conversation-events.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { exportedProject, runArgs, runTeam, scriptedReply, serverRun } from "./harness.js";
import { type ChatRequest, startModelServer } from "./model-server.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json");
const gate = e2eGate();
const EMAIL = "ada.pii-34@example.org";
const NAME = "Ada Piiperson";

const offers = (request: ChatRequest, name: string) => request.tools?.some((t) => t.function.name === name) ?? false;
const wrote = (request: ChatRequest) => request.messages.some((m) => (m.tool_calls ?? []).some((c) => c.function.name === "write_attendees_rows"));

describe.runIf(gate.run).each(["crewai", "langgraph"])("a traced run's first write of a pii value: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("the trace is valid and holds the write, its pii values redacted", async () => {
    const work = mkdtempSync(join(tmpdir(), `envelope-realpath-trace-pii-${target}-`));
    const dir = join(work, "event-signup-desk");
    const { def, readme, pkg } = await exportedProject(FIXTURE, target, dir);
    const server = await startModelServer((request) => {
      if (!request.response_format && offers(request, "write_attendees_rows") && !wrote(request)) {
        const row = { data: { email: EMAIL, full_name: NAME, company: "Analytical Engines", status: "confirmed" } };
        return { toolCalls: [{ name: "write_attendees_rows", arguments: { rows: [row] } }] };
      }
      return scriptedReply(request, server.requests.length, 2);
    });
    closers.push(() => server.close());
    const { env: values, inputs } = serverRun(def, server.baseUrl);
    const runEnv = { ...values, ENVELOPE_WORKSPACE_DB: join(work, "store", "workspace.sqlite3") };
    const traceFile = join(work, "trace.jsonl");

    const run = await runTeam(env, dir, pkg, [...runArgs(dir, readme, inputs), "--trace", traceFile], runEnv);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    // The agent's write went through: the store holds the values.
    const shown = await runTeam(env, dir, pkg, ["workspace", "show", "attendees", EMAIL, "--show-pii"], runEnv);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(NAME);

    const text = readFileSync(traceFile, "utf8");
    const { problems, events } = checkTrace(text);
    expect(problems).toEqual([]);
    // The screener's answer that asked for the write is a turn of the trace (so the check
    // below is about it), with the values redacted.
    const writes = events.filter((e) => JSON.stringify(e.turn.content).includes("write_attendees_rows") || JSON.stringify(e.turn.content).includes("Analytical Engines"));
    expect(writes.length, text).toBeGreaterThan(0);
    expect(JSON.stringify(writes.map((e) => e.turn.content))).toContain("[redacted]");
    for (const value of [EMAIL, NAME]) expect(text.includes(value), `${value} in the trace`).toBe(false);
  }, 400_000);
});
