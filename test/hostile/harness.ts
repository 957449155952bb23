// Export a definition for every registered target, write it through the real sinks
// (directory and ZIP), and check the written projects in one long-lived Python process
// (check_project.py) — one process per batch, however many projects it checks — and with
// the pinned ruff (`ruff check`, `ruff format --check`: each project's own configuration),
// as the project's developer and CI run it.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { exportDefinition } from "../../src/export/export.js";
import { UNMAPPED } from "../../src/export/loss-report.js";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { writeZip } from "../../src/export/sinks/zip.js";
import { TARGETS, targetNames } from "../../src/targets/index.js";
import { ruffBinary } from "../e2e/python-env.js";
import { expectations, promptRendering, type Expectation } from "./expectations.js";
import { checkTypeScriptExport } from "./typescript-check.js";

const CHECKER = fileURLToPath(new URL("./check_project.py", import.meta.url));

/** A Python ≥ 3.11 with PyYAML, or why there is none. */
export function findCheckerPython(): { ok: true; python: string } | { ok: false; reason: string } {
  for (const candidate of [process.env.ENVELOPE_PYTHON, "python3", "python3.11", "python3.12", "python3.13"].filter(Boolean) as string[]) {
    const r = spawnSync(candidate, ["-c", "import sys, tomllib, yaml; assert sys.version_info >= (3, 11)"], { encoding: "utf8" });
    if (r.status === 0) return { ok: true, python: candidate };
  }
  return { ok: false, reason: "no Python ≥ 3.11 with PyYAML found (set ENVELOPE_PYTHON to one)" };
}

/**
 * Same skip rule as the end-to-end suites: loud without Python, fatal under CI=true. With a
 * Python, the pinned ruff too (installed into the tests' cache on first use).
 */
export function checkerGate(): { run: boolean; python?: string; ruff?: string } {
  const found = findCheckerPython();
  if (found.ok) return { run: true, python: found.python, ruff: ruffBinary(found.python) };
  const message = `\n!!! hostile-definition Python checks SKIPPED: ${found.reason}\n`;
  if (process.env.CI === "true") throw new Error(message + "CI=true: refusing to skip.");
  process.stderr.write(message);
  return { run: false };
}

export interface ProjectManifest {
  id: string;
  root: string;
  zip: string;
  zipPrefix: string;
  files: string[];
  parse: string[];
  provenance: string;
  expect: Expectation[];
  /** The Python targets' prompts, rendered by the project's placeholders.py (langgraph-js: none, typescript-check.ts renders them). */
  prompts?: ReturnType<typeof promptRendering>;
  /** Strings the checker cannot parse out itself (langgraph-js: the .ts files' literals, typescript-check.ts). */
  strings?: string[];
}

export interface Stats {
  files: number;
  strings: number;
  expectations: number;
  not_exact: number;
  syntax_errors: number;
}

export class Checker {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly lines: AsyncIterator<string>;
  private stderr = "";

  /** `ruff`: the pinned ruff, to lint every project with (none: the parsers' checks only). */
  constructor(
    python: string,
    readonly ruff?: string,
  ) {
    this.proc = spawn(python, [CHECKER], { stdio: ["pipe", "pipe", "pipe"] });
    this.proc.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.lines = createInterface({ input: this.proc.stdout })[Symbol.asyncIterator]();
  }

  async check(projects: ProjectManifest[]): Promise<{ projects: Array<{ id: string; problems: string[] }>; stats: Stats }> {
    this.proc.stdin.write(JSON.stringify(projects) + "\n");
    const next = await this.lines.next();
    if (next.done) throw new Error(`the Python checker exited: ${this.stderr}`);
    return JSON.parse(next.value) as { projects: Array<{ id: string; problems: string[] }>; stats: Stats };
  }

  close(): void {
    this.proc.stdin.end();
  }
}

export interface Exported {
  /** Problems found on the TypeScript side (export refused or crashed, provenance, loss). */
  problems: string[];
  crashed: boolean;
  manifests: ProjectManifest[];
}

/**
 * Exports `text` for every registered target into `dir/<target>` (directory sink) and
 * `dir/<target>.zip` (ZIP sink). A target that throws is a crash, reported with its message.
 */
export async function exportEverywhere(text: string, dir: string, targets: readonly string[] = targetNames()): Promise<Exported> {
  const out: Exported = { problems: [], crashed: false, manifests: [] };
  const definition = JSON.parse(text) as unknown;
  for (const name of targets) {
    const target = TARGETS[name]!;
    let result: ReturnType<typeof exportDefinition>;
    try {
      result = exportDefinition(text, target);
    } catch (e) {
      out.crashed = true;
      out.problems.push(`${name}: export crashed: ${(e as Error).stack?.slice(0, 1500)}`);
      continue;
    }
    if (!result.ok || !result.files || !result.model || !result.loss) {
      out.problems.push(`${name}: export refused: ${JSON.stringify(result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.pointer}`))} ${result.failure ?? ""}`);
      continue;
    }
    const { files, model, loss } = result;
    const provenance = name === "langgraph-js" ? "src/envelope.json" : `src/${model.names.package}/envelope.json`;
    if (files.text(provenance) !== text) out.problems.push(`${name}: ${provenance} is not the definition byte for byte`);
    for (const e of loss) if (e.detail === UNMAPPED) out.problems.push(`${name}: loss report: no rule for ${e.pointer}`);
    const root = join(dir, name);
    const zip = `${root}.zip`;
    try {
      await writeDirectory(files, root);
      const chunks: Uint8Array[] = [];
      await writeZip(files, (c) => void chunks.push(c), `${model.names.distribution}/`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(zip, Buffer.concat(chunks));
    } catch (e) {
      out.crashed = true;
      out.problems.push(`${name}: writing the project failed: ${(e as Error).message}`);
      continue;
    }
    // TypeScript: parsed, compared with the generator's own syntax and rendered on this side.
    const typescript = name === "langgraph-js" ? checkTypeScriptExport(files, model, loss) : undefined;
    if (typescript) out.problems.push(...typescript.problems.map((p) => `${name}: ${p}`));
    const prompts = promptRendering(model, name);
    out.manifests.push({
      id: name,
      root,
      zip,
      zipPrefix: `${model.names.distribution}/`,
      files: files.paths(),
      // Files copied verbatim are the same for every team (the e2e suites lint and run them);
      // the rendering module (placeholders.py) is parsed for its functions.
      parse: files.entries().filter(([p, f]) => !f.verbatim || p === prompts.module).map(([p]) => p),
      provenance,
      expect: expectations(definition, loss),
      ...(typescript ? { strings: typescript.strings } : { prompts }),
    });
  }
  return out;
}

/**
 * Exports, writes and checks definitions (one checker call for the whole batch); returns
 * every problem prefixed with the definition's id and the target, and the checker's counts.
 */
export async function checkDefinitions(
  checker: Checker,
  items: ReadonlyArray<{ id: string; text: string }>,
  work: string,
  targets: readonly string[] = targetNames(),
  /** false: the caller lints the projects itself, several checks' at once (`lint`). */
  withLint = true,
): Promise<{ problems: string[]; crashes: number; stats: Stats; projects: Array<{ id: string; root: string }> }> {
  const problems: string[] = [];
  const manifests: ProjectManifest[] = [];
  let crashes = 0;
  for (const [i, item] of items.entries()) {
    const exported = await exportEverywhere(item.text, join(work, String(i)), targets);
    if (exported.crashed) crashes++;
    problems.push(...exported.problems.map((p) => `${item.id}: ${p}`));
    manifests.push(...exported.manifests.map((m) => ({ ...m, id: `${item.id}: ${m.id}` })));
  }
  const report = await checker.check(manifests);
  for (const p of report.projects) problems.push(...p.problems.map((q) => `${p.id}: ${q}`));
  if (withLint && checker.ruff && manifests.length) problems.push(...(await lint(checker.ruff, manifests, work)));
  return { problems, crashes, stats: report.stats, projects: manifests.map(({ id, root }) => ({ id, root })) };
}

/** A process's exit code and output; asynchronous, so the test worker's event loop runs on. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * `ruff check` and `ruff format --check` over every project at once (run in `work`, their
 * parent: ruff names files relative to it), each file under its project's own
 * pyproject.toml; every complaint, prefixed with the project it is in. One ruff process
 * for many projects costs about what one for a single project does.
 */
export async function lint(ruff: string, manifests: ReadonlyArray<{ id: string; root: string }>, work: string): Promise<string[]> {
  const roots = manifests.map((m) => `${relative(work, m.root)}/`);
  const problems: string[] = [];
  for (const args of [
    ["check", "--no-cache", "--output-format", "concise", "--quiet"],
    ["format", "--check", "--no-cache", "--quiet"],
  ]) {
    const r = await run(ruff, [...args, ...roots], work);
    if (r.code === 0) continue;
    // `path:line:col: CODE message` (check) or `Would reformat: path` (format).
    const lines = r.output
      .split("\n")
      .filter(Boolean)
      .map((l) => l.replace(/^Would reformat: /, ""));
    const unclaimed = lines.filter((line) => {
      const i = roots.findIndex((root) => line.startsWith(root));
      if (i >= 0) problems.push(`${manifests[i]!.id}: ruff ${args[0] === "check" ? "check" : "format --check"}: ${line.slice(roots[i]!.length)}`);
      return i < 0;
    });
    if (unclaimed.length || lines.length === 0) problems.push(`ruff ${args.join(" ")} exited ${r.code}: ${unclaimed.join("\n").slice(0, 2000)}`);
  }
  return problems;
}
