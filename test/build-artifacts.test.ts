// What `npm run build` generates besides tsc's output (scripts/build-artifacts.mjs): the
// precompiled templates and the standalone schema validator in dist/. The other suites run
// from src/, where neither exists and both are compiled at run time; here the built code,
// as the CLI and the server run it, must export the same bytes and report the same problems.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
});
