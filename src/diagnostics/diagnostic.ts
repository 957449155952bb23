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
  /** How many times this diagnostic occurs (at its own place and those in `alsoAt`); absent when 1. */
  count?: number;
  /** Other places where the same diagnostic (code, message, hint) occurs: the first few, in order. */
  alsoAt?: Place[];
}

/** Where a diagnostic points: a JSON pointer and its position in the source. */
export interface Place {
  pointer: string;
  line: number;
  column: number;
}

/** How many places a collapsed diagnostic lists besides its own; `count` tells the rest. */
export const MAX_ALSO_AT = 4;

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
 * One diagnostic per (code, message, hint), counting the copies: a prompt that repeats an
 * unknown `{{NAME}}` 400 times, or 115,000 hosts that each say `{{X}}`, is one warning with
 * `count` and the first few other places in `alsoAt`, not thousands. Order is kept (the first
 * occurrence stands for the rest), so the input should be sorted first.
 */
export function collapseDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const byKey = new Map<string, Diagnostic>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    const key = JSON.stringify([d.code, d.severity, d.file ?? null, d.message, d.hint ?? null]);
    const first = byKey.get(key);
    if (!first) {
      const copy = { ...d };
      byKey.set(key, copy);
      out.push(copy);
      continue;
    }
    first.count = (first.count ?? 1) + (d.count ?? 1);
    for (const place of [d, ...(d.alsoAt ?? [])]) addPlace(first, place);
  }
  return out;
}

function addPlace(d: Diagnostic, place: Place): void {
  const same = (p: Place) => p.pointer === place.pointer && p.line === place.line && p.column === place.column;
  if (same(d) || d.alsoAt?.some(same)) return;
  if ((d.alsoAt?.length ?? 0) >= MAX_ALSO_AT) return;
  (d.alsoAt ??= []).push({ pointer: place.pointer, line: place.line, column: place.column });
}
