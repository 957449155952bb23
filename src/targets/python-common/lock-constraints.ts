// The versions this tool's own tests run a target's projects with (python/<target>.lock,
// the environment of test/e2e), as uv constraints for the exported pyproject.toml: on the
// Python and platform the lock was compiled for, `uv sync` installs exactly those versions;
// elsewhere uv resolves freely within the declared ranges (a pin such as pydantic-settings
// 2.16, which needs Python 3.11, must not make a 3.10 resolution fail).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface LockConstraints {
  /** The lock's path in this repository, for the generated comment. */
  source: string;
  /** e.g. "Python 3.11 on Linux x86_64". */
  where: string;
  /** `name==version; marker` for every package of the lock. */
  constraints: string[];
}

const PYTHON_DIR = fileURLToPath(new URL("../../../python/", import.meta.url));
const cache = new Map<string, LockConstraints>();

/** The constraints of `python/<name>.lock` (read once per process). */
export function lockConstraints(name: string): LockConstraints {
  let found = cache.get(name);
  if (!found) {
    found = parseLock(readFileSync(`${PYTHON_DIR}${name}.lock`, "utf8"), `python/${name}.lock`);
    cache.set(name, found);
  }
  return found;
}

/** Reads a `uv pip compile` lock: its pins, and the Python version and platform it names. */
export function parseLock(text: string, source: string): LockConstraints {
  const python = /--python-version (\d+\.\d+)/.exec(text)?.[1];
  const platform = /--python-platform (\S+)/.exec(text)?.[1];
  if (!python || !platform) throw new Error(`${source}: the header names no --python-version and --python-platform`);
  const os = platform.includes("linux") ? "linux" : platform.includes("macos") || platform.includes("apple") ? "darwin" : platform.includes("windows") ? "win32" : undefined;
  if (!os) throw new Error(`${source}: unknown --python-platform ${platform}`);
  // The machine too: x86_64 pins must not constrain an aarch64 Linux (no wheel there).
  const machine = /^(x86_64|aarch64|arm64|i686)/.exec(platform)?.[1];
  if (!machine) throw new Error(`${source}: unknown machine in --python-platform ${platform}`);
  const marker = `python_version == '${python}' and sys_platform == '${os}' and platform_machine == '${machine}'`;
  const constraints = [...text.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*==[^\s\\;]+)/gm)].map((m) => `${m[1]}; ${marker}`);
  if (constraints.length === 0) throw new Error(`${source}: no pinned package`);
  const names = { linux: "Linux", darwin: "macOS", win32: "Windows" } as const;
  return { source, where: `Python ${python} on ${names[os]} ${machine}`, constraints };
}
