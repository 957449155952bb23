// Transient provider errors on the real path (issue 13 §3): the scripted server answers the
// first requests with 503, as an overloaded provider does; the run still finishes. CrewAI:
// four failures outlast the OpenAI client's own two retries, so the agent's max_retry_limit
// must take over. LangGraph (issue 34): one retry layer, around one model request
// (agents.model_retry), as many failures as the README's bound allows; a provider that
// always fails gets each model call exactly that often, and a retry never makes a
// completed model or tool call again.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type Definition, type Exchange, expectedPrompt, exportedProject, proxyEnv, recordingProxy, runArgs, runTeam, runValues, scriptedReply, systemText } from "./harness.js";
import { type ChatRequest, type LoggedRequest, startModelServer } from "./model-server.js";

const FIXTURE = join(ROOT, "test/fixtures/valid/weekly-pipeline-review.envelope.json");
const FAILURES = 4;

/** The LangGraph README's bound: "a failing model call reaches the provider at most N times". */
function statedAttempts(readme: string): number {
  const found = /a failing model call reaches\s+the provider at most (\d+) times/.exec(readme);
  expect(found, "the README states how often a failing model call is sent").not.toBeNull();
  return Number(found![1]);
}

const gate = e2eGate();

describe.runIf(gate.run).each(["crewai", "langgraph"])("transient provider errors on the real path: %s", (target) => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv(target, gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it(`503 answers in a row (${target === "crewai" ? FAILURES : "one fewer than the README's bound"}) are retried and the run finishes`, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), `envelope-realpath-503-${target}-`)), "weekly-pipeline-review");
    const { def, readme, pkg } = await exportedProject(FIXTURE, target, dir);
    const exchanges: Exchange[] = [];
    let failed = 0;
    const failures = target === "langgraph" ? statedAttempts(readme) - 1 : FAILURES;
    const server = await startModelServer((request) => {
      if (failed < failures) {
        failed += 1;
        return { status: 503, error: "the scripted provider is overloaded" };
      }
      const n = exchanges.length + 1;
      const reply = scriptedReply(request, n, 2);
      exchanges.push({ n, request, reply });
      return reply;
    });
    closers.push(() => server.close());
    const { env: values, inputs } = runValues(def);
    const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
      ...values,
      MODEL_OVERRIDE: "openai:realpath-model",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "dummy",
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(failed).toBe(failures);
    expect(server.requests.length).toBeGreaterThan(failures);
  }, 300_000);
});

/** How many times each distinct request body reached the server. */
function sentTimes(requests: readonly LoggedRequest[]): number[] {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.raw, (counts.get(r.raw) ?? 0) + 1);
  return [...counts.values()];
}

describe.runIf(gate.run)("retries of a LangGraph team's model calls on the real path", () => {
  let env: PythonEnv;
  const closers: Array<() => unknown> = [];
  beforeAll(() => {
    env = ensureEnv("langgraph", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  for (const name of ["weekly-pipeline-review", "parallel-gates"]) {
    it(`${name}: a provider that always fails gets a model call as often as the README says, then the run fails`, async () => {
      const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-down-")), name);
      const { def, readme, pkg } = await exportedProject(join(ROOT, `test/fixtures/valid/${name}.envelope.json`), "langgraph", dir);
      const attempts = statedAttempts(readme);
      const server = await startModelServer(() => ({ status: 503, error: "the scripted provider is down" }));
      closers.push(() => server.close());
      const { env: values, inputs } = runValues(def);
      const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
        ...values,
        MODEL_OVERRIDE: "openai:realpath-model",
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: "dummy",
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
      expect(run.stderr).toContain("Run failed");
      // Each model call is one request body, sent again as is on every retry: the first
      // reached the provider exactly `attempts` times, none more (a parallel step's call may
      // be cancelled sooner when the run fails).
      const times = sentTimes(server.requests);
      expect(Math.max(...times), JSON.stringify(times)).toBe(attempts);
      expect(server.requests.length, JSON.stringify(times)).toBeLessThanOrEqual(attempts * times.length);
    }, 300_000);
  }

  it("a transient error in one report's model call sends that request again, and no other model or tool call", async () => {
    // incident-response-crew: the commander asks its three reports one after another; each
    // agent first calls http_request on a host of its own (the proxy counts the calls). The
    // last report's request after its tool call fails with 503 as often as a retry allows.
    const dir = join(mkdtempSync(join(tmpdir(), "envelope-realpath-report-503-")), "incident-response-crew");
    const { def, readme, pkg } = await exportedProject<Definition>(join(ROOT, "test/fixtures/valid/incident-response-crew.envelope.json"), "langgraph", dir);
    const failures = statedAttempts(readme) - 1;
    const { env: base, inputs } = runValues(def);
    const values = { ...base, DATADOG_SITE: "datadoghq.com", GITHUB_ORG: "acme" };
    const urls: Record<string, string> = {
      "incident-commander": "https://api.pagerduty.com/incidents",
      investigator: "https://api.datadoghq.com/api/v1/monitors",
      "deploy-analyst": "https://api.github.com/repos/acme/svc/pulls",
      "comms-writer": "https://api.statuspage.io/v1/pages",
    };
    const failing = "comms-writer";
    const prompts = def.agents.map((a) => ({ key: a.key, prompt: expectedPrompt(a.prompt ?? "", def, values, inputs) }));
    const ownerOf = (request: ChatRequest) => prompts.find((p) => systemText(request) === p.prompt)?.key ?? "?";

    const once = async (fail: number) => {
      const proxy = await recordingProxy();
      closers.push(() => new Promise((r) => proxy.server.close(r)));
      const owners: string[] = [];
      let failed = 0;
      const exchanges: Exchange[] = [];
      const server = await startModelServer((request) => {
        const owner = ownerOf(request);
        owners.push(owner);
        if (owner === failing && request.messages.some((m) => m.role === "tool") && failed < fail) {
          failed += 1;
          return { status: 503, error: "the scripted provider is overloaded" };
        }
        const n = exchanges.length + 1;
        const reply = scriptedReply(request, n, 2, urls[owner] ? [{ method: "GET", url: urls[owner] }] : []);
        exchanges.push({ n, request, reply });
        return reply;
      });
      closers.push(() => server.close());
      const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), {
        ...values,
        MODEL_OVERRIDE: "openai:realpath-model",
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: "dummy",
        ...proxyEnv(proxy.url),
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(failed).toBe(fail);
      const perAgent = Object.fromEntries(def.agents.map((a) => [a.key, owners.filter((o) => o === a.key).length]));
      const perHost = Object.fromEntries(Object.values(urls).map((u) => [new URL(u).host, proxy.hosts.filter((h) => h === `${new URL(u).host}:443`).length]));
      return { perAgent, perHost, times: sentTimes(server.requests) };
    };

    const clean = await once(0);
    // Every agent worked and made its own tool call, once.
    for (const [key, count] of Object.entries(clean.perAgent)) expect(count, key).toBeGreaterThan(1);
    expect(Object.values(clean.perHost)).toEqual([1, 1, 1, 1]);
    expect(clean.times.every((t) => t === 1)).toBe(true);

    const flaky = await once(failures);
    // Only the failed request went out again: the commander and the reports that had
    // answered made no request, and no agent a tool call, a second time.
    expect(flaky.perAgent).toEqual({ ...clean.perAgent, [failing]: clean.perAgent[failing]! + failures });
    expect(flaky.perHost).toEqual(clean.perHost);
    expect(flaky.times.sort((a, b) => b - a)).toEqual([failures + 1, ...clean.times.slice(1)]);
  }, 600_000);
});
