// Issue 36: an export depends on envelope-runtime instead of carrying copies of it. For every
// fixture, both Python targets and both runtime modes: the team's package holds only what is
// rendered from its definition (no file byte-identical across two fixtures), pyproject.toml
// pins the library exactly, the vendored copy is the library as it is in this repository (the
// same bytes in every export), and generated code imports only the library's public API.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../src/export/export.js";
import type { FileSet } from "../src/export/file-set.js";
import type { RuntimeChoice } from "../src/export/target.js";
import { TARGETS } from "../src/targets/index.js";
import { runtimeVersion } from "../src/targets/python-common/runtime-library.js";
import { ROOT } from "./helpers/cli.js";
import { validDefinitions } from "./helpers/export.js";

const LIBRARY = join(ROOT, "python", "envelope-runtime");
const PYTHON_TARGETS = ["crewai", "langgraph"] as const;
const MODES: Record<string, RuntimeChoice> = {
  vendored: { mode: "vendored" },
  index: { mode: "index", indexUrl: "https://packages.example.com/simple/" },
};

function exportWith(path: string, target: string, runtime: RuntimeChoice): FileSet {
  const r = exportDefinition(readFileSync(path), TARGETS[target]!, { file: path, runtime });
  if (!r.ok || !r.files) throw new Error(`export of ${path} failed: ${r.failure ?? JSON.stringify(r.diagnostics)}`);
  return r.files;
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The library's files an export vendors (what its sdist holds), by path. */
function libraryFiles(): Map<string, string> {
  const skip = new Set(["__pycache__", ".ruff_cache", ".pytest_cache", ".mypy_cache"]);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => !(e.isDirectory() && skip.has(e.name)) && !e.name.endsWith(".pyc"))
      .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const files = [...["CHANGELOG.md", "LICENSE", "README.md", "pyproject.toml"].map((f) => join(LIBRARY, f)), ...walk(join(LIBRARY, "src"))];
  return new Map(files.filter((f) => statSync(f).isFile()).map((f) => [relative(LIBRARY, f).split(sep).join("/"), sha(readFileSync(f))]));
}

/**
 * The public API: `__all__` of the three public packages (the names of their `_EXPORTS` maps),
 * and of the two public modules a team's own tests use whole (its packs, its webhook).
 */
const PUBLIC_MODULES = ["connections", "schedules"];
function publicApi(): Map<string, Set<string>> {
  const api = new Map<string, Set<string>>();
  for (const [module, file] of [
    ["envelope_runtime", "__init__.py"],
    ["envelope_runtime.crewai", "crewai/__init__.py"],
    ["envelope_runtime.langgraph", "langgraph/__init__.py"],
  ] as const) {
    const source = readFileSync(join(LIBRARY, "src", "envelope_runtime", file), "utf8");
    // module -> its public names: the names are the strings in the tuples, not the keys
    const block = /_EXPORTS: dict\[str, tuple\[str, \.\.\.\]\] = \{(.*?)\n\}/s.exec(source)?.[1] ?? "";
    const names = [...block.replace(/#.*$/gm, "").matchAll(/"(\w+)"(?!:)/g)].map((m) => m[1]!);
    expect(names.length, `${file}: _EXPORTS`).toBeGreaterThan(0);
    api.set(module, new Set(names));
  }
  for (const name of PUBLIC_MODULES) {
    api.get("envelope_runtime")!.add(name);
    const source = readFileSync(join(LIBRARY, "src", "envelope_runtime", `${name}.py`), "utf8");
    const all = /^__all__ = \[([^\]]*)\]/m.exec(source)?.[1] ?? "";
    api.set(`envelope_runtime.${name}`, new Set([...all.matchAll(/"(\w+)"/g)].map((m) => m[1]!)));
  }
  return api;
}

describe.each(PYTHON_TARGETS)("%s exports depend on envelope-runtime", (target) => {
  describe.each(Object.keys(MODES))("--runtime %s", (mode) => {
    const exports = new Map<string, { pkg: string; files: FileSet }>();
    beforeAll(() => {
      for (const d of validDefinitions()) {
        const files = exportWith(d.path, target, MODES[mode]!);
        const pkg = /^src\/([^/]+)\/team\.py$/.exec(files.paths().find((p) => /^src\/[^/]+\/team\.py$/.test(p)) ?? "")?.[1];
        if (!pkg) throw new Error(`${d.name}: no src/<package>/team.py`);
        exports.set(d.name, { pkg, files });
      }
    });

    it("the team's package holds no file that is the same bytes in two fixtures' exports", () => {
      const seen = new Map<string, Array<{ fixture: string; path: string }>>();
      for (const [fixture, { pkg, files }] of exports) {
        for (const [path, entry] of files.entries()) {
          if (!path.startsWith(`src/${pkg}/`)) continue;
          const rel = path.slice(`src/${pkg}/`.length);
          if (rel.endsWith("__init__.py") && new TextDecoder().decode(entry.bytes).trim() === "") continue;
          const key = sha(entry.bytes);
          seen.set(key, [...(seen.get(key) ?? []), { fixture, path: rel }]);
        }
      }
      const shared = [...seen.values()].filter((where) => new Set(where.map((w) => w.fixture)).size > 1);
      expect(shared.map((where) => where.map((w) => `${w.fixture}:${w.path}`).join(" = "))).toEqual([]);
    });

    it("pyproject.toml pins the library exactly, with the target's extra", () => {
      const pin = `"envelope-runtime[${target}]==${runtimeVersion()}",`;
      for (const [fixture, { files }] of exports) {
        const pyproject = files.text("pyproject.toml") ?? "";
        expect(pyproject.split("\n").filter((l) => l.trim() === pin), fixture).toHaveLength(1);
        expect(pyproject.match(/envelope-runtime\[/g), fixture).toHaveLength(1);
        if (mode === "vendored") {
          expect(pyproject, fixture).toContain('envelope-runtime = { path = "vendor/envelope-runtime" }');
          expect(pyproject, fixture).not.toContain("[[tool.uv.index]]");
        } else {
          expect(pyproject, fixture).toContain('url = "https://packages.example.com/simple/"');
          expect(pyproject, fixture).toContain('envelope-runtime = { index = "envelope-runtime" }');
        }
        if (target === "langgraph") {
          const deps = (JSON.parse(files.text("langgraph.json") ?? "{}") as { dependencies: string[] }).dependencies;
          expect(deps, fixture).toEqual(mode === "vendored" ? ["./vendor/envelope-runtime", "."] : ["."]);
        }
      }
    });

    it(mode === "vendored" ? "the vendored copy is the library, the same bytes in every export" : "no library code is vendored", () => {
      const library = libraryFiles();
      for (const [fixture, { files }] of exports) {
        const vendored = new Map(
          files
            .entries()
            .filter(([p]) => p.startsWith("vendor/"))
            .map(([p, e]) => [p.slice("vendor/envelope-runtime/".length), sha(e.bytes)]),
        );
        if (mode === "vendored") expect(vendored, fixture).toEqual(library);
        else expect(vendored.size, fixture).toBe(0);
      }
    });

    it("generated code imports only the library's public API", () => {
      const api = publicApi();
      const problems: string[] = [];
      for (const [fixture, { files }] of exports) {
        for (const path of files.paths()) {
          if (!path.endsWith(".py") || path.startsWith("vendor/")) continue;
          const source = files.text(path) ?? "";
          // `from envelope_runtime[.x] import (a, b)` over one or more lines
          for (const m of source.matchAll(/^\s*from (envelope_runtime[\w.]*) import (\([^)]*\)|[^\n]+)/gm)) {
            const names = m[2]!.replace(/[()]/g, "").split(",").map((n) => n.trim().split(/\s+as\s+/)[0]!).filter(Boolean);
            const allowed = api.get(m[1]!);
            if (!allowed) problems.push(`${fixture}:${path}: from ${m[1]} (not a public package)`);
            else for (const n of names) if (!allowed.has(n)) problems.push(`${fixture}:${path}: ${m[1]}.${n} (not in its __all__)`);
            // a public module imported whole: each name used from it is in its __all__
            for (const n of m[1] === "envelope_runtime" ? names.filter((n) => PUBLIC_MODULES.includes(n)) : []) {
              const own = api.get(`envelope_runtime.${n}`)!;
              for (const use of source.matchAll(new RegExp(`(?<![\\w.])${n}\\.(\\w+)`, "g"))) if (!own.has(use[1]!)) problems.push(`${fixture}:${path}: ${n}.${use[1]} (not in envelope_runtime.${n}.__all__)`);
            }
          }
          for (const m of source.matchAll(/^\s*import (envelope_runtime[\w.]*)/gm)) problems.push(`${fixture}:${path}: import ${m[1]}`);
          if (/envelope_support/.test(source)) problems.push(`${fixture}:${path}: names envelope_support`);
        }
      }
      expect(problems).toEqual([]);
    });
  });
});
