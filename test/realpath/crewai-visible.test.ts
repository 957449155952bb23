// What a CrewAI developer sees is the team's real text (issue 14, Done when): for every valid
// fixture, no `[[envelope-` anywhere in the export, in `--verbose` output or in CrewAI's
// task-output log (`crewai log-tasks-outputs` and its storage); for two of them, none on
// CrewAI's event bus either. The verbose output shows each reached agent's role and its
// task's text, the events each rendered prompt. Seen from the outside only: the exported
// files, the console script, the crewai CLI, and the event bus through the documented
// `<pkg>.main.main(argv)` (crewai_driver.py).
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { type ModelServer, startModelServer } from "./model-server.js";
import {
  type Definition,
  envelopeMarkers,
  type Exchange,
  expectedPrompt,
  exportedProject,
  jsonStrings,
  runArgs,
  runInProject,
  runTeam,
  runValues,
  scriptedReply,
  systemText,
} from "./harness.js";

const VALID = join(ROOT, "test/fixtures/valid");
const FIXTURES = readdirSync(VALID)
  .filter((f) => f.endsWith(".envelope.json"))
  .sort()
  .map((f) => ({ name: f.replace(/\.envelope\.json$/, ""), path: join(VALID, f) }));
// Events: one hierarchy, one pipeline with gates (stops at exit 3).
const DEEP = ["chargeback-responder", "parallel-gates"];
const DRIVER = join(ROOT, "test/realpath/crewai_driver.py");

/** Every regular file under `dir`, as [relative path, text]. */
function filesOf(dir: string): Array<[string, string]> {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => [p, readFileSync(join(dir, p), "latin1")]);
}

/** Text as rich prints it (panel borders, wrapped lines), reduced to words. */
const words = (text: string) => text.replace(/[│┃╭╮╰╯─━┌┐└┘├┤]/g, " ").replace(/\s+/g, " ").trim();

const gate = e2eGate();

describe.runIf(gate.run)("crewai: no envelope marker is visible, the real text is", () => {
  let env: PythonEnv;
  const work = mkdtempSync(join(tmpdir(), "envelope-realpath-visible-"));
  const servers: ModelServer[] = [];
  beforeAll(() => {
    env = ensureEnv("crewai", gate.python!);
  }, 1_800_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  /** Exports `path`, starts a scripted server; the run's environment and arguments. */
  async function prepare(name: string, path: string, dir: string) {
    const { def, readme, pkg } = await exportedProject<Definition & { description?: string }>(path, "crewai", join(work, dir, name));
    const project = join(work, dir, name);
    const exchanges: Exchange[] = [];
    const server = await startModelServer((request) => {
      const n = exchanges.length + 1;
      const reply = scriptedReply(request, n, 3);
      exchanges.push({ n, request, reply });
      return reply;
    });
    servers.push(server);
    const { env: values, inputs } = runValues(def);
    const runEnv = { ...values, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy", COLUMNS: "200" };
    const prompts = new Map(def.agents.map((a) => [a.key, expectedPrompt(a.prompt ?? "", def, values, inputs)]));
    // The agents this run reached: those whose rendered prompt some request carries.
    const reached = () => def.agents.filter((a) => prompts.get(a.key) && exchanges.some((e) => systemText(e.request).includes(prompts.get(a.key)!)));
    return { def, readme, pkg, project, exchanges, runEnv, inputs, prompts, reached };
  }

  /** CrewAI's own record of the last run, through its CLI (same cwd and data home), and the storage behind it. */
  async function taskLogProblems(project: string, runEnv: Record<string, string>): Promise<string[]> {
    const problems: string[] = [];
    const log = await runInProject(env, project, join(env.bin, "crewai"), ["log-tasks-outputs"], runEnv, 120_000);
    expect(log.code, `${log.stdout}\n${log.stderr}`).toBe(0);
    expect(log.stdout, "crewai log-tasks-outputs lists the run's tasks").toMatch(/Task \d+:/);
    const logged = envelopeMarkers(`${log.stdout}\n${log.stderr}`);
    if (logged.length) problems.push(`crewai log-tasks-outputs: ${logged.join(" | ")}`);
    // Byte for byte: the storage also keeps the messages sent.
    for (const [file, text] of filesOf(join(project, ".home"))) {
      const found = envelopeMarkers(text, 2);
      if (found.length) problems.push(`storage .home/${file}: ${found.join(" | ")}`);
    }
    return problems;
  }

  it.each(FIXTURES)("$name: no marker in the export, in --verbose or in the task-output log; verbose shows roles and tasks", async ({ name, path }) => {
    const started = Date.now();
    const p = await prepare(name, path, "verbose");
    const problems: string[] = [];
    for (const [file, text] of filesOf(p.project)) {
      const found = envelopeMarkers(text, 2);
      if (found.length) problems.push(`export ${file}: ${found.join(" | ")}`);
    }
    const run = await runTeam(env, p.project, p.pkg, [...runArgs(p.project, p.readme, p.inputs), "--verbose"], p.runEnv);
    const output = `${run.stdout}\n${run.stderr}`;
    // Kept next to the project for whoever reads a failure.
    writeFileSync(join(p.project, "verbose-output.txt"), output);
    expect([0, 3], `exit ${run.code}\n${run.stderr.slice(-3000)}`).toContain(run.code);
    const found = envelopeMarkers(output);
    if (found.length) problems.push(`--verbose output: ${found.join(" | ")}`);
    const reached = p.reached();
    expect(reached.length, `${name}: no agent reached`).toBeGreaterThan(0);
    // CrewAI's verbose panels name the agent (its role) and the task it works on; they never
    // print a backstory, so the prompts are looked for in the events below instead.
    const shown = words(output);
    for (const agent of reached) {
      if (!shown.includes(words(agent.name))) problems.push(`--verbose output lacks the role of ${agent.key}: ${agent.name}`);
    }
    if (p.def.pipeline) {
      for (const agent of reached) {
        const labels = p.def.pipeline.filter((s) => s.agentKey === agent.key).map((s) => s.label ?? s.key);
        if (labels.length && !labels.some((l) => shown.includes(words(l)))) problems.push(`--verbose output shows no task of ${agent.key}: ${labels.join(" / ")}`);
      }
    } else {
      // The team's task: the definition's description.
      if (p.def.description && !shown.includes(words(p.def.description))) problems.push(`--verbose output lacks the team's description: ${p.def.description.slice(0, 80)}`);
    }
    problems.push(...(await taskLogProblems(p.project, p.runEnv)));
    expect(problems, `${name} (${Date.now() - started} ms)`).toEqual([]);
  }, 600_000);

  it.each(FIXTURES.filter((f) => DEEP.includes(f.name)))("$name: no marker in CrewAI's events; they carry the roles and rendered prompts", async ({ name, path }) => {
    const p = await prepare(name, path, "events");
    const out = join(p.project, "events.json");
    const args = runArgs(p.project, p.readme, p.inputs);
    const run = await runInProject(env, p.project, env.python, [DRIVER, "events", p.pkg, out, JSON.stringify(args)], p.runEnv);
    expect(run.code, `${run.stdout}\n${run.stderr.slice(-3000)}`).toBe(0);
    const dumped = JSON.parse(readFileSync(out, "utf8")) as { code: number; types: number; events: Array<{ type: string; data: unknown }> };
    expect([0, 3], `main.main exit ${dumped.code}\n${run.stderr.slice(-3000)}`).toContain(dumped.code);
    expect(dumped.events.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const byType = new Map<string, string[]>();
    for (const event of dumped.events) {
      const found = envelopeMarkers(jsonStrings(event.data).join("\n"), 1);
      if (found.length) byType.set(event.type, [...(byType.get(event.type) ?? []), ...found]);
    }
    for (const [type, found] of byType) problems.push(`events ${type} (${found.length}): ${found[0]}`);
    const eventText = dumped.events.flatMap((e) => jsonStrings(e.data)).join("\n");
    for (const agent of p.reached()) {
      if (!eventText.includes(agent.name)) problems.push(`events lack the role of ${agent.key}: ${agent.name}`);
      if (!eventText.includes(p.prompts.get(agent.key)!)) problems.push(`events lack the prompt of ${agent.key}`);
    }
    expect(problems, `${name} (${dumped.events.length} events of ${dumped.types} types)`).toEqual([]);
  }, 600_000);
});
