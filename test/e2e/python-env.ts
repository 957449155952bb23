// Cached Python environments for the end-to-end tests. Each lock under python/ gets one
// virtual environment per Python version outside the repository, keyed by the lock's hash, created on first
// use with uv (itself bootstrapped into the cache with pip), so CI and developers pay for
// the install once per lock change. An install says on stderr what it does, how long it
// took, and every half minute that it is still going: it is the longest silence of a first
// run (process.stderr.write reaches the terminal at once, where vitest holds console output).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const UV_VERSION = "0.13.9";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function cacheRoot(): string {
  return process.env.ENVELOPE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "envelope-export");
}

export interface PythonEnv {
  python: string;
  bin: string;
  root: string;
}

export type PythonAvailability = { ok: true; python: string; version: string } | { ok: false; reason: string };

/** A Python ≥ 3.10 to build environments with, or why there is none. */
export function findPython(): PythonAvailability {
  for (const candidate of [process.env.ENVELOPE_PYTHON, "python3.11", "python3.12", "python3.13", "python3.10", "python3"].filter(Boolean) as string[]) {
    const r = spawnSync(candidate, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
    if (r.status !== 0) continue;
    const version = r.stdout.trim();
    const [major, minor] = version.split(".").map(Number);
    if (major === 3 && minor! >= 10 && minor! <= 13) return { ok: true, python: candidate, version };
  }
  return { ok: false, reason: "no Python 3.10–3.13 found (set ENVELOPE_PYTHON to one)" };
}

/**
 * Whether the end-to-end suites run. Without Python they are skipped with a loud message —
 * except under CI=true, where a missing Python must fail the run, not hide it.
 */
export function e2eGate(): { run: boolean; python?: string } {
  const found = findPython();
  if (found.ok) return { run: true, python: found.python };
  const message = `\n!!! end-to-end Python tests SKIPPED: ${found.reason}\n`;
  if (process.env.CI === "true") throw new Error(message + "CI=true: refusing to skip.");
  process.stderr.write(message);
  return { run: false };
}

/** uv, installed into the cache with `python`'s pip on first use. */
export function uvBinary(python: string): string {
  const dir = join(cacheRoot(), `uv-${UV_VERSION}`);
  const uv = join(dir, "bin", "uv");
  buildOnce(dir, `uv ${UV_VERSION}`, "pip install, once", () => {
    execFileSync(python, ["-m", "venv", dir], { stdio: "inherit" });
    execFileSync(join(dir, "bin", "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `uv==${UV_VERSION}`], { stdio: "inherit" });
  });
  return uv;
}

/** The ruff every export pins (its dev extra; python/langgraph.lock has the same). */
export const RUFF_VERSION = /^ruff==(\S+)/m.exec(readFileSync(join(ROOT, "python", "langgraph.lock"), "utf8"))![1]!;

/** That ruff alone, installed into the cache with uv on first use (a few MB, no framework). */
export function ruffBinary(python: string): string {
  const dir = join(cacheRoot(), `ruff-${RUFF_VERSION}`);
  const uv = uvBinary(python);
  buildOnce(dir, `ruff ${RUFF_VERSION}`, "uv pip install, once", () => {
    execFileSync(uv, ["venv", "--quiet", "--python", python, dir], { stdio: "inherit" });
    execFileSync(uv, ["pip", "install", "--quiet", "--python", join(dir, "bin", "python"), `ruff==${RUFF_VERSION}`], { stdio: "inherit" });
  });
  return join(dir, "bin", "ruff");
}

const say = (text: string) => process.stderr.write(`envelope-export tests: ${text}\n`);
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

/**
 * Prints `text (N s)` every `everyMs` while the caller blocks in a synchronous install:
 * a separate little process, since this one's event loop is stopped. It exits by itself
 * when this process is gone.
 */
function heartbeat(text: string, everyMs = 30_000): () => void {
  const script = `const t=Date.now(),p=process.ppid;setInterval(()=>{if(process.ppid!==p)process.exit();process.stderr.write(${JSON.stringify(`envelope-export tests: ${text} (`)}+Math.round((Date.now()-t)/1000)+" s)\\n")},${everyMs});`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "ignore", "inherit"] });
  child.unref();
  return () => child.kill();
}

/**
 * Builds `dir` in place exactly once across concurrent test workers: a lock directory
 * serializes builders, and a `.complete` marker tells a finished build from a crashed one.
 * What is built, and how, are said on stderr: `what` names it, `how` says what it costs.
 */
function buildOnce(dir: string, what: string, how: string, build: () => void, step?: string): void {
  // A `step` adds to a built `dir` (its own marker and lock); without one, `dir` is built anew.
  const marker = join(dir, step ? `.${step}-complete` : ".complete");
  if (existsSync(marker)) return;
  mkdirSync(cacheRoot(), { recursive: true });
  const lock = step ? `${dir}.${step}.lock` : `${dir}.lock`;
  const started = Date.now();
  const deadline = started + 30 * 60_000;
  let waited = 0;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(marker)) {
        if (waited) say(`${what}: ready (installed by another test worker; waited ${seconds(started)})`);
        return;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}; remove it if no install is running`);
      if (waited++ % 30 === 0) say(`${what}: waiting for another test worker to install it (${seconds(started)})`);
      execFileSync("sleep", ["2"]);
    }
  }
  try {
    if (existsSync(marker)) {
      if (waited) say(`${what}: ready (installed by another test worker; waited ${seconds(started)})`);
      return;
    }
    say(`${what}: installing into ${dir} (${how}; later runs reuse it)`);
    const stop = heartbeat(`${what}: still installing`);
    try {
      if (!step) rmSync(dir, { recursive: true, force: true });
      build();
    } finally {
      stop();
    }
    writeFileSync(marker, new Date(0).toISOString());
    say(`${what}: ready in ${seconds(started)}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** `3.12` of a Python interpreter (a command or a path), or undefined when it does not run. */
export function pythonVersion(python: string): string | undefined {
  const r = spawnSync(python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * An interpreter of Python `version`: `ENVELOPE_PYTHON_3_12` (for 3.12), `python3.12` on
 * PATH, else one pyenv has installed — its shim runs only the versions `pyenv global`
 * names, and a machine's pyenv often has more (this one's: 3.11 global, 3.12 installed).
 */
export function interpreterFor(version: string): string | undefined {
  const candidates = [process.env[`ENVELOPE_PYTHON_${version.replace(".", "_")}`], `python${version}`];
  const pyenv = spawnSync("pyenv", ["root"], { encoding: "utf8" });
  if (pyenv.status === 0) {
    const versions = join(pyenv.stdout.trim(), "versions");
    const installed = existsSync(versions) ? readdirSync(versions).filter((v) => v.startsWith(`${version}.`)) : [];
    // The newest patch release first (numeric, not lexical: 3.12.10 after 3.12.9).
    installed.sort((a, b) => Number(b.split(".")[2]) - Number(a.split(".")[2]));
    candidates.push(...installed.map((v) => join(versions, v, "bin", `python${version}`)));
  }
  return candidates.find((python) => python !== undefined && pythonVersion(python) === version);
}

/**
 * Python `version` (e.g. "3.12") for suites that must run on that exact version: its
 * interpreter (`python3.12` on PATH), or — when there is none — a skip with a loud
 * message, except under CI=true, where a missing Python must fail the run.
 */
export function e2eGateFor(version: string): { run: boolean; python?: string } {
  const python = interpreterFor(version);
  if (python !== undefined) return { run: true, python };
  const message = `\n!!! end-to-end Python ${version} tests SKIPPED: no Python ${version} found (python${version} on PATH, pyenv's versions, ENVELOPE_PYTHON_${version.replace(".", "_")})\n`;
  if (process.env.CI === "true") throw new Error(message + "CI=true: refusing to skip.");
  process.stderr.write(message);
  return { run: false };
}

/** What a first install costs on disk, as measured (README, "Set up"); the time is mostly download. */
const FIRST_RUN: Record<string, string> = { crewai: "1.1 GB", langgraph: "270 MB" };

/**
 * The environment for `python/<name>.lock` on `python`'s version, created if missing: one
 * per (lock, Python version). Python 3.11, the floor every export declares, keeps the
 * unsuffixed directory name existing caches have; other versions get `-py<version>`.
 */
export function ensureEnv(name: string, python: string): PythonEnv {
  const lock = join(ROOT, "python", `${name}.lock`);
  const hash = createHash("sha256").update(readFileSync(lock)).digest("hex").slice(0, 16);
  const version = pythonVersion(python);
  if (version === undefined) throw new Error(`${python} does not run`);
  const root = join(cacheRoot(), `venv-${name}-${hash}${version === "3.11" ? "" : `-py${version}`}`);
  const uv = uvBinary(python);
  const how = `first run only: about ${FIRST_RUN[name] ?? "a few hundred MB"}, mostly download`;
  buildOnce(root, `Python environment ${name} (Python ${version}, python/${name}.lock)`, how, () => {
    execFileSync(uv, ["venv", "--quiet", "--python", python, root], { stdio: "inherit" });
    execFileSync(uv, ["pip", "install", "--quiet", "--python", join(root, "bin", "python"), "--require-hashes", "-r", lock], { stdio: "inherit" });
  });
  const env = { python: join(root, "bin", "python"), bin: join(root, "bin"), root };
  compileBytecode(env, `Python environment ${name} (Python ${version})`);
  ensureRuntimeLibrary(env);
  return env;
}

/**
 * The environment's bytecode, compiled once (an existing environment gets it on its next use).
 * uv installs none, and the test processes run with PYTHONDONTWRITEBYTECODE=1, so a module
 * no process had compiled before was compiled from source by every process importing it:
 * LiteLLM's (CrewAI's support suite, MODEL_OVERRIDE=mistral) 5 s of CPU each time, pytest's
 * own 0.3 s each run. Files that are not Python (CrewAI's project templates) fail to compile
 * and stay as they are; compileall writes each file atomically, so a running test is safe.
 */
function compileBytecode(env: PythonEnv, what: string): void {
  buildOnce(
    env.root,
    `${what}: bytecode`,
    "compileall, once: a minute of CPU",
    () => {
      const site = execFileSync(env.python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { encoding: "utf8" }).trim();
      const r = spawnSync(env.python, ["-m", "compileall", "-q", "-j", "0", site], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME }, maxBuffer: 1 << 26 });
      if (r.error) throw r.error;
    },
    "bytecode",
  );
}

/** This checkout's envelope-runtime, the library every export pins (vendored copies are the same bytes). */
export const RUNTIME_LIBRARY = join(ROOT, "python", "envelope-runtime");
const runtimeInstalled = new Set<string>();

/**
 * Installs a generated project into the environment (editable, its own dependencies already
 * locked), and envelope-runtime editable from this checkout, unless the environment already
 * imports it from here (a cached environment may point at another checkout, or a deleted clone).
 */
export function installProject(env: PythonEnv, projectDir: string): void {
  const uv = join(cacheRoot(), `uv-${UV_VERSION}`, "bin", "uv");
  ensureRuntimeLibrary(env);
  execFileSync(uv, ["pip", "install", "--quiet", "--python", env.python, "--no-deps", "-e", projectDir], { stdio: "pipe" });
}

/**
 * envelope-runtime editable from this checkout in the environment (every test that runs an
 * export there needs it, whichever runs first on a fresh machine), unless it already imports
 * it from here: a cached environment may point at another checkout, or a deleted clone.
 */
function ensureRuntimeLibrary(env: PythonEnv): void {
  if (runtimeInstalled.has(env.python)) return;
  claimEnvironment(env.root);
  const uv = uvBinary(env.python);
  const src = join(RUNTIME_LIBRARY, "src", "envelope_runtime");
  let where = "";
  try {
    where = execFileSync(env.python, ["-c", "import envelope_runtime, os; print(os.path.dirname(os.path.realpath(envelope_runtime.__file__)))"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // not installed yet
  }
  if (where !== realpathSync(src)) execFileSync(uv, ["pip", "install", "--quiet", "--python", env.python, "--no-deps", "-e", RUNTIME_LIBRARY], { stdio: "pipe" });
  runtimeInstalled.add(env.python);
}

/**
 * A cached environment serves one checkout at a time: its envelope-runtime is an editable
 * install of one checkout, so a test run of a second checkout (a fresh clone's CI beside a
 * developer's tests) would re-point it mid-run, and each run would then import the other's
 * library without a word. Each test process marks the environment with its pid and
 * checkout; a live process of another checkout makes this one refuse, naming it. Marks of
 * processes that are gone are removed.
 */
export function claimEnvironment(root: string, checkout: string = realpathSync(ROOT)): void {
  const users = join(root, ".envelope-users");
  mkdirSync(users, { recursive: true });
  const mine = join(users, String(process.pid));
  const others = (): string[] =>
    readdirSync(users).flatMap((name) => {
      let user: string;
      try {
        user = readFileSync(join(users, name), "utf8");
      } catch {
        return []; // removed meanwhile
      }
      if (user === checkout || Number(name) === process.pid) return [];
      if (!alive(Number(name))) {
        rmSync(join(users, name), { force: true });
        return [];
      }
      return [`${user} (process ${name})`];
    });
  let busy = others();
  if (busy.length === 0) {
    writeFileSync(mine, checkout);
    process.once("exit", () => rmSync(mine, { force: true }));
    busy = others(); // another checkout may have marked it at the same moment
    if (busy.length === 0) return;
    rmSync(mine, { force: true });
  }
  throw new Error(
    `${root} is in use by a test run of another checkout: ${busy.join(", ")}. Its envelope-runtime is ` +
      `that checkout's, so two runs at once would test each other's library. Wait for that run, or give ` +
      `this one a cache of its own (ENVELOPE_CACHE_DIR=DIR).`,
  );
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
