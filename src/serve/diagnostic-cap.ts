// Every HTTP answer lists a bounded number of diagnostics, so its size follows the request's
// and not what the rules can find in it (a 0.9 MB definition once produced 115,000 warnings,
// a 39 MB answer). Identical ones are already collapsed (collapseDiagnostics); this keeps the
// first ones, errors before warnings, within a count and a byte budget, and says how many
// were left out. `errors` and `warnings` count them all, listed or not.
import { isError, type Diagnostic } from "../diagnostics/diagnostic.js";

export const MAX_DIAGNOSTICS = 200;
/** Bytes of diagnostics an answer may carry beyond the size of the request itself. */
export const DIAGNOSTIC_BYTES = 64 * 1024;

export interface ReportedDiagnostics {
  errors: number;
  warnings: number;
  diagnostics: Diagnostic[];
  /** How many diagnostics are not listed; absent when none is left out. */
  diagnosticsOmitted?: number;
}

export function capDiagnostics(list: Diagnostic[], requestBytes: number): ReportedDiagnostics {
  const errors = list.filter(isError);
  const counts = { errors: errors.length, warnings: list.length - errors.length };
  if (list.length === 0) return { ...counts, diagnostics: [] };
  const budget = DIAGNOSTIC_BYTES + requestBytes;
  const kept = new Set<Diagnostic>();
  let bytes = 0;
  for (const d of [...errors, ...list.filter((x) => !isError(x))]) {
    const size = Buffer.byteLength(JSON.stringify(d)) + 1;
    // The first is always listed: it is what the answer is about (and it derives from the request).
    if (kept.size > 0 && (kept.size >= MAX_DIAGNOSTICS || bytes + size > budget)) break;
    kept.add(d);
    bytes += size;
  }
  const diagnostics = list.filter((d) => kept.has(d));
  const omitted = list.length - diagnostics.length;
  return omitted > 0 ? { ...counts, diagnostics, diagnosticsOmitted: omitted } : { ...counts, diagnostics };
}
