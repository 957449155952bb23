// The node_modules every langgraph-js test runs against: one per lock hash
// (js/project-lock/package-lock.json with the runtime's package.json), installed once with
// `npm ci` into ~/.cache/envelope-export/node-langgraph-js-<hash>/ (ENVELOPE_CACHE_DIR) from an
// export of the example, so it holds exactly what every export's lock names. Nothing is
// installed by hand: the e2e, the real-path drive and envelope-runtime-js's own tests all ask
// here. The vendored runtime inside it is refreshed from js/envelope-runtime/ on every call
// (node_modules/envelope-runtime-js links to it), so a rebuilt dist/ needs no new install.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../helpers/cli.js";
import { exportFile } from "../helpers/export.js";
import { cacheRoot } from "./python-env.js";

export const PROJECT_LOCK = join(ROOT, "js/project-lock/package-lock.json");
export const RUNTIME_SOURCE = join(ROOT, "js/envelope-runtime");

/** Every file of an export written under dir, with its mode. */
export function writeExport(dir: string, files: ReturnType<typeof exportFile>): void {
  for (const [path, f] of files.entries()) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), f.bytes, { mode: f.mode });
  }
}

/** What an export vendors of the runtime (its package.json `files`, and package.json). */
const RUNTIME_FILES = ["package.json", "README.md", "CHANGELOG.md", "dist"];

function treeHash(root: string): string {
  const hash = createHash("sha256");
  const walk = (rel: string): void => {
    const full = join(root, rel);
    if (!existsSync(full)) return void hash.update(`-${rel}\0`);
    if (lstatSync(full).isDirectory()) for (const name of readdirSync(full).sort()) walk(join(rel, name));
    else hash.update(`${rel}\0`).update(readFileSync(full));
  };
  for (const part of RUNTIME_FILES) walk(part);
  return hash.digest("hex");
}

/** The cache folder for the current lock (its node_modules, package-lock.json and vendor/ beside). */
export function sharedHome(): string {
  const hash = createHash("sha256").update(readFileSync(PROJECT_LOCK)).update(readFileSync(join(RUNTIME_SOURCE, "package.json"))).digest("hex").slice(0, 16);
  return join(cacheRoot(), `node-langgraph-js-${hash}`);
}

/** The shared node_modules for this lock, installed with `npm ci` on first use. */
export function sharedModules(): string {
  const home = sharedHome();
  if (!existsSync(join(home, "node_modules/.package-lock.json"))) {
    const work = `${home}.${process.pid}.tmp`;
    rmSync(work, { recursive: true, force: true });
    // An export of the example: its package.json and lock, its vendored runtime.
    writeExport(work, exportFile(join(ROOT, "examples/support-tier.envelope.json"), "langgraph-js"));
    process.stderr.write(`langgraph-js: npm ci into ${home} (once per lock)\n`);
    const run = spawnSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: work, encoding: "utf8", timeout: 900_000 });
    if (run.status !== 0) throw new Error(`npm ci failed (${run.status}):\n${run.stderr}`);
    // Another worker may have finished first: keep theirs.
    if (existsSync(join(home, "node_modules/.package-lock.json"))) rmSync(work, { recursive: true, force: true });
    else {
      rmSync(home, { recursive: true, force: true });
      renameSync(work, home);
    }
  }
  // The runtime as this checkout has it (what every export vendors): dist/ may have been rebuilt.
  // Copied only when it differs, so a suite running against it meanwhile never sees it half-written.
  const vendor = join(home, "vendor/envelope-runtime-js");
  if (treeHash(vendor) !== treeHash(RUNTIME_SOURCE)) {
    for (const part of RUNTIME_FILES) {
      rmSync(join(vendor, part), { recursive: true, force: true });
      cpSync(join(RUNTIME_SOURCE, part), join(vendor, part), { recursive: true });
    }
  }
  return join(home, "node_modules");
}

/**
 * js/envelope-runtime/node_modules as a link to the shared install (git-ignored), so the
 * runtime's own tsc and vitest run from a clean clone. A real folder there (someone's
 * `npm i`) is left alone.
 */
export function linkRuntimeModules(): string {
  const modules = sharedModules();
  const link = join(RUNTIME_SOURCE, "node_modules");
  let stat;
  try {
    stat = lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat && !stat.isSymbolicLink()) return link;
  if (stat && readlinkSync(link) === modules) return link;
  if (stat) unlinkSync(link);
  symlinkSync(modules, link, "dir");
  return link;
}
