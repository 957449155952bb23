// Regenerates js/project-lock/package-lock.json: the lock every langgraph-js export ships
// (its root name and version replaced by the team's, offline). Run after changing
// package.json here or js/envelope-runtime/package.json: `node js/project-lock/update.mjs`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "envelope-project-lock-"));
try {
  cpSync(join(here, "package.json"), join(work, "package.json"));
  const runtime = JSON.parse(readFileSync(join(here, "../envelope-runtime/package.json"), "utf8"));
  cpSync(join(here, "../envelope-runtime/package.json"), join(work, "vendor/envelope-runtime-js/package.json"), { recursive: true });
  const run = spawnSync("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: work, stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
  writeFileSync(join(here, "package-lock.json"), readFileSync(join(work, "package-lock.json")));
  console.log(`package-lock.json written (envelope-runtime-js ${runtime.version})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
