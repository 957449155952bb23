// The template loader: folders a target draws on, one owner per file, no tool caches shipped.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELPERS } from "../src/export/render/helpers.js";
import { loadTemplateDir } from "../src/export/render/template-dir.js";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "templates-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("loadTemplateDir", () => {
  it("merges a shared folder into a target's: templates from both, static files from both, sorted", () => {
    const root = tree({
      "common/shared.txt.hbs": "shared {{py_str name}}",
      "common/static/src/PKG/gates.py": "GATES = 1\n",
      "target/own.txt.hbs": "own {{py_str name}}",
      "target/static/src/PKG/agents.py": "AGENTS = 1\n",
      "target/static/run.sh": "#!/bin/sh\n",
    });
    const { env, statics } = loadTemplateDir(["common", "target"], HELPERS, {}, root);
    expect(env.render("shared.txt.hbs", { name: "a" })).toBe('shared "a"');
    expect(env.render("own.txt.hbs", { name: "b" })).toBe('own "b"');
    expect(statics.map((s) => [s.path, s.executable])).toEqual([
      ["run.sh", true],
      ["src/PKG/agents.py", false],
      ["src/PKG/gates.py", false],
    ]);
  });

  it("refuses a file that two folders both have: no silent override", () => {
    const statics = tree({ "a/static/x.py": "1\n", "b/static/x.py": "2\n" });
    expect(() => loadTemplateDir(["a", "b"], HELPERS, {}, statics)).toThrow(/templates\/a and templates\/b both have the static file x\.py/);
    const templates = tree({ "a/t.hbs": "x", "b/t.hbs": "y" });
    expect(() => loadTemplateDir(["a", "b"], HELPERS, {}, templates)).toThrow(/both have the template t\.hbs/);
  });

  it("never ships the caches a developer's local runs leave among static files", () => {
    const root = tree({
      "t/static/src/PKG/mod.py": "X = 1\n",
      "t/static/src/PKG/__pycache__/mod.cpython-312.pyc": "junk",
      "t/static/.ruff_cache/CACHEDIR.TAG": "junk",
      "t/static/tests/.pytest_cache/v/cache/nodeids": "junk",
      "t/static/.mypy_cache/x.json": "junk",
    });
    expect(loadTemplateDir("t", HELPERS, {}, root).statics.map((s) => s.path)).toEqual(["src/PKG/mod.py"]);
  });
});
