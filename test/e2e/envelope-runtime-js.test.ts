// envelope-runtime-js (js/envelope-runtime/) from this repository's test run, with no manual
// install: its node_modules links to the shared langgraph-js install (langgraph-js-env.ts),
// then its own `tsc` (strict, its tsconfig.json) compiles src/ into a scratch folder whose
// output must equal the committed dist/ byte for byte (what every export vendors is what src/
// says), and its own vitest suite passes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkRuntimeModules, RUNTIME_SOURCE } from "./langgraph-js-env.js";

const files = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();

describe("envelope-runtime-js: its build is its dist/, its own tests pass", () => {
  let modules = "";
  const scratch = mkdtempSync(join(tmpdir(), "envelope-runtime-js-"));
  beforeAll(() => {
    modules = linkRuntimeModules();
  }, 900_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("tsc -p tsconfig.json builds exactly the committed dist/", () => {
    const run = spawnSync(join(modules, ".bin/tsc"), ["-p", "tsconfig.json", "--outDir", scratch], { cwd: RUNTIME_SOURCE, encoding: "utf8", timeout: 300_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const dist = join(RUNTIME_SOURCE, "dist");
    expect(files(scratch)).toEqual(files(dist));
    for (const f of files(dist)) expect(readFileSync(join(scratch, f), "utf8"), `dist/${f} is stale: run npm run build in js/envelope-runtime`).toBe(readFileSync(join(dist, f), "utf8"));
  }, 300_000);

  it("vitest run (its own suite)", () => {
    const run = spawnSync(join(modules, ".bin/vitest"), ["run"], { cwd: RUNTIME_SOURCE, encoding: "utf8", timeout: 300_000, env: { ...process.env, CI: "true", NO_COLOR: "1" } });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/Tests\s+\d+ passed/);
  }, 300_000);
});
