// Issue 19, schedules on the real path: an event team's `serve-webhook` runs the team for a
// signed payload and nothing for an unsigned or badly signed one; a condition team's
// `poll --once` runs the team only when the model answers yes. Asserted from the outside:
// HTTP statuses, exit codes, and which requests reached the scripted model server.
// Issue 34: `poll` and `watch` take the options of the runs they start the same way, after
// `--` (and, as poll did first, unknown options before it): each form's `--trace FILE`
// reaches the run, which writes that file.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { exportedProject, runArgs, runTeam, scriptedReply, serverRun } from "./harness.js";
import { type ChatRequest, startModelServer } from "./model-server.js";

const EVENT = join(ROOT, "test/fixtures/valid/chargeback-responder.envelope.json");
const CONDITION = join(ROOT, "test/fixtures/valid/inventory-restock-watch.envelope.json");
const TRIGGERS = join(ROOT, "test/fixtures/valid/event-signup-desk.envelope.json");
const gate = e2eGate();
/** serve-webhook's --max-bytes here: small, so one oversized body is cheap. */
const MAX_BYTES = 4096;

const isCondition = (r: ChatRequest) => JSON.stringify(r.response_format ?? {}).includes("ConditionAnswer");
const sign = (secret: string, body: string, t: number) => `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;

describe.runIf(gate.run).each(["crewai", "langgraph"])("schedules on the real path: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  /** `serve-webhook` in the exported project, as its README runs it: its port, its output so far, and how to stop it. */
  async function startReceiver(dir: string, pkg: string, values: Record<string, string>, ...options: string[]) {
    const child = spawn(env.python, ["-m", `${pkg}.main`, "serve-webhook", "--port", "0", ...options], {
      cwd: dir,
      env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: dir, PYTHONPATH: join(dir, "src"), CREWAI_DISABLE_TELEMETRY: "true", CREWAI_TRACING_ENABLED: "false", OTEL_SDK_DISABLED: "true", LANGSMITH_TRACING: "false", ...values },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const stop = () => (child.kill("SIGTERM"), closed);
    closers.push(stop);
    const out = { log: "" };
    child.stdout.on("data", (d: Buffer) => (out.log += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr.on("data", (d: Buffer) => {
        out.log += d.toString();
        const m = /Listening on http:\/\/[^:]+:(\d+)\//.exec(out.log);
        if (m) resolve(Number(m[1]));
      });
      child.on("close", () => reject(new Error(out.log)));
    });
    return { url: `http://127.0.0.1:${port}/`, out, stop };
  }

  it("a signed webhook runs the team; unsigned, badly signed, oversized and non-object ones get 401, 413, 400 or 422 and run nothing", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-webhook-${target}-`)), "chargeback-responder");
    const { def, pkg } = await exportedProject(EVENT, target, dir);
    let n = 0;
    const server = await startModelServer((request) => scriptedReply(request, ++n, 2));
    closers.push(() => server.close());
    const { env: values, inputs } = serverRun(def, server.baseUrl);
    const { url, out } = await startReceiver(dir, pkg, values, "--max-bytes", String(MAX_BYTES));
    const body = JSON.stringify(inputs);
    const secret = values.STRIPE_WEBHOOK_SECRET!;
    const now = Math.floor(Date.now() / 1000);
    const post = (headers: Record<string, string>, data = body) => fetch(url, { method: "POST", body: data, headers });
    const signed = async (data: string) => {
      const r = await post({ "X-Envelope-Signature": sign(secret, data, now) }, data);
      return { status: r.status, error: ((await r.json()) as { error?: string }).error ?? "" };
    };
    expect((await post({})).status).toBe(401);
    expect((await post({ "X-Envelope-Signature": sign("not-the-secret", body, now) })).status).toBe(401);
    expect((await post({ "X-Envelope-Signature": sign(secret, body, now - 3600) })).status).toBe(401);
    // Signed, but over --max-bytes, not JSON, not a JSON object, or short of a required
    // input (the answer names it).
    expect((await signed(JSON.stringify({ ...inputs, padding: "p".repeat(MAX_BYTES) }))).status).toBe(413);
    expect((await signed("not json")).status).toBe(400);
    expect(await signed(JSON.stringify([inputs]))).toEqual({ status: 422, error: "the payload is not a JSON object" });
    const [missing, ...rest] = Object.keys(inputs);
    const short = await signed(JSON.stringify(Object.fromEntries(rest.map((k) => [k, inputs[k]]))));
    expect(short.status).toBe(422);
    expect(short.error).toContain(`input '${missing}' is required`);
    await new Promise((r) => setTimeout(r, 1000));
    expect(server.requests.length).toBe(0);
    const ok = await post({ "X-Envelope-Signature": sign(secret, body, now) });
    expect(ok.status).toBe(202);
    const { run_id } = (await ok.json()) as { run_id: string };
    for (let i = 0; i < 240 && !out.log.includes(`[${run_id}] run finished`); i++) await new Promise((r) => setTimeout(r, 500));
    expect(out.log, out.log).toContain(`[${run_id}] run finished: exit 0`);
    expect(server.requests.length).toBeGreaterThan(0);
  }, 300_000);

  it("a replayed signed request runs nothing: two identical requests at once, again later, and after a restart get one 202 and then 409s", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-replay-${target}-`)), "chargeback-responder");
    const { def, pkg } = await exportedProject(EVENT, target, dir);
    let n = 0;
    const server = await startModelServer((request) => scriptedReply(request, ++n, 2));
    closers.push(() => server.close());
    const { env: values, inputs } = serverRun(def, server.baseUrl);
    const secret = values.STRIPE_WEBHOOK_SECRET!;
    const body = JSON.stringify(inputs);
    const headers = { "X-Envelope-Signature": sign(secret, body, Math.floor(Date.now() / 1000)) };
    type Answer = { status: number; type: string | null; body: { run_id?: string; status?: number; title?: string; error?: string } };
    const send = async (url: string): Promise<Answer> => {
      const r = await fetch(url, { method: "POST", body, headers });
      return { status: r.status, type: r.headers.get("content-type"), body: (await r.json()) as Answer["body"] };
    };

    const first = await startReceiver(dir, pkg, values);
    const both = await Promise.all([send(first.url), send(first.url)]);
    expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
    const run_id = both.find((a) => a.status === 202)!.body.run_id!;
    for (let i = 0; i < 240 && !first.out.log.includes(`[${run_id}] run finished`); i++) await new Promise((r) => setTimeout(r, 500));
    expect(first.out.log, first.out.log).toContain(`[${run_id}] run finished: exit 0`);
    const requests = server.requests.length;
    expect(requests).toBeGreaterThan(0);

    const again = await send(first.url);
    expect(again.status).toBe(409);
    expect(again.type).toBe("application/problem+json");
    expect(again.body).toMatchObject({ status: 409, title: "Replayed request", run_id });
    expect(again.body.error).toMatch(/already accepted/);
    await first.stop();
    // The record is kept in the project (the default file), so a new receiver knows it too.
    const second = await startReceiver(dir, pkg, values);
    const later = await send(second.url);
    expect(later.status).toBe(409);
    expect(later.body.run_id).toBe(run_id);
    await new Promise((r) => setTimeout(r, 2000));
    expect(server.requests.length).toBe(requests);
    expect(`${first.out.log}${second.out.log}`.match(/run started/g)).toHaveLength(1);
  }, 300_000);

  it("poll --once runs the team only when the condition model answers yes", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-poll-${target}-`)), "inventory-restock-watch");
    const { def, pkg } = await exportedProject(CONDITION, target, dir);
    let answer = false;
    let n = 0;
    const server = await startModelServer((request) => (isCondition(request) ? { json: { met: answer, reason: `scripted ${answer}` } } : scriptedReply(request, ++n, 2)));
    closers.push(() => server.close());
    const { env: values } = serverRun(def, server.baseUrl);
    const no = await runTeam(env, dir, pkg, ["poll", "--once"], values);
    expect(no.code, no.stderr).toBe(0);
    expect(server.requests.map((r) => isCondition(r.body as ChatRequest))).toEqual([true]);
    answer = true;
    const yes = await runTeam(env, dir, pkg, ["poll", "--once"], values);
    expect(yes.code, yes.stderr).toBe(0);
    const kinds = server.requests.map((r) => isCondition(r.body as ChatRequest));
    expect(kinds.filter(Boolean).length).toBe(2);
    expect(kinds.filter((k) => !k).length).toBeGreaterThan(0);
  }, 300_000);

  it("poll and watch give a run the options after -- (and unknown ones before it, poll's first form)", async () => {
    const work = mkdtempSync(join(tmpdir(), `envelope-realpath-run-options-${target}-`));
    const polled = await exportedProject(CONDITION, target, join(work, "inventory-restock-watch"));
    const watched = await exportedProject(TRIGGERS, target, join(work, "event-signup-desk"));
    let n = 0;
    const server = await startModelServer((request) => (isCondition(request) ? { json: { met: true, reason: "scripted yes" } } : scriptedReply(request, ++n, 2)));
    closers.push(() => server.close());

    const pollDir = join(work, "inventory-restock-watch");
    const pollValues = serverRun(polled.def, server.baseUrl).env;
    for (const [form, argv] of [
      ["after --", ["poll", "--once", "--", "--trace", "after.jsonl"]],
      ["before --", ["poll", "--once", "--trace", "before.jsonl"]],
    ] as const) {
      const run = await runTeam(env, pollDir, polled.pkg, [...argv], pollValues);
      expect(run.code, `poll, run options ${form}\n${run.stderr}`).toBe(0);
      expect(existsSync(join(pollDir, argv[argv.length - 1]!)), `poll, run options ${form}: the run wrote its trace`).toBe(true);
    }

    // watch: a person approves a talk (a `run` trigger), then one check runs the team.
    const watchDir = join(work, "event-signup-desk");
    const { env: watchValues, inputs } = serverRun(watched.def, server.baseUrl);
    const seeded = await runTeam(env, watchDir, watched.pkg, ["workspace", "edit", "speaker-queue", "T1", "title=Rust at scale", "status=approved", "speaker_email=speaker@example.org", "duration_min=25"], watchValues);
    expect(seeded.code, seeded.stderr).toBe(0);
    const watch = await runTeam(env, watchDir, watched.pkg, ["watch", "--once", ...runArgs(watchDir, watched.readme, inputs), "--trace", "watch.jsonl"], watchValues);
    expect(watch.code, `watch, run options before --\n${watch.stderr}`).toBe(0);
    expect(existsSync(join(watchDir, "watch.jsonl")), "watch: the run wrote its trace").toBe(true);
  }, 600_000);
});
