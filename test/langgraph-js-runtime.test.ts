// The langgraph-js target's runtime choice (issue 40): envelope-runtime-js vendored as a file:
// dependency by default, or with `--runtime index [--runtime-index URL]` pinned exactly from a
// registry with no vendored copy, its package-lock.json entry written offline from
// js/project-lock/envelope-runtime-js.json — whose integrity is that of `npm pack` of
// js/envelope-runtime as it is now (node js/project-lock/runtime-entry.mjs rewrites it).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeChoice } from "../src/cli/export-command.js";
import { exportDefinition } from "../src/export/export.js";
import type { FileSet } from "../src/export/file-set.js";
import type { RuntimeChoice } from "../src/export/target.js";
import { TARGETS } from "../src/targets/index.js";
import { ROOT } from "./helpers/cli.js";

const EXAMPLE = join(ROOT, "examples/support-tier.envelope.json");
const ENTRY = JSON.parse(readFileSync(join(ROOT, "js/project-lock/envelope-runtime-js.json"), "utf8")) as { name: string; version: string; filename: string; integrity: string };
const RUNTIME_PACKAGE = JSON.parse(readFileSync(join(ROOT, "js/envelope-runtime/package.json"), "utf8")) as { version: string; peerDependencies: Record<string, string> };

function exportWith(runtime?: RuntimeChoice): FileSet {
  const r = exportDefinition(readFileSync(EXAMPLE), TARGETS["langgraph-js"]!, { file: EXAMPLE, ...(runtime ? { runtime } : {}) });
  if (!r.ok || !r.files) throw new Error(`export failed: ${r.failure ?? JSON.stringify(r.diagnostics)}`);
  return r.files;
}

type Lock = { packages: Record<string, Record<string, unknown> & { dependencies?: Record<string, string> }> };

describe("langgraph-js: where envelope-runtime-js comes from", () => {
  it("js/project-lock/envelope-runtime-js.json is npm pack of js/envelope-runtime now", () => {
    const run = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: join(ROOT, "js/envelope-runtime"), encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const [packed] = JSON.parse(run.stdout) as Array<{ name: string; version: string; filename: string; integrity: string }>;
    const stale = "stale: run node js/project-lock/runtime-entry.mjs and commit it";
    expect({ name: ENTRY.name, version: ENTRY.version, filename: ENTRY.filename, integrity: ENTRY.integrity }, stale).toEqual({ name: packed!.name, version: packed!.version, filename: packed!.filename, integrity: packed!.integrity });
    expect(ENTRY.version).toBe(RUNTIME_PACKAGE.version);
  }, 60_000);

  it("vendored by default: a file: dependency, the copy under vendor/, no .npmrc", () => {
    const files = exportWith();
    expect(JSON.parse(files.text("package.json")!).dependencies["envelope-runtime-js"]).toBe("file:vendor/envelope-runtime-js");
    expect(files.paths().some((p) => p.startsWith("vendor/envelope-runtime-js/dist/"))).toBe(true);
    expect(files.get(".npmrc")).toBeUndefined();
    const lock = JSON.parse(files.text("package-lock.json")!) as Lock;
    expect(lock.packages["node_modules/envelope-runtime-js"]).toEqual({ resolved: "vendor/envelope-runtime-js", link: true });
  });

  it.each([
    ["npm's default registry", { mode: "index" } as RuntimeChoice, "https://registry.npmjs.org/"],
    ["an organisation's registry", { mode: "index", indexUrl: "https://npm.example.com/api/npm/" } as RuntimeChoice, "https://npm.example.com/api/npm/"],
    ["a registry URL without its final slash", { mode: "index", indexUrl: "https://npm.example.com/npm" } as RuntimeChoice, "https://npm.example.com/npm/"],
  ])("--runtime index from %s: the exact pin, a registry lock entry, no vendored copy", (_what, runtime, registry) => {
    const files = exportWith(runtime);
    expect(files.paths().filter((p) => p.startsWith("vendor/"))).toEqual([]);
    const pkg = JSON.parse(files.text("package.json")!) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["envelope-runtime-js"]).toBe(ENTRY.version);
    const lock = JSON.parse(files.text("package-lock.json")!) as Lock;
    expect(lock.packages[""]!.dependencies!["envelope-runtime-js"]).toBe(ENTRY.version);
    expect(lock.packages["vendor/envelope-runtime-js"]).toBeUndefined();
    expect(lock.packages["node_modules/envelope-runtime-js"]).toEqual({
      version: ENTRY.version,
      resolved: `${registry}envelope-runtime-js/-/${ENTRY.filename}`,
      integrity: ENTRY.integrity,
      license: "MIT",
      engines: { node: ">=20.12" },
      peerDependencies: RUNTIME_PACKAGE.peerDependencies,
    });
    // Every other entry as npm wrote it: nothing in the lock is a link or a file: any more.
    expect(Object.values(lock.packages).filter((e) => e.link || String(e.resolved ?? "").startsWith("vendor/"))).toEqual([]);
    expect(files.get(".npmrc") ? files.text(".npmrc") : undefined).toBe(runtime.indexUrl ? `registry=${runtime.indexUrl}\n` : undefined);
    // Offline and deterministic: the same bytes twice.
    const again = exportWith(runtime);
    for (const p of ["package.json", "package-lock.json", "README.md"]) expect(again.text(p), p).toBe(files.text(p));
  });

  it("--runtime-index with credentials is refused, saying where this target writes the URL and where npm reads a token", () => {
    const refusal = (target: string) => {
      try {
        runtimeChoice("index", "https://me:secret@npm.example.com/api/npm", target);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("accepted a URL with credentials");
    };
    const js = refusal("langgraph-js");
    expect(js).toBe("--runtime-index must not carry credentials: the URL is written into .npmrc and package-lock.json (npm reads a registry's token from your own ~/.npmrc: //npm.example.com/api/npm/:_authToken=…)");
    expect(js).not.toContain("secret");
    expect(refusal("langgraph")).toContain("pyproject.toml");
  });
});
