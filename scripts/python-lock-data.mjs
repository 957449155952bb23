#!/usr/bin/env node
// Regenerates python/<target>.uv-lock.json, what an export's uv.lock is cut from
// (src/targets/python-common/uv-lock.ts):
//
//   node scripts/python-lock-data.mjs [crewai|langgraph|runtime ...] [--library DIR]
//
// For each target, a throwaway project depends on everything an export of it can name
// (python/<target>.in, the export's other direct dependencies, envelope-runtime[<target>] from
// python/envelope-runtime) and constrains every package to python/<target>.lock's version —
// the versions this repository's tests run — and real `uv lock` resolves it for every platform
// and for the export's whole Python range (a universal lock). Where a pin needs a newer Python
// than the range's first (pydantic-settings 2.16.3 needs 3.11; CrewAI exports accept 3.10),
// the pins hold from 3.11 on and the lower Pythons take the pinned versions where they can:
// the second `uv lock` resolves with the first, 3.11-and-up lock as its preferences. The
// result, each package's uv.lock text as uv wrote it with its edges for the closure walk, is
// written as JSON; an export selects the closure of its own dependencies from it, offline.
//
// It also writes python/envelope-runtime.dist.json: the wheel and sdist scripts/build-runtime.mjs
// makes of the library (the same bytes every build), by name, sha256, size and PyPI's blake2b
// path, which an export made with `--runtime index` records in its uv.lock — the files of the
// version it pins, as the release workflow publishes them. `library` is the digest of the files
// they were built from (libraryDigest): test/uv-lock.test.ts says when the library has changed
// since, and this script must run again.
// Needs PyPI (uv's cache: ~/.cache/envelope-export/uv-cache). uv: $UV, else the test suite's.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildRuntime, LIBRARY_DIR, libraryFiles, libraryVersion } from "./build-runtime.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const UV_VERSION = "0.13.9";
const cacheRoot = process.env.ENVELOPE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "envelope-export");
const UV = process.env.UV ?? join(cacheRoot, `uv-${UV_VERSION}`, "bin", "uv");

// Per target: the export's Python range (templates/<target>/pyproject.toml.hbs) and its
// direct dependencies beyond python/<target>.in (the .in lists the framework side only).
const TARGETS = {
  crewai: { requiresPython: ">=3.10,<3.14", direct: ["httpx", "python-dotenv", "pyyaml"] },
  langgraph: { requiresPython: ">=3.11", direct: ["httpx", "python-dotenv", "typing-extensions"] },
};
/** From this Python on, the lock's pins hold (python/<target>.lock is compiled for it). */
const PINNED_FROM = "3.11";
const PROJECT = "envelope-lock-data";

function uv(args, cwd) {
  const r = spawnSync(UV, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, UV_CACHE_DIR: process.env.UV_CACHE_DIR ?? join(cacheRoot, "uv-cache"), UV_PYTHON_DOWNLOADS: "never", UV_NO_CONFIG: "1" } });
  if (r.status !== 0) throw new Error(`uv ${args.join(" ")} failed:\n${r.stderr}`);
  return r.stdout;
}

const requirementLines = (text) =>
  text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);

function pyproject(target, requiresPython, pinMarker) {
  const spec = TARGETS[target];
  const pins = [...readFileSync(join(ROOT, "python", `${target}.lock`), "utf8").matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*==[^\s\\;]+)/gm)].map((m) => m[1]);
  const deps = [...requirementLines(readFileSync(join(ROOT, "python", `${target}.in`), "utf8")), ...spec.direct, `envelope-runtime[${target}]`];
  const str = (s) => JSON.stringify(s);
  return [
    "[project]",
    `name = ${str(PROJECT)}`,
    'version = "0"',
    `requires-python = ${str(requiresPython)}`,
    "dependencies = [",
    ...deps.map((d) => `    ${str(d)},`),
    "]",
    "",
    "[tool.uv.sources]",
    `envelope-runtime = { path = ${str(join(ROOT, "python", "envelope-runtime"))} }`,
    "",
    "[tool.uv]",
    "constraint-dependencies = [",
    ...pins.map((p) => `    ${str(pinMarker ? `${p}; ${pinMarker}` : p)},`),
    "]",
    "",
  ].join("\n");
}

/** The uv.lock of the target's throwaway project. */
function universalLock(target) {
  const dir = mkdtempSync(join(tmpdir(), `envelope-lock-data-${target}-`));
  try {
    const wanted = TARGETS[target].requiresPython;
    const lower = /^>=(\d+\.\d+)/.exec(wanted)?.[1];
    const narrowed = lower && Number(lower.split(".")[1]) < Number(PINNED_FROM.split(".")[1]);
    // First the Pythons the pins are for, every pin exact.
    writeFileSync(join(dir, "pyproject.toml"), pyproject(target, narrowed ? wanted.replace(/^>=[\d.]+/, `>=${PINNED_FROM}`) : wanted, undefined));
    uv(["lock", "--quiet"], dir);
    if (narrowed) {
      // Then the whole range, the pins from PINNED_FROM on; uv.lock above is the preference.
      writeFileSync(join(dir, "pyproject.toml"), pyproject(target, wanted, `python_full_version >= '${PINNED_FROM}'`));
      uv(["lock", "--quiet"], dir);
    }
    return readFileSync(join(dir, "uv.lock"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The lock's TOML as JSON (Python's tomllib: one parser the text is certainly read right by). */
function parsed(text) {
  const r = spawnSync("python3", ["-c", "import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))"], { input: text, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`python3 tomllib: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A dependency edge as the closure walk needs it: the package it names (and which one, when several share the name), with its extras. */
const edge = (d) => ({ name: d.name, ...(d.version ? { version: d.version } : {}), ...(d.extra ? { extra: d.extra } : {}) });

function lockData(target) {
  const text = universalLock(target);
  const lock = parsed(text);
  // Each [[package]] block's text, in the lock's order; its [package.optional-dependencies]
  // table is kept apart, one entry per extra, since an export keeps only the extras it uses.
  const blocks = text.split("\n[[package]]\n").slice(1);
  if (blocks.length !== lock.package.length) throw new Error("uv.lock: a [[package]] block per package expected");
  const header = text.slice(0, text.indexOf("\n[[package]]\n") + 1).replace(/\n\[manifest\]\n[\s\S]*$/, "\n");
  const packages = [];
  let root;
  lock.package.forEach((p, i) => {
    if (p.name === PROJECT) {
      root = p;
      return;
    }
    // The library's own entry is rendered from its pyproject at export time (it changes with it).
    if (p.name === "envelope-runtime") return;
    const block = blocks[i].replace(/\n+$/, "\n");
    const [body, ...tables] = block.split(/\n(?=\[package\.)/);
    const extras = {};
    for (const table of tables) {
      if (!table.startsWith("[package.optional-dependencies]\n")) throw new Error(`${p.name}: unexpected table ${table.split("\n")[0]}`);
      for (const m of table.slice(table.indexOf("\n") + 1).matchAll(/^(\S+) = \[\n((?: {4}.*\n)*)\]\n/gm)) extras[m[1]] = m[2];
    }
    const extraNames = Object.keys(p["optional-dependencies"] ?? {});
    if (extraNames.join() !== Object.keys(extras).join()) throw new Error(`${p.name}: optional-dependencies text and data disagree`);
    packages.push({
      name: p.name,
      version: p.version,
      text: `${body.replace(/\n+$/, "")}\n`,
      dependencies: (p.dependencies ?? []).map(edge),
      extras: Object.fromEntries(extraNames.map((x) => [x, { text: extras[x], dependencies: p["optional-dependencies"][x].map(edge) }])),
    });
  });
  if (!root) throw new Error("uv.lock: no entry for the project");
  // The project's own edges by name: what an export's entry says for each of its direct
  // dependencies (a name with several versions carries its versions' markers here).
  const direct = {};
  for (const d of root.dependencies) (direct[d.name] ??= []).push(Object.fromEntries(Object.entries(d).filter(([k]) => k !== "extra")));
  const pins = Object.fromEntries([...readFileSync(join(ROOT, "python", `${target}.lock`), "utf8").matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)/gm)].map((m) => [m[1].toLowerCase().replace(/[-_.]+/g, "-"), m[2]]));
  // The repository's lock and this data agree: every pinned package is here at that version.
  for (const [name, version] of Object.entries(pins)) {
    if (!packages.some((p) => p.name === name && p.version === version)) throw new Error(`python/${target}.lock pins ${name}==${version}, which the universal lock lacks`);
  }
  return {
    comment: `Generated by scripts/python-lock-data.mjs with uv ${UV_VERSION} from python/${target}.in and python/${target}.lock; do not edit.`,
    requiresPython: lock["requires-python"],
    header,
    direct,
    packages,
  };
}

/** sha256 over the library's files an export vendors and the sdist holds (path and content of each). */
export function libraryDigest(dir = LIBRARY_DIR) {
  const all = createHash("sha256");
  for (const file of libraryFiles(dir)) all.update(`${file}\0${createHash("sha256").update(readFileSync(join(dir, file))).digest("hex")}\n`);
  return all.digest("hex");
}

/** The reproducible wheel and sdist of the library, as python/envelope-runtime.dist.json records them. */
function runtimeDistributions(dir = LIBRARY_DIR) {
  const out = mkdtempSync(join(tmpdir(), "envelope-runtime-dist-"));
  try {
    const library = libraryDigest(dir);
    const built = buildRuntime(out, { library: dir });
    // PyPI stores a file under the blake2b-256 of its bytes (a path uv.lock's URL names).
    const b2 = spawnSync("python3", ["-c", "import hashlib, sys; [print(hashlib.blake2b(open(p, 'rb').read(), digest_size=32).hexdigest()) for p in sys.argv[1:]]", ...built.map((b) => b.path)], { encoding: "utf8" });
    if (b2.status !== 0) throw new Error(`python3 blake2b: ${b2.stderr}`);
    const blake2b = b2.stdout.trim().split("\n");
    if (libraryDigest(dir) !== library) throw new Error(`${dir} changed during the build; run again`);
    const file = (b, i) => ({ filename: basename(b.path), sha256: b.sha256, size: statSync(b.path).size, blake2b256: blake2b[i] });
    const [wheel, sdist] = built.map(file);
    return { comment: "Generated by scripts/python-lock-data.mjs (scripts/build-runtime.mjs's build); do not edit.", version: libraryVersion(dir), library, wheel, sdist };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function main(args) {
  // --library DIR: the runtime's files from another copy of the library (a clean checkout of a
  // commit, when the working tree holds edits not yet committed).
  const at = args.indexOf("--library");
  const library = at >= 0 ? resolve(args[at + 1] ?? "") : LIBRARY_DIR;
  const argv = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args;
  const targets = argv.length ? argv : [...Object.keys(TARGETS), "runtime"];
  mkdirSync(join(ROOT, "python"), { recursive: true });
  for (const target of targets) {
    if (target === "runtime") {
      const dist = runtimeDistributions(library);
      writeFileSync(join(ROOT, "python", "envelope-runtime.dist.json"), `${JSON.stringify(dist, null, 1)}\n`);
      process.stderr.write(`python/envelope-runtime.dist.json: ${dist.wheel.filename} ${dist.wheel.sha256}\n`);
      continue;
    }
    if (!Object.hasOwn(TARGETS, target)) throw new Error(`unknown target ${target} (crewai, langgraph, runtime)`);
    const data = lockData(target);
    writeFileSync(join(ROOT, "python", `${target}.uv-lock.json`), `${JSON.stringify(data, null, 1)}\n`);
    process.stderr.write(`python/${target}.uv-lock.json: ${data.packages.length} packages\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
