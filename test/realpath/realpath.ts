// The real-path harness (issue 13 §1–2): for every valid and installed-hostile definition
// and both targets, export, run the team the way its README says — the console script's
// entry point, inputs as flags, `resume` in a new process at each gate — with every agent
// sent to our scripted OpenAI-compatible server by environment variables alone
// (MODEL_OVERRIDE, OPENAI_BASE_URL), whatever models the definition pins. Then, from the
// logged requests: each agent's prompt arrives byte for byte after {{NAME}} substitution,
// each step sees exactly its dependencies' outputs, and only approved records pass a gate.
// Every run writes its conversations (--trace, then ENVELOPE_TRACE_FILE for the resumes):
// every line an OpenWOP conversation event, one agent turn per model answer, spoken by the
// agent whose request it was.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { checkTrace } from "../helpers/conversation-events.js";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import {
  decide,
  type Definition,
  type Exchange,
  expectedPrompt,
  exportedProject,
  marker,
  markersIn,
  runArgs,
  runTeam,
  runValues,
  scriptedReply,
  systemText,
  userText,
} from "./harness.js";

interface GateDef {
  name: string;
  afterStep: string;
  triggersStep: string;
  trigger: string;
  thresholdCount?: number;
  recordActions?: Array<{ label: string; verb: string }>;
}

const DIRS = [join(ROOT, "test/fixtures/valid"), join(ROOT, "test/fixtures/hostile/installed")];
const DEFINITIONS = DIRS.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".envelope.json"))
    .sort()
    .map((f) => ({ name: f.replace(/\.envelope\.json$/, ""), path: join(dir, f) })),
);
const MAX_RESUMES = 8;

export function describeRealPath(target: string): void {
  const gate = e2eGate();
  const work = mkdtempSync(join(tmpdir(), `envelope-realpath-${target}-`));

  describe.runIf(gate.run)(`real path on ${target}`, () => {
    let env: PythonEnv;
    const servers: ModelServer[] = [];
    beforeAll(() => {
      env = ensureEnv(target, gate.python!);
    }, 1_800_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    it.each(DEFINITIONS)("$name: runs against a local server by environment alone", async ({ name, path }) => {
      const dir = join(work, name);
      const { def, readme, pkg } = await exportedProject<Definition & { gates?: GateDef[] }>(path, target, dir);
      const gates = def.pipeline ? (def.gates ?? []) : [];
      const items = Math.max(3, ...gates.map((g) => (g.thresholdCount ?? 1) + 2));

      const exchanges: Exchange[] = [];
      const server = await startModelServer((request) => {
        const n = exchanges.length + 1;
        const reply = scriptedReply(request, n, items);
        exchanges.push({ n, request, reply });
        return reply;
      });
      servers.push(server);

      const { env: values, inputs } = runValues(def);
      const runEnv = { ...values, MODEL_OVERRIDE: "openai:realpath-model", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" };
      const traceFile = join(dir, "realpath-trace.jsonl");
      let args = [...runArgs(dir, readme, inputs), "--trace", traceFile];
      const log: string[] = [];
      const decided: Array<{ gate: string; approved: string[]; left: string[]; after: number }> = [];
      let code = -1;
      for (let round = 0; round <= MAX_RESUMES; round++) {
        // The first run names its trace file; a resume finds it in the environment.
        const run = await runTeam(env, dir, pkg, args, round === 0 ? runEnv : { ...runEnv, ENVELOPE_TRACE_FILE: traceFile });
        code = run.code;
        const quiet = (t: string) => t.split("\n").filter((l) => !l.includes("approximate input token count")).join("\n");
        log.push(`$ ${pkg} ${args.join(" ")}\nexit ${run.code}\n${quiet(run.stdout).slice(-600)}\n${quiet(run.stderr).slice(-2500)}`);
        if (run.code !== 3) break;
        // Waiting at a gate: fill in the decisions file and resume in a new process, as the README says.
        const waiting = JSON.parse(run.stdout) as { decisions_file: string; resume: string };
        const byGate = new Map(gates.map((g) => [g.name, g]));
        const chosen = decide(
          resolve(dir, waiting.decisions_file),
          (g) => (byGate.get(g)?.trigger === "threshold" ? (byGate.get(g)!.thresholdCount ?? 1) : 1),
          (g) => {
            const actions = byGate.get(g)?.recordActions;
            if (!actions?.length) return { approve: "approve", other: "skip" };
            const skip = actions.find((a) => a.verb === "skip");
            return { approve: actions.find((a) => a.verb === "approve")!.label, other: skip ? skip.label : actions.find((a) => a.verb === "approve")!.label };
          },
        );
        for (const [g, c] of Object.entries(chosen)) decided.push({ gate: g, ...c, after: exchanges.length });
        args = waiting.resume.split(" ").slice(1);
      }
      // The full exchange log stays next to the project for whoever reads a failure.
      writeFileSync(join(dir, "realpath-exchanges.json"), JSON.stringify(exchanges, null, 1));
      const transcript = `${log.join("\n---\n")}\n(requests: ${join(dir, "realpath-exchanges.json")})`;
      expect(code, `${name}: the run ends done\n${transcript}`).toBe(0);

      // Nothing but chat completions reached the server (no Responses API, no vendor path).
      expect(server.requests.filter((r) => !r.path.endsWith("/chat/completions")).map((r) => `${r.method} ${r.path}`)).toEqual([]);
      expect(new Set(exchanges.map((e) => e.request.model))).toEqual(new Set(["realpath-model"]));

      // Every agent the run reaches gets its prompt byte for byte after substitution.
      const reached = def.pipeline ? [...new Set(def.pipeline.map((s) => s.agentKey))] : def.agents.map((a) => a.key);
      const prompts = new Map(def.agents.map((a) => [a.key, expectedPrompt(a.prompt ?? "", def, values, inputs)]));
      const missing = reached.filter((k) => prompts.get(k) && !exchanges.some((e) => systemText(e.request).includes(prompts.get(k)!)));
      expect(missing, `${name}: agents whose prompt never arrived as sent\n${transcript}`).toEqual([]);

      // The trace: every line valid, and the turns are what the server saw: each model
      // answer (its marker) in exactly one agent turn, spoken by the agent whose prompt the
      // request carried (a request with no agent's prompt, CrewAI's converter, by any agent).
      expect(existsSync(traceFile), `${name}: no trace written\n${transcript}`).toBe(true);
      const trace = checkTrace(readFileSync(traceFile, "utf8"));
      expect(trace.problems, `${name}: trace ${traceFile}`).toEqual([]);
      const answers = trace.events.filter((e) => e.kind === "exchanged").map((e) => e.turn);
      // CrewAI's "<role> Requests" worker of a manager with egress speaks as <key>:requests.
      const keys = new Set(def.agents.flatMap((a) => [a.key, `${a.key}:requests`]));
      const turnProblems: string[] = [];
      // (An answer without its marker, e.g. an enum and an empty object, counts in the total only.)
      for (const e of exchanges.filter((x) => markersIn(JSON.stringify(x.reply)).includes(x.n))) {
        const mine = answers.filter((t) => markersIn(JSON.stringify(t.content)).includes(e.n));
        const owner = def.agents.find((a) => prompts.get(a.key) && systemText(e.request).includes(prompts.get(a.key)!))?.key;
        if (mine.length !== 1) turnProblems.push(`answer ${marker(e.n)}: in ${mine.length} turns`);
        for (const t of mine) {
          if (t.role !== "agent" || t.speakerId !== t.from || !keys.has(t.from)) turnProblems.push(`answer ${e.n}: spoken by ${t.role} ${t.from} (${t.speakerId})`);
          if (owner !== undefined && t.from !== owner) turnProblems.push(`answer ${e.n}: by ${t.from}, the request was ${owner}'s`);
          if (t.agent?.model?.model !== "realpath-model" || t.agent.model.provider !== "openai") turnProblems.push(`answer ${e.n}: model ${JSON.stringify(t.agent?.model)}`);
        }
      }
      if (answers.length !== exchanges.length) turnProblems.push(`${answers.length} answer turns for ${exchanges.length} requests`);
      // A reviewer's decisions: a conversation of user turns per decided record, at its gate.
      const decisions = trace.events.filter((e) => e.kind === "closed" && e.turn.role === "user").map((e) => e.turn.content as { gate?: string; action?: string });
      for (const g of new Set(decided.map((d) => d.gate))) {
        const rounds = decided.filter((d) => d.gate === g).length;
        const made = decisions.filter((c) => c.gate === g && c.action).length;
        if (made < rounds) turnProblems.push(`gate ${g}: ${made} decisions traced in ${rounds} reviews`);
      }
      expect(turnProblems, `${name}: trace ${traceFile}\n${transcript}`).toEqual([]);

      if (def.pipeline) {
        // Each step's first request carries exactly its dependencies' final outputs.
        const steps = def.pipeline.map((s, i) => ({ ...s, deps: s.dependsOn ?? (i > 0 ? [def.pipeline![i - 1]!.key] : []) }));
        // A request belongs to the step whose task it carries (CrewAI: "Current Task: <label>",
        // LangGraph: the label first), narrowed by the agent's prompt; a request of no step
        // (CrewAI's converter call, which formats a step's text answer) to the step whose
        // latest answer it quotes.
        const labelOf = (s: (typeof steps)[number]) => s.label ?? s.key;
        const ownerByTask = (e: Exchange) => {
          const user = userText(e.request);
          const byTask = steps.filter((s) => user.includes(`Current Task: ${labelOf(s)}\n`) || user.startsWith(`${labelOf(s)}\n`) || user === labelOf(s));
          const byPrompt = byTask.filter((s) => prompts.get(s.agentKey) && systemText(e.request).includes(prompts.get(s.agentKey)!));
          const found = byPrompt.length ? byPrompt : byTask;
          return found.sort((x, y) => labelOf(y).length - labelOf(x).length)[0];
        };
        const stepOf = new Map<number, string>();
        for (const e of exchanges) {
          const s = ownerByTask(e);
          if (s) stepOf.set(e.n, s.key);
          else {
            const quoted = markersIn(userText(e.request)).filter((m) => stepOf.has(m));
            if (quoted.length) stepOf.set(e.n, stepOf.get(Math.max(...quoted))!);
          }
        }
        const byStep = new Map<string, Exchange[]>();
        for (const e of exchanges) {
          const key = stepOf.get(e.n);
          if (key !== undefined) byStep.set(key, [...(byStep.get(key) ?? []), e]);
        }
        const problems: string[] = [];
        for (const s of steps) {
          const mine = byStep.get(s.key) ?? [];
          if (!mine.length) {
            problems.push(`${s.key}: no request`);
            continue;
          }
          const seen = new Set(markersIn(userText(mine[0]!.request)));
          const depMarkers = new Set(s.deps.flatMap((d) => (byStep.get(d) ?? []).map((e) => e.n)));
          const foreign = [...seen].filter((m) => !depMarkers.has(m));
          if (foreign.length) problems.push(`${s.key}: sees outputs ${foreign.join(", ")} of steps it does not depend on`);
          for (const d of s.deps) if (!(byStep.get(d) ?? []).some((e) => seen.has(e.n))) problems.push(`${s.key}: does not see the output of ${d}`);
        }
        // Only approved records reach the step a gate triggers, and no step that depends on
        // the reviewed step ever sees a record the gate did not release.
        const after = (key: string, n: number) => (byStep.get(key) ?? []).filter((e) => e.n > n).map((e) => userText(e.request)).join("\n");
        for (const d of decided) {
          const g = gates.find((x) => x.name === d.gate)!;
          const later = after(g.triggersStep, d.after);
          for (const v of d.approved) if (!later.includes(v)) problems.push(`${g.name}: approved ${v} does not reach ${g.triggersStep}`);
          for (const s of steps.filter((x) => x.key === g.triggersStep || x.deps.includes(g.afterStep))) {
            const text = after(s.key, d.after);
            for (const v of d.left) if (text.includes(v)) problems.push(`${g.name}: unapproved ${v} reaches ${s.key}`);
          }
        }
        expect(problems, `${name}\n${transcript}`).toEqual([]);
      }
    }, 900_000);

    // Each provider that speaks the OpenAI wire format goes to its own base-URL variable
    // (README: Any model endpoint), for a model name the framework does not know.
    const PROVIDERS: Record<string, Array<{ provider: string; baseUrl: string; key: string }>> = {
      crewai: [
        { provider: "mistral", baseUrl: "MISTRAL_API_BASE", key: "MISTRAL_API_KEY" },
        { provider: "openrouter", baseUrl: "OPENROUTER_BASE_URL", key: "OPENROUTER_API_KEY" },
      ],
      langgraph: [
        { provider: "mistral", baseUrl: "MISTRAL_BASE_URL", key: "MISTRAL_API_KEY" },
        { provider: "openrouter", baseUrl: "OPENROUTER_API_BASE", key: "OPENROUTER_API_KEY" },
      ],
    };
    it.each(PROVIDERS[target] ?? [])("MODEL_OVERRIDE=$provider:… goes to $baseUrl", async ({ provider, baseUrl, key }) => {
      const path = join(ROOT, "test/fixtures/valid/inventory-restock-watch.envelope.json");
      const dir = join(work, `provider-${provider}`);
      const { def, readme, pkg } = await exportedProject(path, target, dir);
      let n = 0;
      const server = await startModelServer((request) => scriptedReply(request, ++n, 2));
      servers.push(server);
      const { env: values, inputs } = runValues(def);
      const run = await runTeam(env, dir, pkg, runArgs(dir, readme, inputs), { ...values, MODEL_OVERRIDE: `${provider}:realpath-model`, [baseUrl]: server.baseUrl, [key]: "dummy" });
      expect(server.chats().length, `${run.stdout}\n${run.stderr}`).toBeGreaterThan(0);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      // Nothing but our server: LiteLLM (CrewAI's mistral) must not fetch its price table.
      expect(run.stderr).not.toContain("remote model cost map");
    }, 300_000);

    // LangGraph's runner: --model chooses one run's models (the graph's context), through the
    // provider's real client, one agent's over every agent's, none from the environment.
    it.runIf(target === "langgraph")("--model AGENT=… and --model …: each agent's requests carry the model the run chose", async () => {
      const path = join(ROOT, "test/fixtures/valid/inventory-restock-watch.envelope.json");
      const dir = join(work, "model-option");
      const { def, readme, pkg } = await exportedProject(path, target, dir);
      let n = 0;
      const server = await startModelServer((request) => scriptedReply(request, ++n, 2));
      servers.push(server);
      const { env: values, inputs } = runValues(def);
      const chosen = def.agents[def.agents.length - 1]!;
      const args = [...runArgs(dir, readme, inputs), "--model", "openai:for-every-agent", "--model", `${chosen.key}=openai:for-one-agent`];
      const run = await runTeam(env, dir, pkg, args, { ...values, OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "dummy" });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const prompts = new Map(def.agents.map((a) => [a.key, expectedPrompt(a.prompt ?? "", def, values, inputs)]));
      const byAgent = new Map<string, Set<string>>();
      for (const request of server.chats()) {
        const owner = def.agents.find((a) => systemText(request).includes(prompts.get(a.key)!))?.key ?? "?";
        byAgent.set(owner, new Set([...(byAgent.get(owner) ?? []), request.model]));
      }
      expect(byAgent.get(chosen.key), JSON.stringify([...byAgent])).toEqual(new Set(["for-one-agent"]));
      for (const [agent, models] of byAgent) if (agent !== chosen.key) expect(models, agent).toEqual(new Set(["for-every-agent"]));
      expect(byAgent.size, "more than the chosen agent was asked").toBeGreaterThan(1);
    }, 300_000);
  });
}
