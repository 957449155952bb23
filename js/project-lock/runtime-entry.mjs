// Regenerates js/project-lock/envelope-runtime-js.json: what a langgraph-js export made with
// `--runtime index` writes into its package-lock.json for envelope-runtime-js (a registry
// entry needs `resolved` and `integrity`), from `npm pack` of js/envelope-runtime as it would
// be published. Run after changing js/envelope-runtime (its dist/, README, CHANGELOG or
// package.json): `node js/project-lock/runtime-entry.mjs`. test/langgraph-js-runtime.test.ts
// checks the file against a fresh `npm pack --dry-run`.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const runtime = fileURLToPath(new URL("../envelope-runtime/", import.meta.url));

/** `npm pack --dry-run --json` of the runtime package: its tarball's name, size and integrity. */
export function packRuntime() {
  const run = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: runtime, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`npm pack failed: ${run.stderr}`);
  const [packed] = JSON.parse(run.stdout);
  return packed;
}

/** The lock entry's fields (without `resolved`, which depends on the registry). */
export function runtimeEntry() {
  const pkg = JSON.parse(readFileSync(`${runtime}package.json`, "utf8"));
  const packed = packRuntime();
  return {
    name: pkg.name,
    version: pkg.version,
    filename: packed.filename,
    integrity: packed.integrity,
    license: pkg.license,
    engines: pkg.engines,
    peerDependencies: pkg.peerDependencies,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const entry = runtimeEntry();
  writeFileSync(`${here}envelope-runtime-js.json`, JSON.stringify(entry, null, 2) + "\n");
  console.log(`envelope-runtime-js.json written (${entry.name} ${entry.version} ${entry.integrity})`);
}
