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
  /** How many identical diagnostics (code, place, message) this one stands for; absent when 1. */
  count?: number;
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

/**
 * One diagnostic per (code, pointer, position, message), counting the copies: a prompt that
 * repeats an unknown `{{NAME}}` 400 times is one warning "(×400)", not 400. Order is kept.
 */
export function collapseDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const byKey = new Map<string, Diagnostic>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    const key = JSON.stringify([d.code, d.severity, d.file ?? null, d.pointer, d.line, d.column, d.message, d.hint ?? null]);
    const first = byKey.get(key);
    if (first) first.count = (first.count ?? 1) + (d.count ?? 1);
    else {
      const copy = { ...d };
      byKey.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}
