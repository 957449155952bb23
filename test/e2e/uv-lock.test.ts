// Issue 39: every Python export ships a uv.lock (src/targets/python-common/uv-lock.ts), and uv
// takes it as written — for every definition we ship, on both Python targets: `uv lock --check`
// finds it up to date with the export's pyproject.toml, and `uv sync --locked` installs it
// (PyPI through uv's cache under ~/.cache/envelope-export) into the project's own .venv, on
// Python 3.11 with exactly python/<target>.lock's versions, and on every other Python the
// export accepts that this machine has; a CrewAI export also passes CrewAI's own pre-deploy
// check, `crewai deploy validate`, with no error and no warning. Index mode (--runtime index)
// is proved against a local index in test/realpath/runtime-index.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeDirectory } from "../../src/export/sinks/directory.js";
import { connectionDefinitions, exportFile, validDefinitions } from "../helpers/export.js";
import { ROOT } from "../helpers/cli.js";
import { cacheRoot, e2eGate, interpreterFor, uvBinary } from "./python-env.js";

const gate = e2eGate();
const cases = [...validDefinitions().map((d) => ({ ...d, packs: undefined as string[] | undefined })), ...connectionDefinitions().map((d) => ({ ...d, name: `connections-${d.name}` }))];
/** The Pythons each target's pyproject.toml accepts (requires-python), from the oldest. */
const PYTHONS: Record<string, string[]> = { crewai: ["3.10", "3.11", "3.12", "3.13"], langgraph: ["3.11", "3.12", "3.13"] };

const normalize = (name: string) => name.replace(/[-_.]+/g, "-").toLowerCase();
function pins(target: string): Map<string, string> {
  const text = readFileSync(join(ROOT, "python", `${target}.lock`), "utf8");
  return new Map([...text.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)/gm)].map((m) => [normalize(m[1]!), m[2]!]));
}

function uv(args: string[], cwd: string, extra: Record<string, string> = {}): { code: number; output: string } {
  const env: Record<string, string | undefined> = { ...process.env, UV_CACHE_DIR: join(cacheRoot(), "uv-cache"), UV_PYTHON_DOWNLOADS: "never", UV_NO_PROGRESS: "1", NO_COLOR: "1", VIRTUAL_ENV: undefined, UV_PROJECT_ENVIRONMENT: undefined, UV_FROZEN: undefined, UV_LOCKED: undefined, UV_OFFLINE: undefined, ...extra };
  const r = spawnSync(uvBinary(gate.python!), args, { cwd, env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 900_000, maxBuffer: 1 << 26 });
  return { code: r.status ?? -1, output: `${r.stdout}\n${r.stderr}`.slice(-6000) };
}

/** The environment of `crewai deploy validate`: uv on PATH, the uv cache, no telemetry, and
 * the export's model provider keys (its .env.example's "model provider keys") as placeholders.
 * Bytecode is written, as on a developer's machine, under `pycache` (PYTHONPYCACHEPREFIX),
 * outside the project: its import check loads CrewAI from a .venv uv has just made, which
 * holds no bytecode, and compiling CrewAI each time doubled the check's 5 s import. */
function deployEnv(dir: string, pycache: string): NodeJS.ProcessEnv {
  const example = readFileSync(join(dir, ".env.example"), "utf8");
  const section = /^# model provider keys[^\n]*\n((?:.+\n)*)/m.exec(example)?.[1] ?? "";
  const keys = [...section.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  const env: Record<string, string | undefined> = { ...process.env, PATH: `${dirname(uvBinary(gate.python!))}:${process.env.PATH}`, UV_CACHE_DIR: join(cacheRoot(), "uv-cache"), UV_PYTHON_DOWNLOADS: "never", UV_NO_PROGRESS: "1", NO_COLOR: "1", VIRTUAL_ENV: undefined, CREWAI_DISABLE_TELEMETRY: "true", CREWAI_DISABLE_TRACKING: "true", OTEL_SDK_DISABLED: "true", PYTHONDONTWRITEBYTECODE: undefined, PYTHONPYCACHEPREFIX: pycache };
  for (const key of keys) env[key] = "validate-placeholder";
  return env as NodeJS.ProcessEnv;
}

describe.runIf(gate.run).each(["crewai", "langgraph"])("%s exports: uv.lock as written", (target) => {
  const work = mkdtempSync(join(tmpdir(), `envelope-uvlock-${target}-`));
  // Installed environments are many files: removing them may take a while on a busy machine.
  afterAll(() => rmSync(work, { recursive: true, force: true }), 600_000);
  const python311 = interpreterFor("3.11") ?? gate.python!;

  // Every case's project in the same folder, one after the other (each removed when done): its
  // fresh .venv's files then have the same paths in every case, so the bytecode the first
  // case's `crewai deploy validate` writes (deployEnv) serves the next ones. Python checks a
  // cached file against its source's size and time, and uv links the same files from its cache
  // into each .venv; the project's own modules differ from case to case (their package too).
  const dir = join(work, "project");
  const pycache = join(work, "pycache");

  it.each(cases)("$name: uv lock --check accepts it, uv sync --locked installs python/<target>.lock's versions on 3.11", async ({ path, packs }) => {
    rmSync(dir, { recursive: true, force: true });
    await writeDirectory(exportFile(path, target, packs), dir);
    const check = uv(["lock", "--check"], dir);
    expect(check.code, check.output).toBe(0);
    const sync = uv(["sync", "--locked", "--python", python311], dir);
    expect(sync.code, sync.output).toBe(0);
    const frozen = uv(["pip", "freeze", "--python", join(dir, ".venv", "bin", "python")], dir);
    expect(frozen.code, frozen.output).toBe(0);
    const installed = new Map([...frozen.output.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$/gm)].map((m) => [normalize(m[1]!), m[2]!]));
    const pinned = pins(target);
    // The framework, the dev group's tools and the vendored library are all there, each package at the pinned version.
    for (const present of [target === "crewai" ? "crewai" : "langgraph", "pytest", "ruff"]) expect(installed.get(present), present).toBe(pinned.get(present));
    expect(frozen.output).toMatch(/^envelope-runtime @ file:\/\/.*\/vendor\/envelope-runtime$/m);
    expect([...installed].filter(([n, v]) => pinned.has(n) && pinned.get(n) !== v)).toEqual([]);
    if (target === "crewai") {
      // CrewAI's own pre-deploy check, as a developer runs it before `crewai deploy create`:
      // the project's crewai CLI, uv on PATH (its lockfile check is an offline `uv lock
      // --check`; its import check finds the crew or the Flow with CrewAI's get_crews /
      // get_flows under `uv run`). The team's model provider keys are set, as AMP's
      // deployment environment has them: CrewAI builds the crew to find it, and some provider
      // clients (OpenRouter's) refuse to be built without their key. Placeholders: the check
      // makes no model call. Nothing else is set — no .env, no connection credential.
      const validate = spawnSync(join(dir, ".venv", "bin", "crewai"), ["deploy", "validate"], { cwd: dir, env: deployEnv(dir, pycache), encoding: "utf8", timeout: 600_000 });
      const report = `${validate.stdout}\n${validate.stderr}`;
      expect(report, "crewai deploy validate: no finding").not.toMatch(/\b(ERROR|WARNING)\b/);
      expect(validate.status, report).toBe(0);
      expect(validate.stdout).toContain("Pre-deploy validation passed.");
    }
    // And nothing moved: the lock is still the one the export wrote.
    const again = uv(["lock", "--check"], dir);
    expect(again.code, again.output).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }, 900_000);

  it.each(PYTHONS[target]!.filter((v) => v !== "3.11"))("support-tier on Python %s: uv sync --locked installs the lock's resolution for it", async (version) => {
    const python = interpreterFor(version);
    if (!python) {
      process.stderr.write(`\n!!! uv.lock on Python ${version} NOT checked: no Python ${version} on this machine\n`);
      return;
    }
    const dir = join(work, `support-tier-${version}`);
    await writeDirectory(exportFile(join(ROOT, "examples/support-tier.envelope.json"), target), dir);
    const sync = uv(["sync", "--locked", "--python", python], dir);
    expect(sync.code, sync.output).toBe(0);
    const probe = spawnSync(join(dir, ".venv", "bin", "python"), ["-c", `import sys, ${target}, envelope_runtime.${target}, pytest; print('%d.%d' % sys.version_info[:2])`], { encoding: "utf8" });
    expect(probe.status, probe.stderr).toBe(0);
    expect(probe.stdout.trim()).toBe(version);
    rmSync(join(dir, ".venv"), { recursive: true, force: true });
  }, 900_000);
});
