// Golden snapshots of whole exported projects (snapshots/<target>/<definition>/). A change
// to generated code shows up here as a diff to review; UPDATE_SNAPSHOTS=1 rewrites them.
// Files copied verbatim from templates/<target>/static/ are the same in every project and
// reviewed there: a snapshot lists them with their SHA-256 in STATIC_FILES.txt instead. So is a
// Python export's uv.lock: blocks of python/<target>.uv-lock.json (reviewed there, and by
// test/uv-lock.test.ts), a megabyte per export that would bury every other diff.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { connectionDefinitions, exportFile, validDefinitions } from "./helpers/export.js";
import { targetNames } from "../src/targets/index.js";
import { parsePristine, PRISTINE_PATH, sha256 } from "../src/export/ledger.js";

const UPDATE = process.env.UPDATE_SNAPSHOTS === "1";
const STATIC_MANIFEST = "STATIC_FILES.txt";

function listTree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [relative(dir, join(d, e.name)).split(sep).join("/")]));
  return walk(dir).sort();
}

describe.each(targetNames())("snapshots of %s exports", (target) => {
  // Exports with connection packs (--connections) are snapshotted as connections-<name>.
  const cases = [...validDefinitions().map((d) => ({ ...d, packs: undefined as string[] | undefined })), ...connectionDefinitions().map((d) => ({ ...d, name: `connections-${d.name}` }))];
  it.each(cases)("$name", ({ name, path, packs }) => {
    const files = exportFile(path, target, packs);
    const dir = join(ROOT, "snapshots", target, name);
    // The pristine copy is the project itself again (a lock file by its hash): checked to hold exactly the other files, not stored twice.
    const pristine = parsePristine(files.text(PRISTINE_PATH)!);
    const others = files.entries().filter(([p]) => p !== PRISTINE_PATH && p !== ".envelope/export.json");
    expect(pristine.entries().map(([p, f]) => [p, f.digest ?? Buffer.from(f.bytes).toString("base64"), f.mode])).toEqual(
      others.map(([p, f]) => [p, f.relock !== undefined ? sha256(f.bytes) : Buffer.from(f.bytes).toString("base64"), f.mode]),
    );
    const byHash = (p: string, verbatim: boolean | undefined) => verbatim === true || p === "uv.lock";
    const generated = files.entries().filter(([p, f]) => !byHash(p, f.verbatim) && p !== PRISTINE_PATH);
    const manifest = files
      .entries()
      .filter(([p, f]) => byHash(p, f.verbatim))
      .map(([p, f]) => `${createHash("sha256").update(f.bytes).digest("hex")}  ${p}\n`)
      .join("");
    if (UPDATE) {
      rmSync(dir, { recursive: true, force: true });
      for (const [p, f] of generated) {
        mkdirSync(dirname(join(dir, p)), { recursive: true });
        writeFileSync(join(dir, p), f.bytes);
      }
      writeFileSync(join(dir, STATIC_MANIFEST), manifest);
    }
    const expectedPaths = [...generated.map(([p]) => p), STATIC_MANIFEST].sort();
    expect(listTree(dir), `files of ${dir} (UPDATE_SNAPSHOTS=1 to accept a reviewed change)`).toEqual(expectedPaths);
    for (const [p, f] of generated) {
      expect(new TextDecoder().decode(f.bytes), `${target}/${name}/${p}`).toBe(readFileSync(join(dir, p), "utf8"));
    }
    expect(manifest, `${target}/${name}/${STATIC_MANIFEST}`).toBe(readFileSync(join(dir, STATIC_MANIFEST), "utf8"));
  });

  it("exporting twice is byte-identical", () => {
    for (const { path } of validDefinitions()) {
      const a = exportFile(path, target);
      const b = exportFile(path, target);
      expect(b.entries().map(([p, f]) => [p, Buffer.from(f.bytes).toString("base64"), f.mode])).toEqual(a.entries().map(([p, f]) => [p, Buffer.from(f.bytes).toString("base64"), f.mode]));
    }
  });
});
