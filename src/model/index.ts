// normalize(): bytes → validated → TeamModel. The library's main entry besides validate().
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceDocument } from "../read/source.js";
import { validate, type ValidateOptions } from "../validate/validate.js";
import type { EnvelopeDefinition } from "./definition.js";
import { buildTeamModel } from "./normalize.js";
import type { TeamModel } from "./types.js";
import { wellFormedDeep } from "./well-formed.js";

export interface NormalizeResult {
  /** Present only when the definition is valid. */
  model?: TeamModel;
  valid: boolean;
  diagnostics: Diagnostic[];
}

export function normalize(input: Uint8Array | string, options: ValidateOptions = {}): NormalizeResult {
  // The model is what exports build from: registry-only errors are warnings here unless asked otherwise.
  const result = validate(input, { forExport: true, ...options });
  if (!result.valid || !result.document) return { valid: false, diagnostics: result.diagnostics };
  return { valid: true, diagnostics: result.diagnostics, model: modelFromDocument(result.document) };
}

/**
 * The model of a document that passed validation. `reservedMembers`: the export target's
 * (ExportTarget.reservedMembers); without it, names keep only Python's own rules.
 */
export function modelFromDocument(doc: SourceDocument, reservedMembers?: ReadonlySet<string>): TeamModel {
  // A copy in plain objects (never the parser's null-prototype ones), with lone surrogates
  // as U+FFFD: every string of the model is Unicode text (see well-formed.ts).
  const def = wellFormedDeep(doc.parsed.value) as EnvelopeDefinition;
  return buildTeamModel(def, reservedMembers);
}
