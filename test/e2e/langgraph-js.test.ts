// End to end, langgraph-js: every fixture exported, then in the project exactly as written
// `tsc --noEmit` (its own tsconfig.json), `prettier --check` and its own vitest suite, which
// runs the whole team offline through every gate with fake chat models. One node_modules per
// lock hash (js/project-lock/package-lock.json with the vendored runtime) is installed with
// `npm ci` once into ~/.cache/envelope-export/ (ENVELOPE_CACHE_DIR) and linked into each
// project: every export ships the same lock, so they all resolve the same packages.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionDefinitions, exportFile, validDefinitions } from "../helpers/export.js";
import { sharedModules, writeExport as write } from "./langgraph-js-env.js";

const cases = [
  ...validDefinitions().map((d) => ({ ...d, packs: undefined as string[] | undefined })),
  ...connectionDefinitions().map((d) => ({ ...d, name: `connections-${d.name}` })),
];

describe("langgraph-js exports: npm ci, tsc --noEmit, prettier --check, their own tests", () => {
  let modules = "";
  const work = mkdtempSync(join(tmpdir(), "envelope-lgjs-e2e-"));
  beforeAll(() => {
    modules = sharedModules();
  }, 900_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each(cases)("$name", ({ name, path, packs }) => {
    const dir = join(work, name);
    write(dir, exportFile(path, "langgraph-js", packs));
    // The project's lock is the one the shared install ran: same packages, same versions.
    const rooted = (file: string) => {
      const lock = JSON.parse(readFileSync(file, "utf8")) as { name: string; version: string; packages: Record<string, { name?: string; version?: string }> };
      lock.name = lock.version = lock.packages[""]!.name = lock.packages[""]!.version = "";
      return lock;
    };
    expect(rooted(join(dir, "package-lock.json"))).toEqual(rooted(join(dirname(modules), "package-lock.json")));
    expect(readFileSync(join(dir, "vendor/envelope-runtime-js/dist/index.js"))).toEqual(readFileSync(join(dirname(modules), "vendor/envelope-runtime-js/dist/index.js")));
    symlinkSync(modules, join(dir, "node_modules"), "dir");
    const bin = (tool: string) => join(dir, "node_modules/.bin", tool);
    for (const [tool, args] of [
      ["tsc", ["--noEmit", "-p", "tsconfig.json"]],
      ["prettier", ["--check", "."]],
      ["vitest", ["run"]],
    ] as const) {
      const run = spawnSync(bin(tool), [...args], { cwd: dir, encoding: "utf8", timeout: 300_000, env: { ...process.env, CI: "true", NO_COLOR: "1" } });
      expect(run.status, `${name}: ${tool} ${args.join(" ")}\n${run.stdout}\n${run.stderr}`).toBe(0);
    }
  }, 600_000);
});
