// Registry-only fields (what Envelope's registry lists and no runtime reads: visibility,
// pricing, tags…) never block a definition: a problem in one is reported as a warning
// (W_REGISTRY_FIELD, naming the schema code it would have been) so exports still run;
// `--strict` turns it back into an error like every other warning.
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";

/** Team-level registry fields; the loss report's TEAM_REGISTRY_RULES lists the same ones. */
export const REGISTRY_FIELDS: ReadonlySet<string> = new Set([
  "visibility",
  "category",
  "tags",
  "icon",
  "pricing",
  "forkable",
  "forkedFrom",
  "changelog",
  "metadata",
]);

export function isRegistryPointer(pointer: string): boolean {
  const m = /^\/([^/]+)(?:\/|$)/.exec(pointer);
  if (m && REGISTRY_FIELDS.has(m[1]!)) return true;
  return /^\/agents\/\d+\/metadata(?:\/|$)/.test(pointer);
}

/** The schema error `d` about a registry field, as a warning that keeps its place and words. */
export function registryWarning(d: Diagnostic): Diagnostic {
  const w = makeDiagnostic("W_REGISTRY_FIELD", d.pointer, d, `${d.message} (${d.code}; registry-only: no runtime reads it, the export goes on)`, {
    ...(d.hint !== undefined ? { hint: d.hint } : {}),
    ...(d.file !== undefined ? { file: d.file } : {}),
  });
  return w;
}
