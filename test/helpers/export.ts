// Exporting test definitions in-process, for snapshot and end-to-end suites.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExplicitConnection } from "../../src/connections/assign.js";
import { readConnections } from "../../src/connections/connections.js";
import { exportDefinition } from "../../src/export/export.js";
import type { FileSet } from "../../src/export/file-set.js";
import { TARGETS } from "../../src/targets/index.js";
import { ROOT } from "./cli.js";

/** Every valid definition we ship: the bundled examples and the valid fixtures. */
export function validDefinitions(): Array<{ name: string; path: string }> {
  const dirs = [join(ROOT, "examples"), join(ROOT, "test/fixtures/valid")];
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".envelope.json"))
      .sort()
      .map((f) => ({ name: f.replace(/\.envelope\.json$/, ""), path: join(dir, f) })),
  );
}

/** Definitions exported with connection packs (test/fixtures/connections/): the packs beside them. */
export function connectionDefinitions(): Array<{ name: string; path: string; packs: string[] }> {
  const dir = join(ROOT, "test/fixtures/connections");
  return [{ name: "helpdesk-triage", path: join(dir, "helpdesk-triage.envelope.json"), packs: [dir] }];
}

export function exportFile(path: string, target: string, packs?: readonly string[], explicit: readonly ExplicitConnection[] = []): FileSet {
  const t = TARGETS[target];
  if (!t) throw new Error(`no target ${target}`);
  let connections;
  if (packs) {
    const read = readConnections(packs);
    if (read.diagnostics.length) throw new Error(`packs of ${path}: ${JSON.stringify(read.diagnostics)}`);
    connections = { read: read.read, explicit };
  }
  const result = exportDefinition(readFileSync(path), t, { file: path, ...(connections ? { connections } : {}) });
  if (!result.ok || !result.files) throw new Error(`export of ${path} failed: ${JSON.stringify(result.diagnostics.filter((d) => d.severity === "error"))}${result.failure ?? ""}`);
  return result.files;
}

/** A definition (a repository path or an object) exported for `target`, refused loudly. */
export function exportFor(source: string | object, target: string) {
  const text = typeof source === "string" ? readFileSync(ROOT + source, "utf8") : JSON.stringify(source, null, 2);
  const r = exportDefinition(text, TARGETS[target]!);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return { files: r.files!, loss: r.loss!, model: r.model!, text: (p: string) => r.files!.text(p) ?? "" };
}
