// One problem found in a definition. Every reader, rule and target reports through this
// shape so the CLI, the HTTP API and the tests see the same codes, pointers and positions.
export type Severity = "error" | "warning";

export interface Diagnostic {
  /** Stable code, `E_…` for errors and `W_…` for warnings. Never renamed once released. */
  code: string;
  severity: Severity;
  /** RFC 6901 JSON pointer into the definition ("" is the root). */
  pointer: string;
  /** 1-based line and column in the source file (0 when the file could not be located). */
  line: number;
  column: number;
  message: string;
  hint?: string;
  /** The file the diagnostic belongs to, when known. */
  file?: string;
}

export function isError(d: Diagnostic): boolean {
  return d.severity === "error";
}

/** Orders diagnostics by position, then code, so output is stable and reads top to bottom. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.line - b.line ||
      a.column - b.column ||
      a.pointer.localeCompare(b.pointer) ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
}

/** `--strict`: every warning becomes an error with the same code and place. */
export function promoteWarnings(list: Diagnostic[]): Diagnostic[] {
  return list.map((d) => (d.severity === "warning" ? { ...d, severity: "error" } : d));
}
