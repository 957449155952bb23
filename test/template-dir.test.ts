// The template loader: folders a target draws on, one owner per file, no tool caches shipped.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELPERS } from "../src/export/render/helpers.js";
import { loadTemplateDir, TEMPLATES_ROOT } from "../src/export/render/template-dir.js";
import { MAX_REVIEW_ROUNDS } from "../src/targets/python-common/team-view.js";

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

describe("the shipped Python templates", () => {
  // pyComment bounds a comment at 86 columns, which keeps `<indent># ` + comment within the
  // 100 columns ruff checks only while the indent is at most 12 spaces (partials count
  // the indent they are called at).
  it("print py_comment only as a whole `# …` line indented at most 12 spaces", () => {
    const root = TEMPLATES_ROOT;
    const files = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".py.hbs") || /(^|\/)_[^/]+\.hbs$/.test(f))
      .map((f) => ({ path: f, text: readFileSync(join(root, f), "utf8") }));
    const callIndent = new Map<string, number>();
    for (const { text } of files) {
      for (const m of text.matchAll(/^( *)\{\{> ([\w-]+)\}\}$/gm)) callIndent.set(m[2]!, Math.max(callIndent.get(m[2]!) ?? 0, m[1]!.length));
    }
    const lines: string[] = [];
    for (const { path, text } of files) {
      const partial = /(^|\/)_([^/]+)\.hbs$/.exec(path)?.[2];
      const extra = partial === undefined ? 0 : (callIndent.get(partial) ?? 0);
      for (const line of text.split("\n").filter((l) => l.includes("{{py_comment"))) {
        const m = /^( *)# \{\{py_comment [^}]*\}\}$/.exec(line);
        expect(m, `${path}: ${line}`).not.toBeNull();
        expect(m![1]!.length + extra, `${path}: ${line}`).toBeLessThanOrEqual(12);
        lines.push(line);
      }
    }
    expect(lines.length).toBeGreaterThan(20);
  });

  it("the README's round limit is gates.py's MAX_ROUNDS", () => {
    const gates = readFileSync(join(TEMPLATES_ROOT, "../python/envelope-runtime/src/envelope_runtime/gates.py"), "utf8");
    expect(Number(/^MAX_ROUNDS = (\d+)$/m.exec(gates)?.[1])).toBe(MAX_REVIEW_ROUNDS);
  });
});
