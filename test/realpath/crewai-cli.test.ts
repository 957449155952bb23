// The CrewAI CLI on exported projects (issue 14): `crewai run`, `crewai flow kickoff`,
// `crewai train`, `crewai replay`, `crewai test`, `crewai flow plot` and `run_with_trigger`,
// typed in the project folder as a CrewAI developer would, every model call sent to our
// scripted server. CrewAI's CLI runs `uv run <script>`: each project gets its own `.venv`
// (what `uv run` uses) holding only the project itself and its vendored envelope-runtime, both
// installed editable, over the cached CrewAI environment (a .pth line), so the console scripts
// and the runtime library are this project's and nothing is downloaded (UV_NO_SYNC, UV_OFFLINE). CrewAI's CLI reports a failed script on stderr and
// exits 0 itself, so the checks read the output, not the exit code.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { cacheRoot, e2eGate, ensureEnv, type PythonEnv, UV_VERSION } from "../e2e/python-env.js";
import { type Definition, exportedProject, type Invocation, runValues, scriptedReply } from "./harness.js";
import { type ChatRequest, type ModelServer, startModelServer } from "./model-server.js";

const CREW = join(ROOT, "test/fixtures/valid/chargeback-responder.envelope.json");
const FLOW = join(ROOT, "test/fixtures/valid/parallel-gates.envelope.json");
const UV_BIN = join(cacheRoot(), `uv-${UV_VERSION}`, "bin");

const gate = e2eGate();

interface Project {
  dir: string;
  pkg: string;
  def: Definition;
  env: Record<string, string>;
}

/** Exports `fixture` into `dir` with its own .venv over the cached environment. */
async function cliProject(env: PythonEnv, fixture: string, dir: string): Promise<Project> {
  const { def, pkg } = await exportedProject(fixture, "crewai", dir);
  const uv = join(UV_BIN, "uv");
  const venv = join(dir, ".venv");
  execFileSync(uv, ["venv", "--quiet", "--python", env.python, venv], { stdio: "pipe" });
  const site = execFileSync(env.python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { encoding: "utf8" }).trim();
  const own = execFileSync(join(venv, "bin", "python"), ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { encoding: "utf8" }).trim();
  writeFileSync(join(own, "_envelope_cached_env.pth"), `${site}\n`);
  // Not --offline: building the editable install needs the project's build backend (hatchling),
  // which a fresh machine's uv cache does not hold yet (installProject fetches it the same way).
  // The project's dependencies come from the cached environment (--no-deps), never from here,
  // except envelope-runtime: the export's own vendored copy, which its [tool.uv.sources] names
  // (the cached environment's editable install of this checkout's library is behind a .pth
  // file there, which a .pth line does not read).
  const library = join(dir, "vendor", "envelope-runtime");
  execFileSync(uv, ["pip", "install", "--quiet", "--python", join(venv, "bin", "python"), "--no-deps", "-e", dir, "-e", library], { stdio: "pipe" });
  const where = execFileSync(join(venv, "bin", "python"), ["-c", `import ${pkg}, envelope_runtime; print(${pkg}.__file__); print(envelope_runtime.__file__)`], { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH, PYTHONPATH: join(dir, "src") } }).trim().split("\n");
  expect(where[0]!.startsWith(join(dir, "src"))).toBe(true);
  expect(where[1]!.startsWith(join(library, "src"))).toBe(true);
  return { dir, pkg, def, env: runValues(def).env };
}

/** The environment of every command: the project's secrets and variables, our server, no telemetry. */
function commandEnv(project: Project, server: ModelServer, extra: Record<string, string>): Record<string, string> {
  const home = join(project.dir, ".home");
  mkdirSync(join(home, "tmp"), { recursive: true });
  return {
    PATH: `${UV_BIN}:${process.env.PATH}`,
    HOME: home,
    XDG_DATA_HOME: join(home, "data"),
    TMPDIR: join(home, "tmp"),
    PYTHONPATH: join(project.dir, "src"),
    PYTHONDONTWRITEBYTECODE: "1",
    NO_COLOR: "1",
    UV_NO_SYNC: "1",
    UV_OFFLINE: "1",
    UV_NO_CONFIG: "1",
    UV_PYTHON_DOWNLOADS: "never",
    UV_CACHE_DIR: join(home, "uv-cache"),
    CREWAI_DISABLE_TELEMETRY: "true",
    CREWAI_DISABLE_TRACKING: "true",
    CREWAI_TRACING_ENABLED: "false",
    CREWAI_DISABLE_VERSION_CHECK: "true",
    OTEL_SDK_DISABLED: "true",
    ...project.env,
    MODEL_OVERRIDE: "openai:realpath-model",
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: "dummy",
    ...extra,
  };
}

interface Options {
  /** Piped to standard input, which is then closed. */
  stdin?: string;
  /** Run at a terminal (a pseudo-terminal): each answer is typed when its prompt appears. */
  tty?: Array<{ prompt: string; answer: string }>;
}

/** Runs `command` in the project folder. */
function run(project: Project, server: ModelServer, command: string[], extra: Record<string, string> = {}, options: Options = {}, timeoutMs = 240_000): Promise<Invocation> {
  const env = commandEnv(project, server, extra);
  const argv = options.tty ? [join(project.dir, ".venv", "bin", "python"), "-c", "import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))", ...command] : command;
  const child = spawn(argv[0]!, argv.slice(1), { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const pending = [...(options.tty ?? [])];
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    // A pseudo-terminal echoes what is typed: look for each prompt after the previous answer.
    while (pending.length && stdout.includes(pending[0]!.prompt)) {
      const { prompt, answer } = pending.shift()!;
      stdout = stdout.replace(prompt, `[asked ${prompt}]`);
      child.stdin.write(`${answer}\r`);
    }
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  if (!options.tty) child.stdin.end(options.stdin ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      if (options.tty) child.stdin.destroy();
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** The first JSON object printed on its own lines (the runner's result or pending summary). */
function printedJson(stdout: string): Record<string, unknown> {
  const found = /^\{$[\s\S]*?^\}$/m.exec(stdout.replace(/\r\n/g, "\n"));
  expect(found, stdout).not.toBeNull();
  return JSON.parse(found![0]) as Record<string, unknown>;
}

describe.runIf(gate.run)("the CrewAI CLI on exported projects", () => {
  let env: PythonEnv;
  let server: ModelServer;
  const requests: ChatRequest[] = [];
  const work = mkdtempSync(join(tmpdir(), "envelope-realpath-cli-"));
  const crewai = (): string => join(env.bin, "crewai");
  /** Whether any request since `from` carries `text`. */
  const sent = (text: string, from = 0): boolean => requests.slice(from).some((r) => JSON.stringify(r).includes(text));
  const failure = (r: Invocation): string => `${r.stdout}\n${r.stderr}`;

  beforeAll(async () => {
    env = ensureEnv("crewai", gate.python!);
    server = await startModelServer((request) => {
      requests.push(request);
      return scriptedReply(request, requests.length, 3);
    });
  }, 1_800_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("a crew (hierarchy team: chargeback-responder)", () => {
    let crew: Project;
    beforeAll(async () => {
      crew = await cliProject(env, CREW, join(work, "chargeback-responder"));
    }, 120_000);

    it("`crewai run` takes inputs from inputs.json and INPUT_<NAME> variables (which win)", async () => {
      writeFileSync(join(crew.dir, "inputs.json"), JSON.stringify({ dispute_id: "dp-file-1", charge_id: "ch-file-2", reason: "reason-file-0" }));
      const from = requests.length;
      const r = await run(crew, server, [crewai(), "run"], { INPUT_REASON: "reason-env-3" });
      expect(r.stderr, failure(r)).not.toContain("An error occurred");
      expect(printedJson(r.stdout)).toHaveProperty("win_likelihood");
      for (const value of ["dp-file-1", "ch-file-2", "reason-env-3"]) expect(sent(value, from), value).toBe(true);
      expect(sent("reason-file-0", from)).toBe(false);
    }, 240_000);

    it("`crewai run` at a terminal asks for the required inputs it was not given", async () => {
      writeFileSync(join(crew.dir, "inputs.json"), JSON.stringify({ dispute_id: "dp-file-4" }));
      const from = requests.length;
      const tty = [
        { prompt: "charge_id - ", answer: "ch-tty-5" },
        { prompt: "reason - ", answer: "reason-tty-6" },
      ];
      const r = await run(crew, server, [crewai(), "run"], {}, { tty });
      expect(r.stdout, failure(r)).toContain("[asked reason - ]");
      expect(r.stdout, failure(r)).not.toContain("An error occurred");
      for (const value of ["dp-file-4", "ch-tty-5", "reason-tty-6"]) expect(sent(value, from), value).toBe(true);
    }, 240_000);

    it("without a terminal, missing inputs stop the run before any model call, saying where inputs go", async () => {
      writeFileSync(join(crew.dir, "inputs.json"), "{}");
      const from = requests.length;
      const r = await run(crew, server, [crewai(), "run"]);
      expect(r.stderr).toContain("input 'charge_id' is required");
      expect(r.stderr).toContain("inputs.json, as INPUT_<NAME> variables");
      expect(r.stderr).toContain("returned non-zero exit status 2");
      expect(requests.length).toBe(from);
    }, 240_000);

    // Fails today: the task's text is a marker whose tag is random per process (prompts.py), so
    // CrewAI's Task.key (md5 of description and expected output) differs from the stored
    // one and Crew.replay refuses ("the current crew does not match the stored task
    // outputs"). Turn into `it` once the task carries its real text (issue 14).
    let taskId: string | undefined;
    it("`crewai log-tasks-outputs` lists the task of the last run", async () => {
      writeFileSync(join(crew.dir, "inputs.json"), JSON.stringify({ dispute_id: "dp-7", charge_id: "ch-8", reason: "reason-9" }));
      const first = await run(crew, server, [crewai(), "run"]);
      expect(first.stderr, failure(first)).not.toContain("An error occurred");
      const log = await run(crew, server, [crewai(), "log-tasks-outputs"]);
      taskId = /^Task 1: (\S+)$/m.exec(log.stdout)?.[1];
      expect(taskId, failure(log)).toBeDefined();
    }, 240_000);

    it("`crewai replay -t <id from crewai log-tasks-outputs>` runs the crew again from that task", async () => {
      expect(taskId).toBeDefined();
      const from = requests.length;
      const r = await run(crew, server, [crewai(), "replay", "-t", taskId!]);
      expect(r.stderr).not.toContain("the current crew does not match the stored task outputs");
      expect(r.stderr, failure(r)).not.toContain("An error occurred");
      expect(printedJson(r.stdout)).toHaveProperty("win_likelihood");
      expect(sent("dp-7", from)).toBe(true);
    }, 240_000);

    it("`crewai train -n 1 -f FILE` asks for feedback, sends it to the model and writes FILE", async () => {
      writeFileSync(join(crew.dir, "inputs.json"), JSON.stringify({ dispute_id: "dp-10", charge_id: "ch-11", reason: "reason-12" }));
      const from = requests.length;
      const r = await run(crew, server, [crewai(), "train", "-n", "1", "-f", "trained.pkl"], {}, { stdin: "feedback-train-13 keep it short\n" });
      expect(r.stderr, failure(r)).not.toContain("An error occurred");
      expect(r.stdout, failure(r)).toContain("Training Feedback Required");
      expect(sent("feedback-train-13", from)).toBe(true);
      expect(sent("dp-10", from)).toBe(true);
      // What the run taught, per agent role: the manager, who runs the crew's task and got the
      // feedback, is not in Crew.agents, whose lessons alone Crew.train keeps (it saved {}).
      const read = "import pickle, sys; print(__import__('json').dumps(pickle.load(open(sys.argv[1], 'rb'))))";
      const trained = JSON.parse(execFileSync(env.python, ["-c", read, join(crew.dir, "trained.pkl")], { encoding: "utf8" })) as Record<string, { suggestions: string[] }>;
      expect(Object.keys(trained), failure(r)).toHaveLength(1);
      expect(Object.values(trained)[0]!.suggestions.length).toBeGreaterThan(0);
    }, 240_000);

    it("`crewai test -n 1 -m MODEL` runs the crew and scores it with MODEL (on our server too)", async () => {
      const from = requests.length;
      const r = await run(crew, server, [crewai(), "test", "-n", "1", "-m", "openai/realpath-model"]);
      expect(r.stderr, failure(r)).not.toContain("An error occurred");
      expect(r.stdout, failure(r)).toContain("Tasks Scores");
      expect(r.stdout).toMatch(/Crew\s*│\s*\d/);
      // CrewAI's evaluator agent, on MODEL, scored the task.
      const scoring = requests.slice(from).filter((q) => JSON.stringify(q.messages).includes("Task Execution Evaluator"));
      expect(scoring.length).toBeGreaterThan(0);
      expect(scoring.every((q) => q.model === "realpath-model")).toBe(true);
    }, 240_000);

    it("`run_with_trigger` takes CrewAI's {crewai_trigger_payload: …} and plain inputs", async () => {
      writeFileSync(join(crew.dir, "inputs.json"), "{}");
      let from = requests.length;
      const payload = { crewai_trigger_payload: { dispute_id: "dp-trig-14", event: "charge.dispute.created" }, charge_id: "ch-trig-15" };
      // The trigger's inputs win over the environment's.
      let r = await run(crew, server, ["uv", "run", "run_with_trigger", JSON.stringify(payload)], { INPUT_REASON: "reason-env-16", INPUT_DISPUTE_ID: "dp-env-0" });
      expect(r.code, failure(r)).toBe(0);
      expect(printedJson(r.stdout)).toHaveProperty("win_likelihood");
      expect(r.stderr).toContain("unused: event");
      for (const value of ["dp-trig-14", "ch-trig-15", "reason-env-16"]) expect(sent(value, from), value).toBe(true);
      expect(sent("dp-env-0", from)).toBe(false);

      from = requests.length;
      r = await run(crew, server, ["uv", "run", "run_with_trigger", JSON.stringify({ dispute_id: "dp-17", charge_id: "ch-18", reason: "reason-19" })]);
      expect(r.code, failure(r)).toBe(0);
      for (const value of ["dp-17", "ch-18", "reason-19"]) expect(sent(value, from), value).toBe(true);
    }, 240_000);
  });

  describe("a flow (pipeline team with gates: parallel-gates)", () => {
    let flow: Project;
    beforeAll(async () => {
      flow = await cliProject(env, FLOW, join(work, "parallel-gates"));
      writeFileSync(join(flow.dir, "inputs.json"), JSON.stringify({ vendor_name: "vendor-file-20", annual_value_usd: 1234.5 }));
    }, 120_000);

    it.each([
      { name: "run", command: ["run"] },
      { name: "flow kickoff", command: ["flow", "kickoff"] },
    ])("`crewai $name` runs the flow to its gates (exit 3, a decisions file)", async ({ command }) => {
      const from = requests.length;
      const contract = `contract-env-${command.join("-")}`;
      const r = await run(flow, server, [crewai(), ...command], { INPUT_CONTRACT_TEXT: contract });
      expect(r.stderr, failure(r)).toContain("returned non-zero exit status 3");
      const pending = printedJson(r.stdout);
      expect(pending.status).toBe("pending");
      expect(existsSync(pending.decisions_file as string)).toBe(true);
      for (const value of ["vendor-file-20", contract, "1234.5"]) expect(sent(value, from), value).toBe(true);
    }, 240_000);

    it("`crewai flow plot` writes the flow's HTML page", async () => {
      const r = await run(flow, server, [crewai(), "flow", "plot"]);
      expect(r.stderr, failure(r)).not.toContain("An error occurred");
      const page = /^(\/\S+)\.html$/m.exec(r.stdout)?.[1];
      expect(page, failure(r)).toBeDefined();
      expect(existsSync(`${page}.html`)).toBe(true);
      // The page's nodes and edges (in the script beside it): every step and gate method, and
      // every gate edge: the step to its review (@human_feedback), the review to its router,
      // the router's static labels to what they trigger (released_<gate>, and `again` back to
      // the review), the released records to the steps that wait for them.
      const script = readFileSync(`${page}_script.js`, "utf8");
      for (const method of ["step_intake", "review_redline_approval", "gate_redline_approval", "released_risk_triage", "step_onboarding_decision"]) expect(script, method).toContain(method);
      const edges = new Set([...script.matchAll(/"from":\s*"([^"]+)",\s*"to":\s*"([^"]+)"/g)].map((m) => `${m[1]} -> ${m[2]}`));
      for (const gate of ["redline_approval", "risk_triage"]) {
        for (const edge of [`review_${gate} -> gate_${gate}`, `gate_${gate} -> released_${gate}`, `gate_${gate} -> review_${gate}`]) expect([...edges], edge).toContain(edge);
      }
      expect([...edges]).toContain("step_contract_redlines -> review_redline_approval");
      expect([...edges]).toContain("released_redline_approval -> step_onboarding_decision");
      expect([...edges]).toContain("released_risk_triage -> step_onboarding_decision");
    }, 240_000);

    it("a run waiting at a gate resumes in a new process through CrewAI's Flow.from_pending", async () => {
      const first = await run(flow, server, ["uv", "run", "kickoff", "--no-interactive"], { INPUT_CONTRACT_TEXT: "contract-pending" });
      expect(first.code, failure(first)).toBe(3);
      const pending = printedJson(first.stdout) as { run_id: string; decisions_file: string; resume: string };
      const stateFile = join(flow.dir, ".envelope-runs", `${pending.run_id}.json`);
      // CrewAI's pause (HumanFeedbackPending) saved through the project's FlowPersistence:
      // the state and the pending-feedback context from_pending reads back.
      const saved = JSON.parse(readFileSync(stateFile, "utf8")) as { status: string; pending?: { method_name: string; metadata: { gate: string } } };
      expect(saved.status).toBe("pending");
      expect(saved.pending?.method_name).toBe(`review_${saved.pending!.metadata.gate.replace(/-/g, "_")}`);
      const doc = JSON.parse(readFileSync(pending.decisions_file, "utf8")) as { gates: Record<string, { decisions: Array<Record<string, string>> }> };
      expect(Object.keys(doc.gates)).toContain(saved.pending!.metadata.gate);
      for (const gate of Object.values(doc.gates)) for (const item of gate.decisions) item.action = "approve";
      writeFileSync(pending.decisions_file, JSON.stringify(doc));
      let r = await run(flow, server, ["uv", "run", ...pending.resume.split(" ").slice(1)]);
      for (let round = 0; r.code === 3 && round < 4; round++) {
        const again = printedJson(r.stdout) as { decisions_file: string; resume: string };
        const more = JSON.parse(readFileSync(again.decisions_file, "utf8")) as typeof doc;
        for (const gate of Object.values(more.gates)) for (const item of gate.decisions) item.action = "approve";
        writeFileSync(again.decisions_file, JSON.stringify(more));
        r = await run(flow, server, ["uv", "run", ...again.resume.split(" ").slice(1)]);
      }
      expect(r.code, failure(r)).toBe(0);
      expect(printedJson(r.stdout)).toHaveProperty("onboarding_decision");
      const done = JSON.parse(readFileSync(stateFile, "utf8")) as { status: string; pending?: unknown };
      expect(done.status).toBe("done");
      expect(done.pending).toBeUndefined();
    }, 600_000);
  });
});
