import { CODES, type Code } from "./codes.js";
import type { Diagnostic } from "./diagnostic.js";

export function makeDiagnostic(
  code: Code,
  pointer: string,
  at: { line: number; column: number },
  message: string,
  extra: { hint?: string; file?: string } = {},
): Diagnostic {
  const d: Diagnostic = { code, severity: CODES[code], pointer, line: at.line, column: at.column, message };
  if (extra.hint !== undefined) d.hint = extra.hint;
  if (extra.file !== undefined) d.file = extra.file;
  return d;
}
