// What every semantic rule gets: the raw definition (already parsed, perhaps schema-invalid,
// so every access is defensive) and a way to report a diagnostic at a pointer.
import type { Code } from "../diagnostics/codes.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import { locate, type SourceDocument } from "../read/source.js";

export interface RuleContext {
  root: Record<string, unknown>;
  report(code: Code, pointer: string, message: string, options?: { hint?: string; atKey?: boolean }): void;
}

export type Rule = (ctx: RuleContext) => void;

export function makeRuleContext(doc: SourceDocument, sink: Diagnostic[]): RuleContext {
  return {
    root: doc.parsed.value as Record<string, unknown>,
    report(code, pointer, message, options = {}) {
      sink.push(
        makeDiagnostic(code, pointer, locate(doc, pointer, options.atKey ?? false), message, {
          file: doc.file,
          ...(options.hint ? { hint: options.hint } : {}),
        }),
      );
    },
  };
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The array's object items with their indexes (non-objects are the schema's business). */
export function objectItems(v: unknown): Array<[number, Record<string, unknown>]> {
  if (!Array.isArray(v)) return [];
  const out: Array<[number, Record<string, unknown>]> = [];
  v.forEach((item, i) => {
    if (isObject(item)) out.push([i, item]);
  });
  return out;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function stringItems(v: unknown): Array<[number, string]> {
  if (!Array.isArray(v)) return [];
  const out: Array<[number, string]> = [];
  v.forEach((item, i) => {
    if (typeof item === "string") out.push([i, item]);
  });
  return out;
}

export function has(o: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}
