#!/usr/bin/env node
// Builds envelope-runtime (python/envelope-runtime/), the library every Python export pins,
// into a wheel and an sdist, the same bytes from one build to the next:
//
//   node scripts/build-runtime.mjs [OUT_DIR] [--expect-version X.Y.Z] [--library DIR]
//
// OUT_DIR defaults to python/envelope-runtime/dist/ (git-ignored). Earlier envelope_runtime
// artifacts there are replaced, so `OUT_DIR/*` is exactly this build (what `uv publish` or
// `twine upload` then takes). --expect-version fails the build when the library's version
// is another (the release workflow passes the tag's). --library builds another copy of the
// library (the tests build a snapshot, which no concurrent edit changes between two builds).
// Prints each artifact with its sha256.
//
// Why the bytes do not change: hatchling (pinned exactly in the library's pyproject.toml,
// and its own dependencies below) builds reproducibly by default — every entry's time is
// SOURCE_DATE_EPOCH, permissions are normalized to 644/755, owners are 0 and unnamed, files
// are sorted, the gzip header carries no name and that time. SOURCE_DATE_EPOCH is set here,
// not taken from the environment, so a developer's rebuild gives the released bytes. The
// library is built from a staged copy holding only what an export vendors (the top files and
// src/, without caches), so nothing left in the working tree (a .pyc, a tool's cache) ends up
// in the wheel. uv: $UV, else the one the test suite caches (~/.cache/envelope-export/uv-*),
// else `uv` on PATH.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const LIBRARY_DIR = join(ROOT, "python", "envelope-runtime");
export const DEFAULT_OUT_DIR = join(LIBRARY_DIR, "dist");
/** 2020-02-02T00:00:00Z, hatchling's own default: the time of every entry in both archives. */
export const SOURCE_DATE_EPOCH = "1580601600";
/** The uv the test suite installs (test/e2e/python-env.ts UV_VERSION). */
const UV_VERSION = "0.13.9";
// hatchling==1.27.0's dependencies, exact (uv pip compile --universal): a newer pathspec or
// packaging could select or spell things differently. tomli only on Python 3.10.
const BUILD_CONSTRAINTS = ["hatchling==1.27.0", "packaging==26.4", "pathspec==1.1.1", "pluggy==1.7.0", "tomli==2.5.0", "trove-classifiers==2026.9.21.13"];
// What an export vendors and the sdist holds (src/targets/python-common/runtime-library.ts).
const TOP_FILES = ["CHANGELOG.md", "LICENSE", "README.md", "pyproject.toml"];
const SKIP_DIRS = new Set(["__pycache__", ".ruff_cache", ".pytest_cache", ".mypy_cache"]);

/** The library's version, from its pyproject.toml. */
export function libraryVersion(dir = LIBRARY_DIR) {
  const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(dir, "pyproject.toml"), "utf8"))?.[1];
  if (!version) throw new Error(`${join(dir, "pyproject.toml")} names no version`);
  return version;
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !(e.isDirectory() && SKIP_DIRS.has(e.name)) && !e.name.endsWith(".pyc"))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The library's files an export vendors, as paths relative to it ("src/envelope_runtime/…"), sorted. */
export function libraryFiles(dir = LIBRARY_DIR) {
  return [...TOP_FILES.map((f) => join(dir, f)), ...walk(join(dir, "src"))].map((p) => relative(dir, p).split(sep).join("/")).sort();
}

function cacheRoot() {
  return process.env.ENVELOPE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "envelope-export");
}

function findUv() {
  const candidates = [process.env.UV, join(cacheRoot(), `uv-${UV_VERSION}`, "bin", "uv"), "uv"].filter(Boolean);
  for (const uv of candidates) {
    if (spawnSync(uv, ["--version"], { stdio: "ignore" }).status === 0) return uv;
  }
  throw new Error(`no uv found (tried ${candidates.join(", ")}): install uv ${UV_VERSION} or set UV to one`);
}

/** Builds the wheel and sdist into `outDir`; returns their paths and sha256. */
export function buildRuntime(outDir = DEFAULT_OUT_DIR, { expectVersion, library = LIBRARY_DIR, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const version = libraryVersion(library);
  if (expectVersion !== undefined && expectVersion !== version) {
    throw new Error(`${join(library, "pyproject.toml")} is version ${version}, not ${expectVersion} (the release tag's)`);
  }
  const uv = findUv();
  const work = mkdtempSync(join(tmpdir(), "envelope-runtime-build-"));
  try {
    const stage = join(work, "envelope-runtime");
    for (const file of libraryFiles(library)) {
      const to = join(stage, file);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(library, file), to);
      chmodSync(to, statSync(join(library, file)).mode & 0o111 ? 0o755 : 0o644);
    }
    const constraints = join(work, "build-constraints.txt");
    writeFileSync(constraints, `${BUILD_CONSTRAINTS.join("\n")}\n`);
    const built = join(work, "out");
    // No --sdist/--wheel: uv builds the sdist, then the wheel from it, so the sdist is proven whole.
    const args = ["build", "--no-create-gitignore", "--build-constraints", constraints, "--out-dir", built, stage];
    log(`building envelope-runtime ${version}: ${uv} ${args.join(" ")} (SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH})`);
    const r = spawnSync(uv, args, { encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH }, stdio: ["ignore", "pipe", "pipe"] });
    if (r.status !== 0) throw new Error(`uv build failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    const expected = [`envelope_runtime-${version}-py3-none-any.whl`, `envelope_runtime-${version}.tar.gz`];
    const made = readdirSync(built).sort();
    if (made.join("\n") !== [...expected].sort().join("\n")) throw new Error(`uv build made ${made.join(", ") || "nothing"}, expected ${expected.join(" and ")}`);

    mkdirSync(outDir, { recursive: true });
    for (const old of readdirSync(outDir)) {
      if (/^envelope_runtime-.+\.(whl|tar\.gz)$/.test(old)) rmSync(join(outDir, old));
    }
    return expected.map((name) => {
      const to = join(outDir, name);
      copyFileSync(join(built, name), to);
      return { path: to, sha256: createHash("sha256").update(readFileSync(to)).digest("hex") };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main(argv) {
  let outDir;
  let expectVersion;
  let library;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--expect-version") {
      expectVersion = argv[++i];
      if (!expectVersion) throw new Error("--expect-version takes a version");
    } else if (arg === "--library") {
      if (!argv[i + 1]) throw new Error("--library takes a folder");
      library = resolve(argv[++i]);
    } else if (arg === "--help" || arg === "-h") {
      process.stdout.write("usage: node scripts/build-runtime.mjs [OUT_DIR] [--expect-version X.Y.Z] [--library DIR]\n");
      return;
    } else if (arg.startsWith("-") || outDir !== undefined) {
      throw new Error(`unexpected argument ${JSON.stringify(arg)} (usage: node scripts/build-runtime.mjs [OUT_DIR] [--expect-version X.Y.Z] [--library DIR])`);
    } else outDir = resolve(arg);
  }
  for (const { path, sha256 } of buildRuntime(outDir ?? DEFAULT_OUT_DIR, { expectVersion, ...(library ? { library } : {}) })) process.stdout.write(`${sha256}  ${path}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`build-runtime: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
