// Issue 36: an export depends on envelope-runtime instead of carrying copies of it. For every
// fixture, both Python targets and both runtime modes: the team's package holds only what is
// rendered from its definition (no file byte-identical across two fixtures), pyproject.toml
// pins the library exactly, the vendored copy is the library as it is in this repository (the
// same bytes in every export), and generated code imports only the library's public API: the
// names its README lists, each from the module that defines it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** Top-level names a Python module defines: functions, classes and assigned names (not imports). */
function definedNames(source: string): Set<string> {
  const names = new Set([...source.matchAll(/^(?:async\s+def|def|class)\s+(\w+)/gm)].map((m) => m[1]!));
  // `NAME = ...`, `NAME: T = ...`, `A, B = ...`
  for (const m of source.matchAll(/^(\w+(?:\s*,\s*\w+)*)\s*(?::[^=\n]*)?=(?!=)/gm)) for (const n of m[1]!.split(",")) names.add(n.trim());
  return names;
}

const moduleSource = (module: string) => readFileSync(join(LIBRARY, "src", `${module.replaceAll(".", "/")}.py`), "utf8");

/**
 * The public API: the table of the library's README ("Public API"), each public module with
 * its public names; a module listed whole (a team's tests use `connections` and `schedules`
 * as modules) has the names of its `__all__`.
 */
function publicApi(): Map<string, Set<string>> {
  const readme = readFileSync(join(LIBRARY, "README.md"), "utf8");
  const section = /^## Public API\n(.*?)(?=^## )/ms.exec(readme)?.[1] ?? "";
  const api = new Map<string, Set<string>>();
  for (const [, module, cell] of section.matchAll(/^\| `(envelope_runtime[\w.]*)` \| ([^|]*) \|/gm)) {
    const names = cell!.includes("`__all__`")
      ? [.../^__all__ = \[([^\]]*)\]/m.exec(moduleSource(module!))?.[1]?.matchAll(/"(\w+)"/g) ?? []].map((m) => m[1]!)
      : [...cell!.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    expect(api.has(module!), `${module} listed twice`).toBe(false);
    expect(names.length, `${module}: its names`).toBeGreaterThan(0);
    api.set(module!, new Set(names));
  }
  return api;
}

describe("the library's public API (its README's list)", () => {
  it("lists modules of the library, each name defined at the top level of its module", () => {
    const api = publicApi();
    expect(api.size).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const [module, names] of api) {
      if (!existsSync(join(LIBRARY, "src", `${module.replaceAll(".", "/")}.py`))) {
        problems.push(`${module}: no such module`);
        continue;
      }
      const defined = definedNames(moduleSource(module));
      for (const n of names) if (!defined.has(n)) problems.push(`${module}.${n}: not defined there`);
    }
    expect(problems).toEqual([]);
  });

  it("the packages export nothing: their __init__.py import no module (a team loads only what it uses)", () => {
    for (const pkg of ["envelope_runtime", "envelope_runtime.crewai", "envelope_runtime.langgraph"]) {
      const source = moduleSource(`${pkg}.__init__`);
      expect(source.match(/^\s*(?:import|from)\s+\S+/gm) ?? [], pkg).toEqual([]);
    }
  });
});

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
            const names = m[2]!.replace(/#.*$/gm, "").replace(/[()]/g, "").split(",").map((n) => n.trim().split(/\s+as\s+/)[0]!).filter(Boolean);
            for (const n of names) {
              const whole = api.get(`${m[1]}.${n}`);
              if (whole) {
                // a public module imported whole: each name used from it is one of its public names
                for (const use of source.matchAll(new RegExp(`(?<![\\w.])${n}\\.(\\w+)`, "g"))) if (!whole.has(use[1]!)) problems.push(`${fixture}:${path}: ${n}.${use[1]} (not public in ${m[1]}.${n})`);
              } else if (!api.get(m[1]!)?.has(n)) problems.push(`${fixture}:${path}: from ${m[1]} import ${n} (not in the library's Public API)`);
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
