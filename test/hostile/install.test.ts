// A handful of hostile definitions (test/fixtures/hostile/installed/), each exported for
// every target and installed into that target's pinned environment (python/<target>.lock):
// the package imports although its slug names a module it would shadow (`typing`,
// `crewai`), ruff is clean, and the project's own generated tests pass on the real
// framework, offline. Same skip rule as the end-to-end suites.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { DEPENDENCY_DISTRIBUTIONS } from "../../src/model/reserved-words.js";
import { TARGETS, targetNames } from "../../src/targets/index.js";
import { cacheRoot, e2eGate, ensureEnv, installProject, UV_VERSION, type PythonEnv } from "../e2e/python-env.js";
import { supportSuite } from "../e2e/support-suite.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DIR = join(ROOT, "test/fixtures/hostile/installed");
const installed = readdirSync(DIR)
  .filter((f) => f.endsWith(".envelope.json"))
  .sort()
  .map((f) => ({ name: f.replace(/\.envelope\.json$/, ""), path: join(DIR, f) }));

/**
 * Python in the environment, asynchronously: a project's test suite runs for minutes on a
 * loaded machine, and the test worker's event loop must run meanwhile. Killed after
 * `timeoutMs` (exit -1, and said so in the output).
 */
function run(env: PythonEnv, cwd: string, args: string[], extraEnv: Record<string, string> = {}, timeoutMs = 600_000): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(env.python, args, {
      cwd,
      env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: process.env.HOME, CI: "true", NO_COLOR: "1", PYTHONDONTWRITEBYTECODE: "1", ...extraEnv },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs / 1000} s)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

const gate = e2eGate();
const work = mkdtempSync(join(tmpdir(), "envelope-hostile-install-"));
// Each project is uninstalled after its test, so its directory can go.
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The Python targets: a TypeScript target's hostile exports are parsed by the TypeScript
// compiler against their benign twins in the corpus and property tests (typescript-check.ts).
const PYTHON_TARGETS = targetNames("python");

describe.runIf(gate.run).each(PYTHON_TARGETS)("hostile projects on the real framework: %s", (target) => {
  const hasLock = existsSync(join(ROOT, "python", `${target}.lock`));
  let env: PythonEnv;
  beforeAll(() => {
    if (hasLock) env = ensureEnv(target, gate.python!);
  }, 1_800_000);

  it.each(installed)("$name: imports, lints clean, and its tests pass", async ({ name, path }) => {
    expect(hasLock, `no python/${target}.lock to install ${target} projects with`).toBe(true);
    const result = exportDefinition(readFileSync(path), TARGETS[target]!, { file: path });
    expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true);
    const { package: pkg, distribution } = result.model!.names;
    // The environment is shared and cached: never let a project replace one of its packages.
    expect(DEPENDENCY_DISTRIBUTIONS.has(distribution), distribution).toBe(false);
    const dir = join(work, target, name);
    await writeDirectory(result.files!, dir);
    installProject(env, dir);
    try {
      for (const args of [
        ["-c", `import ${pkg}.team`],
        ["-m", "ruff", "check", "--no-cache", "."],
        ["-m", "ruff", "format", "--check", "--no-cache", "."],
        ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
      ]) {
        const r = await run(env, dir, args);
        expect(r.code, `${target}/${name}: python ${args.join(" ")}\n${r.output.slice(-6000)}`).toBe(0);
      }
      const support = supportSuite(target, pkg);
      if (support) {
        const r = await run(env, dir, support.args, support.env);
        expect(r.code, `${target}/${name}: the support code's tests\n${r.output.slice(-6000)}`).toBe(0);
      }
    } finally {
      const uv = join(cacheRoot(), `uv-${UV_VERSION}`, "bin", "uv");
      execFileSync(uv, ["pip", "uninstall", "--quiet", "--python", env.python, distribution], { stdio: "pipe" });
    }
  }, 1_800_000); // about a minute each on 2 idle cores; many on a loaded machine
});
