// What `npm run build` generates besides tsc's output (scripts/build-artifacts.mjs,
// scripts/bundle-cli.mjs): the precompiled templates, the standalone schema validator and the
// CLI bundle with its code cache in dist/. The other suites run
// from src/, where neither exists and both are compiled at run time; here the built code,
// as the CLI and the server run it, must export the same bytes and report the same problems.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { exportFile, validDefinitions } from "./helpers/export.js";
import { validate } from "../src/validate/validate.js";
import { schemaText } from "../src/validate/compile-schema.js";
import { teamSchema } from "../src/schema/compose-schema.js";
import { targetNames } from "../src/targets/index.js";
import { HELPERS, VALUE_HELPERS } from "../src/export/render/helpers.js";

const dist = (path: string) => import(/* @vite-ignore */ join(ROOT, "dist", path));
const bytesOf = (files: { entries(): Array<[string, { bytes: Uint8Array; mode: number }]> }) =>
  files.entries().map(([p, f]) => [p, Buffer.from(f.bytes).toString("base64"), f.mode]);

/** ts-morph and the packages it requires: the langgraph-js target loads them from node_modules. */
const TS_MORPH_CLOSURE = ["ts-morph", "@ts-morph/common", "code-block-writer", "minimatch", "brace-expansion", "balanced-match", "@isaacs/nonrecursive-glob-match", "path-browserify", "tinyglobby", "fdir", "picomatch"];

describe("build artifacts in dist/", () => {
  it("the standalone validator was built from today's schema", async () => {
    const { createRequire } = await import("node:module");
    const standalone = createRequire(import.meta.url)(join(ROOT, "dist/validate/team-validator.cjs")) as { schemaText: string };
    expect(standalone.schemaText).toBe(schemaText(teamSchema()));
  });

  it.each(targetNames())("%s templates load precompiled", async (target) => {
    const { loadTemplateDir } = await dist("export/render/template-dir.js");
    const { TEMPLATE_FOLDERS } = await dist(`targets/${target}/index.js`);
    const helpers = await dist("export/render/helpers.js");
    expect(loadTemplateDir(TEMPLATE_FOLDERS, helpers.HELPERS, helpers.VALUE_HELPERS).precompiled).toBe(true);
    // The same templates from src/ (no compiled/ beside it) compile at run time.
    const { loadTemplateDir: fromSrc } = await import("../src/export/render/template-dir.js");
    expect(fromSrc(TEMPLATE_FOLDERS, HELPERS, VALUE_HELPERS).precompiled).toBe(false);
  });

  it.each(targetNames())("%s: the built export is byte-identical to the snapshot-checked one", async (target) => {
    const { exportDefinition } = await dist("export/export.js");
    const { TARGETS } = await dist("targets/index.js");
    for (const { path } of validDefinitions()) {
      const built = exportDefinition(readFileSync(path), TARGETS[target], { file: path });
      expect(built.ok, path).toBe(true);
      expect(bytesOf(built.files), path).toEqual(bytesOf(exportFile(path, target)));
    }
  });

  it("the standalone validator reports what the run-time compiled one does", async () => {
    const built = (await dist("validate/validate.js")).validate as typeof validate;
    const dirs = ["test/fixtures/invalid", "test/fixtures/valid", "examples"].map((d) => join(ROOT, d));
    for (const dir of dirs) {
      for (const name of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
        const bytes = readFileSync(join(dir, name));
        expect(built(bytes, { file: name }).diagnostics, name).toEqual(validate(bytes, { file: name }).diagnostics);
      }
    }
  });

  // Without an accepted cache the bundle still works, only slower: this keeps the speed-up from
  // rotting silently (a flag set before the cache is made, another Node writing dist/).
  it("the CLI bundle's code cache is accepted under the flags an export runs with", () => {
    const probe = `import(${JSON.stringify(join(ROOT, "dist/cli/bundle.js"))}).then((m) => process.stdout.write(m.loadBundle().cache))`;
    const r = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("accepted");
  });

  // ts-morph's three big files (the TypeScript compiler among them) and prettier's standalone
  // build and plugins (in the formatter's worker) compile from the code caches the build recorded
  // (src/targets/langgraph-js/load-ts-morph.ts and format.ts, scripts/ts-morph-cache.mjs).
  it("langgraph-js: ts-morph's and prettier's code caches are accepted under the flags an export runs with", () => {
    const probe = [
      `import(${JSON.stringify(join(ROOT, "dist/cli/bundle.js"))}).then(async (b) => {`,
      "  b.loadBundle();",
      `  const m = await import(${JSON.stringify(join(ROOT, "dist/targets/langgraph-js/load-ts-morph.js"))});`,
      `  m.loadTsMorph(${JSON.stringify(pathToFileURL(join(ROOT, "dist/index.js")).href)});`,
      `  const f = await import(${JSON.stringify(join(ROOT, "dist/targets/langgraph-js/format.js"))});`,
      '  f.formatAll([{ path: "a.ts", text: "const a=1", parser: "typescript" }]);',
      "  process.stdout.write(JSON.stringify({ ...m.tsMorphCacheStates(), ...f.prettierCacheStates() }));",
      "});",
    ].join("\n");
    const r = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      typescript: "accepted",
      "ts-morph-common": "accepted",
      "ts-morph": "accepted",
      standalone: "accepted",
      "plugins-estree": "accepted",
      "plugins-typescript": "accepted",
      "plugins-babel": "accepted",
    });
  });

  // The compiled templates, the validator and Handlebars' runtime are inlined into the bundle
  // (scripts/bundle-cli.mjs) to share its code cache; loaded from disk they still work, slower.
  it.each(targetNames())("%s: an export through the bundle loads no CommonJS file from disk", (target) => {
    const scratch = mkdtempSync(join(tmpdir(), "envelope-bundle-"));
    try {
      const argv = ["export", join(ROOT, "examples/support-tier.envelope.json"), "--target", target, "--out", join(scratch, "out")];
      const probe = [
        `process.argv = [process.argv[0], "envelope", ...${JSON.stringify(argv)}];`,
        `process.on("exit", () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));`,
        `import(${JSON.stringify(join(ROOT, "dist/cli/bundle.js"))}).then((m) => m.loadBundle().run());`,
      ].join("\n");
      const r = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const loaded = JSON.parse(r.stderr) as string[];
      // langgraph-js loads ts-morph and its dependencies from node_modules (its three big files
      // with their own code cache, next test), nothing else.
      const allowed = target === "langgraph-js" ? TS_MORPH_CLOSURE.map((p) => join(ROOT, "node_modules", p) + "/") : [];
      expect(loaded.filter((file) => file !== join(ROOT, "dist/envelope.cjs") && !allowed.some((a) => file.startsWith(a)))).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it.each(targetNames())("%s: an export through the bundle writes what the modules write", (target) => {
    const scratch = mkdtempSync(join(tmpdir(), "envelope-bundle-"));
    try {
      const example = join(ROOT, "examples/support-tier.envelope.json");
      const tree = (dir: string) => (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile(): boolean }>)
        .filter((e) => e.isFile())
        .map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name)).toString("base64")])
        .sort();
      const out = (name: string, entry: string) => {
        const r = spawnSync(process.execPath, [join(ROOT, entry), "export", example, "--target", target, "--out", join(scratch, name)], { encoding: "utf8" });
        expect(r.status, r.stderr).toBe(0);
        return tree(join(scratch, name));
      };
      expect(out("bundled", "bin/envelope.js")).toEqual(out("modules", "dist/cli/run.js"));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
