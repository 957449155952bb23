// Lines of Python an export ships and loads, per valid fixture (the examples and
// test/fixtures/valid) and target (issue 36, "Measure"):
//   - the team's package, src/<pkg>/, and its tests/: what is rendered from the definition;
//   - the generic Python the export carries: files copied into src/<pkg>/ (envelope_support/,
//     and any file byte-identical to one under templates/*/static/), or the envelope-runtime
//     library vendored whole in vendor/envelope-runtime/ (none with --runtime index);
//   - the runtime modules the team imports at run time, transitively: the export is imported and
//     built offline as a run builds it before its first model call (test/e2e/runtime_imports.py:
//     main, crew/flow or graph, server; the crew object or the compiled graph) in the cached
//     environment of its target (test/e2e/python-env.ts ensureEnv, the e2e suites' venvs), and
//     the envelope_runtime (or copied envelope_support) modules then in sys.modules are summed;
//   - the runtime modules a first run of the team loads: the same probe with `--run` runs the
//     team's console script offline with its target's offline harness (CrewAI:
//     envelope_runtime.crewai.testing's run_offline; LangGraph: main.main with
//     envelope_runtime.langgraph.testing's scripted models, since that run_offline invokes the
//     graph, not the command), first command only (a gated pipeline stops at its
//     first gate, as a non-interactive run does), and sums the same modules less the harness's
//     own (envelope_runtime.testing and the target's testing module: a real run never loads
//     them); each run's exit code is kept, and a run that ends otherwise than expected (0, or 3
//     waiting at a gate) fails the bench rather than give a number.
//
//   npm run bench:lines -- --as after --label "after (<branch> at <commit>)"
//   npx tsx bench/lines.ts --repo /path/to/other/checkout --as before --label "before (main at <commit>)"
//
// Each `--as NAME` owns its own section of bench/RESULTS.md (`lines-NAME`), so a "before"
// measured on an older checkout stays when the "after" is written. `--repo DIR` measures
// another checkout (built: its bin/envelope.js, fixtures and templates are used; the probe and
// the Python environments are this checkout's). Counts are non-blank lines of .py files
// (comments and docstrings count). The library in all is DIR/python/envelope-runtime/src, when
// the checkout has it. Nothing is installed into the shared environments: each export's src/
// (and the library the export carries, else DIR's) goes first on PYTHONPATH.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { e2eGate, ensureEnv } from "../test/e2e/python-env.js";
import { machineLine, writeSection } from "./results-file.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const HERE = fileURLToPath(new URL("../", import.meta.url));
const repo = resolve(option("repo", HERE));
const as = option("as", "now");
const commit = execFileSync("git", ["-C", repo, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
const label = option("label", `${as} (${commit})`);
const targets = option("targets", "crewai,langgraph").split(",");
const write = !args.includes("--no-write");
const PROBE = join(HERE, "test/e2e/runtime_imports.py");
/** The issues 37 and 38 measure against these: a hierarchy team, and the pipeline teams. */
const REFERENCE = "support-tier";
/** runtime.EXIT_PENDING of both targets: the run waits at a gate. */
const EXIT_PENDING = 3;

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "__pycache__" || e.name === ".ruff_cache" ? [] : walk(path);
    return e.isFile() ? [path] : [];
  });
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const nonBlank = (bytes: Buffer) => bytes.toString("utf8").split("\n").filter((l) => l.trim() !== "").length;
const pyLines = (files: string[]) => files.filter((f) => f.endsWith(".py")).reduce((n, f) => n + nonBlank(readFileSync(f)), 0);

/** Hashes of every static template file: an exported file with one of these bytes was copied. */
function staticHashes(): Set<string> {
  const templates = join(repo, "templates");
  const dirs = readdirSync(templates).map((t) => join(templates, t, "static")).filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory());
  return new Set(dirs.flatMap(walk).map((f) => sha(readFileSync(f))));
}

const LIBRARY_SRC = join(repo, "python/envelope-runtime/src");
/** Non-blank lines of the library, in all and by part (core, and each target's subpackage). */
function libraryLines(): { all: number; core: number; crewai: number; langgraph: number } | undefined {
  const root = join(LIBRARY_SRC, "envelope_runtime");
  if (!existsSync(root)) return undefined;
  const files = walk(root).filter((f) => f.endsWith(".py"));
  const part = (sub: string) => pyLines(files.filter((f) => relative(root, f).startsWith(`${sub}/`)));
  const all = pyLines(files);
  const crewai = part("crewai");
  const langgraph = part("langgraph");
  return { all, core: all - crewai - langgraph, crewai, langgraph };
}

interface Row {
  fixture: string;
  mode: string;
  /** Rendered .py under src/<pkg>/ (not copied). */
  teamSrc: number;
  teamTests: number;
  /** Copied into the export: envelope_support/ and static-identical .py under src/ and tests/. */
  copied: number;
  /** The vendored library's .py lines (vendor/envelope-runtime/). */
  vendored: number;
  /** The runtime modules loaded by a team built as a run builds it: their count and lines. */
  importedModules: number;
  imported: number;
  /** The runtime modules loaded by a first run offline (harness excluded): count, lines, exit codes. */
  runModules: number;
  run: number;
  codes: number[];
}

interface Answer {
  package: string;
  modules?: Record<string, string>;
  codes?: number[];
  harness_imports?: string[];
  error?: string;
}

/** The probe's answers for `packages` (one JSON line each), in `mode` (build, or `--run`). */
function probe(mode: "build" | "run", target: string, python: string, bin: string, packages: string[], paths: string[], work: string): (Answer & { modules: Record<string, string> })[] {
  const r = spawnSync(python, [PROBE, ...(mode === "run" ? ["--run"] : []), target, ...packages], {
    cwd: work,
    encoding: "utf8",
    env: { PATH: `${bin}:${process.env.PATH}`, PYTHONPATH: [...paths, ...(existsSync(LIBRARY_SRC) ? [LIBRARY_SRC] : [])].join(":"), PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
    maxBuffer: 64 * 2 ** 20,
  });
  const answers = new Map(r.stdout.split("\n").filter(Boolean).map((line) => {
    const a = JSON.parse(line) as Answer;
    return [a.package, a] as const;
  }));
  return packages.map((pkg) => {
    const a = answers.get(pkg);
    if (!a?.modules) throw new Error(`${target} ${pkg}: the ${mode} probe failed: ${a?.error ?? `no answer (exit ${r.status})`}\n${r.stderr.slice(-4000)}`);
    return a as Answer & { modules: Record<string, string> };
  });
}

function measure(target: string, generic: Set<string>, work: string, python: string): Row[] {
  const defs = [join(repo, "examples"), join(repo, "test/fixtures/valid")].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".envelope.json"))
      .sort()
      .map((f) => ({ fixture: f.replace(/\.envelope\.json$/, ""), path: join(dir, f) })),
  );
  const env = ensureEnv(target, python);
  const rows: Row[] = [];
  const packages: string[] = [];
  const paths: string[] = [];
  /** Each first run's expected exit code: 3 for a gated pipeline (it waits at its first gate), else 0. */
  const expected: number[] = [];
  for (const { fixture, path } of defs) {
    const def = JSON.parse(readFileSync(path, "utf8")) as { pipeline?: unknown[]; gates?: unknown[] };
    const out = join(work, target, fixture);
    execFileSync(process.execPath, [join(repo, "bin/envelope.js"), "export", path, "--target", target, "--out", out], { stdio: ["ignore", "ignore", "pipe"] });
    const pkg = readdirSync(join(out, "src")).find((d) => existsSync(join(out, "src", d, "__init__.py")))!;
    const gated = def.pipeline?.length && def.gates?.length;
    expected.push(gated ? EXIT_PENDING : 0);
    const row: Row = { fixture, mode: def.pipeline?.length ? "pipeline" : "hierarchy", teamSrc: 0, teamTests: 0, copied: 0, vendored: 0, importedModules: 0, imported: 0, runModules: 0, run: 0, codes: [] };
    for (const file of walk(out).filter((p) => p.endsWith(".py"))) {
      const rel = relative(out, file);
      const n = nonBlank(readFileSync(file));
      if (rel.startsWith("vendor/")) row.vendored += n;
      else if (rel.startsWith(`src/${pkg}/envelope_support/`) || generic.has(sha(readFileSync(file)))) row.copied += n;
      else if (rel.startsWith(`src/${pkg}/`)) row.teamSrc += n;
      else if (rel.startsWith("tests/")) row.teamTests += n;
    }
    rows.push(row);
    packages.push(pkg);
    const vendored = join(out, "vendor/envelope-runtime/src");
    paths.push(join(out, "src"), ...(existsSync(vendored) ? [vendored] : []));
  }
  // One interpreter per target and measure, one forked process per export; each package has its own name.
  const built = probe("build", target, env.python, env.bin, packages, paths, work);
  const ran = probe("run", target, env.python, env.bin, packages, paths, work);
  rows.forEach((row, i) => {
    const build = built[i]!.modules;
    row.importedModules = Object.keys(build).length;
    row.imported = pyLines(Object.values(build));
    const run = ran[i]!;
    row.codes = run.codes ?? [];
    if (row.codes.length === 0 || row.codes.some((c) => c !== expected[i]))
      throw new Error(`${target} ${row.fixture}: the offline run exited ${row.codes.join(", ") || "(no code)"}, expected ${expected[i]}: no run measure from a failed run`);
    // What importing the harness loaded counts only as what the team loads itself (its build).
    const foreign = (run.harness_imports ?? []).filter((m) => !(m in build));
    if (foreign.length) throw new Error(`${target} ${row.fixture}: the offline harness loaded ${foreign.join(", ")}, which the team's build does not: its run measure would count them`);
    row.runModules = Object.keys(run.modules).length;
    row.run = pyLines(Object.values(run.modules));
  });
  return rows;
}

const pct = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)} %` : "–");

function table(target: string, rows: Row[], library: number | undefined): string {
  const head =
    "| fixture | mode | team package src/<pkg>/ | team tests | copied into the export | vendored library | runtime modules imported | imported lines | imported, of the generic shipped | runtime modules run | run lines | run exit |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  const lines = rows.map((r) => {
    const shipped = r.copied + r.vendored || library || 0;
    return `| ${r.fixture} | ${r.mode} | ${r.teamSrc} | ${r.teamTests} | ${r.copied} | ${r.vendored} | ${r.importedModules} | ${r.imported} | ${pct(r.imported, shipped)} | ${r.runModules} | ${r.run} | ${r.codes.join(", ")} |`;
  });
  return `### ${target}\n\n${head}\n${lines.join("\n")}`;
}

function reference(target: string, rows: Row[]): string {
  const hierarchy = rows.find((r) => r.fixture === REFERENCE);
  const pipelines = rows.filter((r) => r.mode === "pipeline");
  const say = (r: Row) => `${r.fixture} ${r.imported} imported (${r.importedModules} modules), ${r.run} run (${r.runModules} modules, exit ${r.codes.join(", ")}), team package ${r.teamSrc}`;
  return `- ${target}: hierarchy ${hierarchy ? say(hierarchy) : "(no support-tier)"}; pipelines (none has workspace documents): ${pipelines.map(say).join("; ")}.`;
}

const gate = e2eGate();
if (!gate.run) throw new Error("bench/lines.ts measures imports in Python: no Python 3.10–3.13 found (set ENVELOPE_PYTHON)");
const work = mkdtempSync(join(tmpdir(), "envelope-lines-"));
try {
  const generic = staticHashes();
  const library = libraryLines();
  const measured = targets.map((t) => ({ target: t, rows: measure(t, generic, work, gate.python!) }));
  const libraryText = library
    ? `The library in all (python/envelope-runtime/src at ${commit}): ${library.all} non-blank lines — core ${library.core}, crewai/ ${library.crewai}, langgraph/ ${library.langgraph}.`
    : `This checkout has no runtime library (python/envelope-runtime/): the generic code is copied into each export's \`src/<pkg>/envelope_support/\` (the "copied" column), only the modules its features need.`;
  const body = [
    `## Lines of Python shipped and loaded: ${label}`,
    "",
    `Machine: ${machineLine()}; checkout ${commit}`,
    "",
    "Non-blank lines of `.py` files, per export of each valid definition (the examples and",
    "test/fixtures/valid). Team package: what is rendered from the definition under `src/<pkg>/`",
    "(the team's tests beside it). Copied: files put into the export verbatim (`envelope_support/`,",
    "or bytes equal to a file under `templates/*/static/`). Vendored: the envelope-runtime library",
    "in `vendor/envelope-runtime/` (`--runtime index` exports carry none). Imported: the runtime",
    "modules (`envelope_runtime*`, or the copied `envelope_support*`) in `sys.modules` once the",
    "team's main, crew/flow or graph and server modules are imported and the crew object or",
    "compiled graph is built, as a run builds it before its first model call (models never",
    "called; test/e2e/runtime_imports.py in the e2e suites' cached environments). Imported, of",
    "the generic shipped: imported lines over the generic lines the export ships (copied or",
    "vendored). Run: the same modules once the team's first run has ended or stopped, run offline",
    "by the probe's `--run`: the team's console script with its target's offline harness and",
    "scripted models — CrewAI: `run_offline` of `envelope_runtime.crewai.testing`",
    "(`max_rounds=0`; `--no-interactive` for a pipeline); LangGraph: `main.main` with the",
    "scripted models of `envelope_runtime.langgraph.testing` as `ENVELOPE_MODEL_FACTORY`",
    "(`--no-interactive` for a gated team; that module's `run_offline` invokes the compiled graph",
    "and would miss what the command loads) — first command only: a gated pipeline stops at its first gate, as a",
    "non-interactive run does, and no resume is counted. The harness's own modules",
    "(`envelope_runtime.testing`, `envelope_runtime.crewai.testing`,",
    "`envelope_runtime.langgraph.testing`) are not counted: a real run never loads them; what",
    "importing them loads must be among the team's build modules, or the bench fails. Run exit:",
    "the command's exit code: 0 done, 3 waiting at a gate;",
    "any other, or a gated pipeline that does not stop, fails the bench. A run loads more only",
    "for what it is asked (`--trace`, schedule and workspace commands, a gate's resume).",
    "",
    libraryText,
    "",
    `Reference rows for issues 37 and 38 (runtime lines a team imports, built and run): ${REFERENCE} is the`,
    "hierarchy team; no fixture is named gate-matrix, so every pipeline fixture is listed.",
    ...measured.map(({ target, rows }) => reference(target, rows)),
    "",
    `\`npx tsx bench/lines.ts --as NAME [--repo DIR] [--label TEXT]\` writes the section \`lines-NAME\`;`,
    "`--repo DIR` measures another built checkout (a `git worktree` of an older commit, as for a before).",
    "",
    ...measured.flatMap(({ target, rows }) => [table(target, rows, library?.all), ""]),
  ].join("\n");
  process.stdout.write(`${body}\n`);
  if (write) writeSection(`lines-${as}`, body);
} finally {
  rmSync(work, { recursive: true, force: true });
}
