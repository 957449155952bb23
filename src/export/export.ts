// Export = validate → normalize → loss report → target → file set. No I/O here: sinks and
// the CLI decide where the file set goes.
import type { ExplicitConnection } from "../connections/assign.js";
import { connectTeam, type ReadConnections, type TeamConnections } from "../connections/connections.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { modelFromDocument } from "../model/index.js";
import type { TeamModel } from "../model/types.js";
import { validate } from "../validate/validate.js";
import type { FileSet } from "./file-set.js";
import { withRecord } from "./ledger.js";
import { buildLossReport, strictLoss, type LossEntry } from "./loss-report.js";
import type { ExportTarget, RuntimeChoice } from "./target.js";

export interface ExportOptions {
  /** Warnings fail validation, and any approximated or dropped field fails the export. */
  strict?: boolean;
  file?: string;
  /** Connection packs already read (connections.ts readConnections), and `--connection AGENT=PROVIDER`s. */
  connections?: { read: ReadConnections; explicit: readonly ExplicitConnection[] };
  /** Where the export's runtime library comes from (none: vendored into the project). */
  runtime?: RuntimeChoice;
}

export interface ExportResult {
  ok: boolean;
  /** The input was read as a JSON object (false: not UTF-8, not JSON, empty, not an object). */
  readable: boolean;
  diagnostics: Diagnostic[];
  model?: TeamModel;
  loss?: LossEntry[];
  files?: FileSet;
  /** Why a valid definition was not exported (strict loss), without naming a flag: each caller says how strict was asked for. */
  failure?: string;
}

export function exportDefinition(input: Uint8Array | string, target: ExportTarget, options: ExportOptions = {}): ExportResult {
  const result = validate(input, { strict: options.strict ?? false, file: options.file ?? "<input>", forExport: true });
  if (!result.valid || !result.document) return { ok: false, readable: result.document !== undefined, diagnostics: result.diagnostics };
  const model = modelFromDocument(result.document, target.reservedMembers);
  let connections: TeamConnections | undefined;
  if (options.connections) {
    const connected = connectTeam(model, options.connections.read, options.connections.explicit);
    // A pack given to no agent it can serve, or to an agent named wrongly: refused like an invalid definition.
    if (connected.diagnostics.length) return { ok: false, readable: true, diagnostics: [...result.diagnostics, ...connected.diagnostics], model };
    connections = connected.connections;
  }
  const loss = buildLossReport(result.document.parsed.value, target.fieldRules, model);
  if (options.strict) {
    const lossy = strictLoss(loss);
    if (lossy.length) {
      return {
        ok: false,
        readable: true,
        diagnostics: result.diagnostics,
        model,
        loss,
        failure: `${lossy.length} field${lossy.length === 1 ? " is" : "s are"} not fully carried to ${target.title}: ${lossy.map((e) => e.field).join(", ")}`,
      };
    }
  }
  // The ledger and pristine copy make a later export an update that keeps the developer's edits.
  const files = withRecord(target.generate({ model, definitionText: result.document.text, loss, ...(connections ? { connections } : {}), ...(options.runtime ? { runtime: options.runtime } : {}) }), target.name, typeof input === "string" ? new TextEncoder().encode(input) : input);
  return { ok: true, readable: true, diagnostics: result.diagnostics, model, loss, files };
}
