// bin/envelope.js runs the compiled CLI, and in a checkout refuses a dist/ older than src/
// (templates are read live, so stale code with new templates fails confusingly); before
// `npm ci` (no dist/, no node_modules/) it says to run that, not a stack trace. Checked on a
// copy of the launcher in a scratch layout, so the repository's own dist/ is never touched.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function layout(withSources: boolean, { built = true, installed = true } = {}): { dir: string; run: () => { code: number; stdout: string; stderr: string } } {
  const dir = mkdtempSync(join(tmpdir(), "envelope-launcher-"));
  scratch.push(dir);
  mkdirSync(join(dir, "bin"));
  copyFileSync(join(ROOT, "bin/envelope.js"), join(dir, "bin/envelope.js"));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');
  if (built) {
    mkdirSync(join(dir, "dist/cli"), { recursive: true });
    writeFileSync(join(dir, "dist/cli/run.js"), 'process.stdout.write("ran " + process.argv.slice(2).join(" "));\n');
  }
  if (installed) mkdirSync(join(dir, "node_modules"));
  if (withSources) {
    mkdirSync(join(dir, "src/cli"), { recursive: true });
    writeFileSync(join(dir, "src/cli/run.ts"), "");
  }
  const run = () => {
    const r = spawnSync(process.execPath, [join(dir, "bin/envelope.js"), "--version"], { encoding: "utf8" });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  return { dir, run };
}

const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

describe("bin/envelope.js", () => {
  it("runs dist/ when it was built after the last change to src/", () => {
    const { dir, run } = layout(true);
    at(join(dir, "src/cli/run.ts"), 1_000_000);
    at(join(dir, "dist/cli/run.js"), 2_000_000);
    expect(run()).toEqual({ code: 0, stdout: "ran --version", stderr: "" });
  });

  it("refuses a dist/ older than any file under src/, and says how to mend it", () => {
    const { dir, run } = layout(true);
    at(join(dir, "dist/cli/run.js"), 1_000_000);
    at(join(dir, "src/cli/run.ts"), 2_000_000);
    const r = run();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("run `npm run build`");
  });

  it("runs dist/ as it is in an installed package (no src/)", () => {
    const { run } = layout(false);
    expect(run()).toEqual({ code: 0, stdout: "ran --version", stderr: "" });
  });

  it("runs in an installed package whose dependencies sit in a node_modules/ further up", () => {
    const { run } = layout(false, { installed: false });
    expect(run()).toEqual({ code: 0, stdout: "ran --version", stderr: "" });
  });

  it.each([
    ["a fresh clone: no dist/, no node_modules/", { built: false, installed: false }],
    ["no dist/", { built: false, installed: true }],
  ])("%s: says to run npm ci, no stack trace", (_label, state) => {
    const { run } = layout(true, state);
    expect(run()).toEqual({ code: 1, stdout: "", stderr: "envelope: not built yet — run `npm ci` (it builds dist/)\n" });
  });

  it("dist/ but no node_modules/ in a clone: says to run npm ci", () => {
    const { run } = layout(true, { installed: false });
    expect(run()).toEqual({ code: 1, stdout: "", stderr: "envelope: the dependencies are not installed — run `npm ci`\n" });
  });

  it("an export runs the bundle when it is newer than dist/cli/run.js, else the modules", () => {
    const { dir } = layout(false);
    writeFileSync(join(dir, "dist/envelope.cjs"), "");
    writeFileSync(join(dir, "dist/cli/bundle.js"), 'export const loadBundle = () => ({ run: () => process.stdout.write("bundle " + process.argv.slice(2).join(" ")) });\n');
    const run = (...args: string[]) => spawnSync(process.execPath, [join(dir, "bin/envelope.js"), ...args], { encoding: "utf8" }).stdout;
    at(join(dir, "dist/cli/run.js"), 1_000_000);
    at(join(dir, "dist/envelope.cjs"), 2_000_000);
    expect(run("export", "x")).toBe("bundle export x");
    expect(run("--version")).toBe("ran --version");
    // tsc run on its own after the bundle was made: the bundle is stale code.
    at(join(dir, "dist/envelope.cjs"), 500_000);
    expect(run("export", "x")).toBe("ran export x");
  });

  it("a dependency missing from node_modules/: names it and says to run npm ci, no stack trace", () => {
    const { dir, run } = layout(false);
    writeFileSync(join(dir, "dist/cli/run.js"), 'import "fastify";\n');
    const r = run();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^envelope: Cannot find package 'fastify' imported from .* — run `npm ci`\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("an error inside the CLI itself is not mistaken for a missing install", () => {
    const { dir, run } = layout(false);
    writeFileSync(join(dir, "dist/cli/run.js"), 'import "./missing.js";\n');
    expect(run().stderr).not.toContain("npm ci");
  });
});
