// What a team does not use, it does not load (issue 36). The runtime library is whole in every
// export, so a team's import graph is what keeps a team without gates from loading the gate
// engine, one without packs from loading the MCP client, and so on. For every valid definition
// and both targets (and the connection-pack definition, exported with its packs), the export is
// imported and built offline as a run builds it before its first model call
// (test/e2e/runtime_imports.py: main, crew/flow or graph, server; the crew object or the
// compiled graph), on the real frameworks of the cached environments, with this checkout's
// library first on the path; then the envelope_runtime modules it loaded are checked against
// the team's features: none of a feature the team lacks, and the ones of the features it has
// (so a probe that loads nothing cannot pass).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { normalize } from "../../src/model/index.js";
import { ROOT } from "../helpers/cli.js";
import { connectionDefinitions, exportFile, validDefinitions } from "../helpers/export.js";
import { e2eGate, ensureEnv, RUNTIME_LIBRARY } from "./python-env.js";

const TARGETS = ["crewai", "langgraph"] as const;
type Target = (typeof TARGETS)[number];
const LIBRARY_SRC = join(RUNTIME_LIBRARY, "src");
const PROBE = join(ROOT, "test/e2e/runtime_imports.py");

interface Features {
  mode: "hierarchy" | "pipeline";
  gates: boolean;
  packs: boolean;
  workspace: boolean;
  /** An event or condition schedule (the webhook receiver, the condition poll). */
  schedules: boolean;
  egress: boolean;
  /** An agent besides the top manager with reports of its own (a hierarchy's sub-team). */
  subTeams: boolean;
}

interface Team {
  name: string;
  path: string;
  packs?: string[];
  features: Features;
  /** The targets it is probed on (all when absent). */
  targets?: Target[];
}

/** The runtime modules of one feature, by target (the core's under both); names relative to envelope_runtime. */
interface Rule {
  feature: string;
  /** The team lacks the feature: none of its modules may be loaded. */
  lacks: (f: Features) => boolean;
  core: string[];
  crewai: string[];
  langgraph: string[];
}

const RULES: Rule[] = [
  { feature: "gates", lacks: (f) => !f.gates, core: ["gates"], crewai: ["crewai.review"], langgraph: ["langgraph.review", "langgraph.server_app"] },
  { feature: "connection packs (MCP, OpenAPI)", lacks: (f) => !f.packs, core: ["connections"], crewai: ["crewai.connection_tools"], langgraph: ["langgraph.connection_tools"] },
  { feature: "workspace documents", lacks: (f) => !f.workspace, core: ["workspace"], crewai: ["crewai.workspace_tools", "crewai.workspace_store"], langgraph: ["langgraph.workspace_store"] },
  { feature: "event or condition schedules", lacks: (f) => !f.schedules, core: ["schedules"], crewai: ["crewai.schedule_commands"], langgraph: ["langgraph.schedule_commands"] },
  // Only a run given --trace loads these; building a team never does.
  { feature: "a trace", lacks: () => true, core: ["trace"], crewai: ["crewai.tracing"], langgraph: ["langgraph.tracing"] },
  // Packs check their requests with the same policy and tool as http_request.
  { feature: "egress (the policy and http_request)", lacks: (f) => !f.egress && !f.packs, core: ["policy", "policy_rules"], crewai: ["crewai.http_tools"], langgraph: ["langgraph.tools"] },
  { feature: "a pipeline", lacks: (f) => f.mode !== "pipeline", core: [], crewai: ["crewai.pipeline", "crewai.steps", "crewai.flow_commands", "crewai.state"], langgraph: ["langgraph.pipeline"] },
  { feature: "a hierarchy", lacks: (f) => f.mode !== "hierarchy", core: [], crewai: ["crewai.delegation"], langgraph: ["langgraph.hierarchy"] },
  // A mid-level manager's delegate_to_team tool (CrewAI builds it with the manager's agent).
  { feature: "sub-teams", lacks: (f) => !f.subTeams, core: [], crewai: ["crewai.sub_teams"], langgraph: [] },
  // CrewAI's train, replay and test (a hierarchy's console scripts) load it; a run never does.
  { feature: "a crew command", lacks: () => true, core: [], crewai: ["crewai.crew_commands"], langgraph: [] },
  // A command's own code: a resume or a sweep (CrewAI), the runner's client (LangGraph: its
  // options and the driving of a run). Building a team never loads it (0f1dc2d).
  { feature: "a command's own code", lacks: () => true, core: ["decision_files"], crewai: ["crewai.flow_resume", "crewai.run_files"], langgraph: ["langgraph.run_client"] },
  // The runner's runs of a Flow (signals, settle, a resume's command): a run loads them; a
  // build never does (CrewAI AMP and `crewai deploy validate` build main.py's Flow without them).
  { feature: "a run of the Flow by the runner", lacks: () => true, core: [], crewai: ["crewai.flow_runner"], langgraph: [] },
  // runMs for a kickoff our runner does not make (CrewAI AMP's): never a build's or a runner's.
  { feature: "a kickoff without the runner", lacks: () => true, core: [], crewai: ["crewai.kickoff_deadline", "crewai.kickoff_inputs"], langgraph: [] },
  // A run's input sources and checks: a command loads them when it reads a run's inputs;
  // a build needs only the inputs' descriptions (input_spec).
  { feature: "a run's input checks", lacks: () => true, core: ["inputs"], crewai: [], langgraph: [] },
  // What applies when a gate is past its deadline: a build never meets one.
  { feature: "a gate past its deadline", lacks: () => true, core: ["gate_timeouts"], crewai: [], langgraph: [] },
  // CrewAI's knowledge sources, for files in knowledge/ (an export ships none, only its README).
  { feature: "knowledge files", lacks: () => true, core: [], crewai: ["crewai.knowledge"], langgraph: [] },
  // Whether LiteLLM serves a provider a model variable names that CrewAI does not serve itself.
  { feature: "a model variable naming a LiteLLM provider", lacks: () => true, core: [], crewai: ["crewai.litellm_providers"], langgraph: [] },
  // An exception showing a secret value, copied without it: a failed task's, never a build's.
  { feature: "a failure carrying a secret", lacks: () => true, core: [], crewai: [], langgraph: ["langgraph.redacted_errors"] },
];

/** Modules a team with the feature loads when it is built (what shows the probe sees the team's imports). */
const USES: Array<{ feature: string; has: (f: Features) => boolean; crewai: string; langgraph: string }> = [
  { feature: "a pipeline", has: (f) => f.mode === "pipeline", crewai: "crewai.pipeline", langgraph: "langgraph.pipeline" },
  { feature: "a hierarchy", has: (f) => f.mode === "hierarchy", crewai: "crewai.delegation", langgraph: "langgraph.hierarchy" },
  { feature: "sub-teams", has: (f) => f.subTeams, crewai: "crewai.sub_teams", langgraph: "langgraph.hierarchy" },
  { feature: "gates", has: (f) => f.gates, crewai: "gates", langgraph: "gates" },
  { feature: "workspace documents", has: (f) => f.workspace, crewai: "workspace", langgraph: "workspace" },
  { feature: "egress", has: (f) => f.egress, crewai: "policy", langgraph: "policy" },
  { feature: "connection packs", has: (f) => f.packs, crewai: "connections", langgraph: "connections" },
];

function features(path: string, packs: boolean): Features {
  const model = normalize(readFileSync(path)).model!;
  const mode = model.execution.mode;
  const roots = model.agents.filter((a) => a.parent === undefined);
  const managers = new Set(model.agents.map((a) => a.parent).filter((key) => key !== undefined));
  return {
    mode,
    gates: mode === "pipeline" && model.gates.length > 0, // hierarchy mode has no gates (loss report)
    packs,
    workspace: model.workspace.length > 0,
    schedules: model.schedule.type === "event" || model.schedule.type === "condition",
    egress: model.agents.some((a) => a.egress.source !== "none"),
    subTeams: mode === "hierarchy" && model.agents.some((a) => a.key !== roots[0]?.key && managers.has(a.key)),
  };
}

/**
 * A pipeline without gates (every valid fixture's pipeline has gates): its steps must not load
 * the gate rules. CrewAI only for now: LangGraph's team.py imports GateSpec for every pipeline
 * (its GATES' type), which loads envelope_runtime.gates.
 */
const GATELESS = join(mkdtempSync(join(tmpdir(), "envelope-runtime-imports-def-")), "plain-steps.envelope.json");
writeFileSync(
  GATELESS,
  JSON.stringify({
    $schema: "https://schema.openenvelope.org/team/v1.json",
    name: "Plain Steps",
    slug: "plain-steps",
    version: "1.0.0",
    description: "Drafts claims about a topic and summarises them.",
    inputs: { topic: { type: "string", description: "What to write about.", required: true } },
    outputs: { summary: { type: "string", description: "The claims in a paragraph." } },
    agents: [
      { key: "writer", name: "Wren", title: "Writer", role: "specialist", prompt: "You draft short factual claims about {{TOPIC}}." },
      { key: "editor", name: "Eddie", title: "Editor", role: "specialist", prompt: "You summarise claims in one paragraph." },
    ],
    pipeline: [
      { key: "draft", agentKey: "writer", label: "Draft the claims" },
      { key: "summary", agentKey: "editor", label: "Summarise the claims", dependsOn: ["draft"] },
    ],
  }),
);

const teams: Team[] = [
  ...validDefinitions().map(({ name, path }) => ({ name, path, features: features(path, false) })),
  ...connectionDefinitions().map(({ name, path, packs }) => ({ name: `${name} (with its packs)`, path, packs, features: features(path, true) })),
  { name: "plain-steps (a pipeline without gates)", path: GATELESS, features: features(GATELESS, false), targets: ["crewai"] },
];
const teamsOf = (target: Target) => teams.filter((t) => !t.targets || t.targets.includes(target));

/** The envelope_runtime modules loaded (name -> file), and the third-party MCP client modules. */
interface Answer {
  modules: Record<string, string>;
  mcp: string[];
}

const gate = e2eGate();

describe.runIf(gate.run)("what a team does not use, it does not load", () => {
  const work = mkdtempSync(join(tmpdir(), "envelope-runtime-imports-"));
  /** Per target, per team: what the probe saw, or its failure. */
  const loaded: Record<string, Map<string, Answer | string>> = {};

  beforeAll(async () => {
    for (const target of TARGETS) {
      const env = ensureEnv(target, gate.python!);
      const dirs: string[] = [];
      const packages: string[] = [];
      for (const team of teamsOf(target)) {
        const files = exportFile(team.path, target, team.packs);
        const dir = join(work, target, team.name.replace(/\W+/g, "-"));
        await writeDirectory(files, dir);
        dirs.push(join(dir, "src"));
        packages.push(files.paths().map((p) => /^src\/([^/]+)\/__init__\.py$/.exec(p)?.[1]).find(Boolean)!);
      }
      // Each export's src/ on the path (every team has its own package name), then the library:
      // nothing is installed into the shared environment.
      const r = spawnSync(env.python, [PROBE, target, ...packages], {
        cwd: work,
        encoding: "utf8",
        env: { PATH: `${env.bin}:${process.env.PATH}`, PYTHONPATH: [...dirs, LIBRARY_SRC].join(":"), PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
        timeout: 600_000,
      });
      const answers = new Map<string, Answer | string>();
      for (const line of r.stdout.split("\n").filter(Boolean)) {
        const answer = JSON.parse(line) as { package: string; modules?: Record<string, string>; mcp?: string[]; error?: string };
        answers.set(answer.package, answer.modules ? { modules: answer.modules, mcp: answer.mcp! } : `${answer.error}\n${r.stderr}`);
      }
      loaded[target] = new Map(teamsOf(target).map((t, i) => [t.name, answers.get(packages[i]!) ?? `no answer for ${packages[i]} (exit ${r.status})\n${r.stderr}`]));
    }
  }, 1_800_000);

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(dirname(GATELESS), { recursive: true, force: true });
  });

  it("names only modules the library has", () => {
    const named = RULES.flatMap((r) => [...r.core, ...r.crewai, ...r.langgraph]).concat(USES.flatMap((u) => [u.crewai, u.langgraph]));
    for (const module of new Set(named)) {
      expect(existsSync(join(LIBRARY_SRC, "envelope_runtime", `${module.replaceAll(".", "/")}.py`)), `envelope_runtime.${module}`).toBe(true);
    }
  });

  const cases = TARGETS.flatMap((target) => teamsOf(target).map((team) => ({ ...team, target, label: `${target}: ${team.name}` })));
  it.each(cases)("$label loads no module of a feature it lacks", ({ name, target, features: f }) => {
    const answer = loaded[target]!.get(name)!;
    expect(typeof answer, `the probe of ${name} (${target}) failed:\n${String(answer)}`).toBe("object");
    const { modules, mcp } = answer as Answer;
    // Every module came from this checkout's library (not a copy installed elsewhere).
    for (const [module, file] of Object.entries(modules)) expect(file.startsWith(LIBRARY_SRC), `${module}: ${file}`).toBe(true);
    const unexpected = RULES.filter((r) => r.lacks(f)).flatMap((r) =>
      [...r.core, ...r[target as Target]].map((m) => `envelope_runtime.${m}`).filter((m) => m in modules).map((m) => `${m} (${r.feature}: the team has none)`),
    );
    expect(unexpected, `${name} (${target}) loads: ${Object.keys(modules).join(", ")}`).toEqual([]);
    // The MCP SDK or LangChain's MCP adapters, beyond what the framework imports by itself.
    if (!f.packs) expect(mcp, `${name} (${target}) has no connection packs but loads MCP client modules`).toEqual([]);
    const missing = USES.filter((u) => u.has(f)).map((u) => `envelope_runtime.${u[target as Target]}`).filter((m) => !(m in modules));
    expect(missing, `${name} (${target}) has these features, so the probe must see their modules; it saw: ${Object.keys(modules).join(", ")}`).toEqual([]);
  });
});

// A person's command that runs no crew answers without importing CrewAI (≈ 5 s here): a
// hierarchy team's `--help` and its `workspace` commands. A pipeline team's main.py names its
// Flow (CrewAI AMP finds it there), so it imports CrewAI with any command.
const WORKSPACE_TEAM = validDefinitions().find((d) => d.name.startsWith("event-signup-desk"))!;
describe.runIf(gate.run)("a CrewAI command that runs no crew does not import CrewAI", () => {
  const work = mkdtempSync(join(tmpdir(), "envelope-runtime-imports-commands-"));
  let python: string;
  let pkg: string;
  beforeAll(async () => {
    python = ensureEnv("crewai", gate.python!).python;
    const files = exportFile(WORKSPACE_TEAM.path, "crewai");
    await writeDirectory(files, join(work, "team"));
    pkg = files.paths().map((p) => /^src\/([^/]+)\/__init__\.py$/.exec(p)?.[1]).find(Boolean)!;
  }, 1_800_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** The command's exit code and the crewai modules loaded once it ended (`import` names a module to import first). */
  function command(args: string[], imports = "") {
    const script = [
      "import contextlib, io, json, sys",
      `sys.argv[0] = ${JSON.stringify(pkg)}`,
      imports,
      `from ${pkg}.main import COMMANDS`,
      "code = None",
      "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):",
      "    try:",
      `        code = COMMANDS.main(${JSON.stringify(args)})`,
      "    except SystemExit as error:",
      "        code = error.code",
      "print(json.dumps({'code': code, 'crewai': sorted(m for m in sys.modules if m.split('.')[0] == 'crewai')}))",
    ].join("\n");
    const r = spawnSync(python, ["-c", script], {
      cwd: join(work, "team"),
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: work, PYTHONPATH: [join(work, "team", "src"), LIBRARY_SRC].join(":"), ENVELOPE_WORKSPACE_DB: join(work, "workspace.sqlite3"), CREWAI_DISABLE_TELEMETRY: "true", PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim().split("\n").pop()!) as { code: number; crewai: string[] };
  }

  it.each([[["--help"]], [["workspace", "list"]], [["workspace", "show", "attendees", "nobody@example.org"]]])("%j", (args) => {
    const { code, crewai } = command(args);
    expect(code, "the command's exit code").toBe(args[0] === "workspace" && args[1] === "show" ? 2 : 0);
    expect(crewai, "crewai modules loaded").toEqual([]);
  }, 120_000);

  it("sees CrewAI once the team's crew is imported (the check above can fail)", () => {
    expect(command(["--help"], `import ${pkg}.crew`).crewai).toContain("crewai");
  }, 120_000);
});
