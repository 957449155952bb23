// Issue 39: a cron team's schedule as one of the Agent Server's own crons, through
// langgraph-sdk's client.crons, exactly as the export's README gives it. Against `langgraph
// dev` (langgraph-api's in-memory runtime has the crons API and runs its cron scheduler):
// the README's code, run twice with the run's inputs in TEAM_INPUTS, leaves one cron with the
// definition's schedule and the team's graph (it replaces the earlier one); moved to every
// minute (crons.update), the server itself starts the team's run, which ends done with the
// inputs the cron was given, its thread kept (on_run_completed "keep").
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, exportedProject, runValues, scriptedReply } from "./harness.js";
import { type DevServer, startLanggraphDev } from "./langgraph-dev-server.js";
import { type ModelServer, startModelServer } from "./model-server.js";

const gate = e2eGate();

describe.runIf(gate.run)("the team's cron on the Agent Server's crons API (langgraph dev)", () => {
  let env: PythonEnv;
  let server: ModelServer;
  let dev: DevServer | undefined;
  beforeAll(async () => {
    env = ensureEnv("langgraph", gate.python!);
    let n = 0;
    server = await startModelServer((request) => scriptedReply(request, ++n, 4));
  }, 1_800_000);
  afterAll(async () => {
    dev?.stop();
    await server?.close();
  });

  it("the README's registration: one cron with the definition's schedule; on the minute, the server runs the team", async () => {
    const base = mkdtempSync(join(tmpdir(), "envelope-realpath-crons-"));
    // 10 minutes of work: the default 30 s is spent by a loaded 2-core machine's processes.
    const definition = JSON.parse(readFileSync(join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(base, "event-signup-desk.envelope.json"), JSON.stringify({ ...definition, timeout: { runMs: 600_000 } }));
    const dir = join(base, "event-signup-desk");
    const { def, readme, pkg } = await exportedProject<Definition & { schedule: { cron: string } }>(join(base, "event-signup-desk.envelope.json"), "langgraph", dir);
    const { env: values, inputs } = runValues(def);
    expect(Object.keys(inputs).length, "a cron team with a required input: TEAM_INPUTS matters").toBeGreaterThan(0);
    const code = /```python\n(import json\n[\s\S]*?client\.crons\.create\([\s\S]*?)```/.exec(readme)?.[1];
    expect(code, "README: the cron's registration").toBeDefined();
    writeFileSync(join(dir, "register_cron.py"), code!);

    dev = await startLanggraphDev(env, dir, { ...values, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" });
    const url = dev.url;
    const log = () => dev!.log().slice(-3000);

    // Not spawnSync: the model server answering the served team's calls is in this process.
    const py = (args: string[], extra: Record<string, string> = {}) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(join(env.bin, "python"), args, { cwd: dir, env: { PATH: process.env.PATH, HOME: join(dir, ".home"), LANGGRAPH_URL: url, ...extra } });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
        child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
        child.on("close", (status) => done({ status, stdout, stderr }));
      });
    for (let i = 0; i < 2; i++) {
      const registered = await py(["register_cron.py"], { TEAM_INPUTS: JSON.stringify(inputs) });
      expect(registered.status, `${registered.stderr}\n${log()}`).toBe(0);
    }
    // What the server holds, then the schedule moved to every minute; then wait for its run.
    const probe = `
import json, sys, time
from langgraph_sdk import get_sync_client
client = get_sync_client(url=sys.argv[1])
crons = client.crons.search(metadata={"envelope_schedule": sys.argv[2]})
out = {"crons": [{"schedule": c["schedule"], "metadata": c["metadata"], "input": c["payload"].get("input"), "on_run_completed": c.get("on_run_completed")} for c in crons]}
client.crons.update(crons[0]["cron_id"], schedule="* * * * *")
deadline = time.time() + 150
threads = []
while not threads and time.time() < deadline:
    threads = client.threads.search(limit=20)
    time.sleep(1)
# One run is enough: the next minute's would share the scripted model server with it.
client.crons.update(crons[0]["cron_id"], enabled=False)
if threads:
    runs = []
    while not runs:
        runs = client.runs.list(threads[0]["thread_id"])
    [run] = runs
    out["joined"] = client.runs.join(threads[0]["thread_id"], run["run_id"])
    out["values"] = client.threads.get(threads[0]["thread_id"])["values"]
print(json.dumps(out))
`;
    const seen = await py(["-c", probe, url, pkg]);
    expect(seen.status, `${seen.stderr}\n${log()}`).toBe(0);
    const result = JSON.parse(seen.stdout) as { crons: Array<{ schedule: string; metadata: Record<string, unknown>; input: unknown; on_run_completed: string }>; values?: { status: string; inputs: Record<string, unknown>; result: unknown } };
    expect(result.crons).toHaveLength(1);
    expect(result.crons[0]!.schedule).toBe(def.schedule.cron);
    expect(result.crons[0]!.metadata).toMatchObject({ envelope_schedule: pkg });
    expect(result.crons[0]!.input).toEqual(inputs);
    expect(result.values?.status, `the cron's run: ${seen.stdout}\n${log()}`).toBe("done");
    expect(result.values!.inputs).toMatchObject(inputs);
    expect(result.values!.result).not.toBeNull();
  }, 900_000);
});
