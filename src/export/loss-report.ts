// The loss report: every field of the definition, listed as carried (and how), approximated
// (and why) or not carried. The core walks the definition; each target supplies the rules
// saying what it does with each field, so no field can be skipped silently — a field no rule
// covers is reported as not carried, and tests require that to never happen.
import { childPointer, pathLabel, parsePointer } from "../read/json-pointer.js";
import type { TeamModel } from "../model/types.js";
import { hasLoneSurrogate, holdsLoneSurrogate } from "../model/well-formed.js";

export type LossStatus = "carried" | "approximated" | "dropped";

export interface LossEntry {
  pointer: string;
  field: string;
  status: LossStatus;
  detail: string;
  /** Registry data (visibility, pricing, tags…): no runtime reads it, here or in Envelope, so
   * it is reported but never fails a strict export (visibility is required by the schema). */
  registryOnly?: true;
}

export type FieldRule =
  | {
      /** JSON pointer pattern: `*` matches one segment, e.g. `/agents/*\/prompt`. */
      pattern: string;
      status: LossStatus;
      detail: string;
      registryOnly?: true;
    }
  | {
      pattern: string;
      /** For outcomes that depend on the value or the team; undefined: the rule does not apply. */
      resolve: (value: unknown, pointer: string, model: TeamModel) => { status: LossStatus; detail: string } | undefined;
    };

/**
 * Appended to a carried field that holds a lone surrogate: the model, so every target, has
 * U+FFFD in its place (src/model/well-formed.ts), and the field is approximated.
 */
export const LONE_SURROGATE_NOTE = "; its lone surrogates (half characters that JSON allows and no Unicode text can hold) are U+FFFD";

/** Text used when no rule covers a field: it is listed, and tests fail on it. */
export const UNMAPPED = "no mapping for this field in the target";

interface CompiledRule {
  rule: FieldRule;
  segments: string[];
}

// A target's rules are one module-level array: compile each list once (the export of a
// 3-agent team walks a few hundred fields, each tried against ~50 patterns).
const compiledRules = new WeakMap<readonly FieldRule[], CompiledRule[]>();

function compile(rules: readonly FieldRule[]): CompiledRule[] {
  let compiled = compiledRules.get(rules);
  if (!compiled) {
    compiled = rules.map((rule) => ({ rule, segments: parsePointer(rule.pattern) }));
    compiledRules.set(rules, compiled);
  }
  return compiled;
}

function matches(segments: readonly string[], tokens: readonly string[]): boolean {
  if (segments.length !== tokens.length) return false;
  for (let i = 0; i < segments.length; i++) if (segments[i] !== "*" && segments[i] !== tokens[i]) return false;
  return true;
}

export function buildLossReport(definition: unknown, rules: readonly FieldRule[], model: TeamModel): LossEntry[] {
  const compiled = compile(rules);
  const out: LossEntry[] = [];
  const tokens: string[] = [];
  const walk = (value: unknown, pointer: string) => {
    const found = pointer === "" ? undefined : applyRules(compiled, value, pointer, tokens, model);
    if (found) {
      const outcome = { ...found, detail: withPackage(found.detail, model) };
      const lossy = outcome.status === "carried" && (hasLoneSurrogate(pointer) || holdsLoneSurrogate(value));
      out.push(lossy ? { pointer, field: pathLabel(pointer), status: "approximated", detail: outcome.detail + LONE_SURROGATE_NOTE } : { pointer, field: pathLabel(pointer), ...outcome });
      return;
    }
    const child = (token: string, v: unknown) => {
      tokens.push(token);
      walk(v, childPointer(pointer, token));
      tokens.pop();
    };
    if (Array.isArray(value)) value.forEach((v, i) => child(String(i), v));
    else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) child(k, v);
    else out.push({ pointer, field: pathLabel(pointer), status: "dropped", detail: UNMAPPED });
  };
  walk(definition, "");
  return out;
}

/**
 * The rules are written once for every team, so they say `src/<package>/`; the report is
 * read by someone looking for the file, so it names the team's real package directory.
 */
function withPackage(detail: string, model: TeamModel): string {
  return detail.replaceAll("src/<package>/", `src/${model.names.package}/`);
}

function applyRules(
  rules: readonly CompiledRule[],
  value: unknown,
  pointer: string,
  tokens: readonly string[],
  model: TeamModel,
): { status: LossStatus; detail: string; registryOnly?: true } | undefined {
  for (const { rule, segments } of rules) {
    if (!matches(segments, tokens)) continue;
    if (!("resolve" in rule)) return rule.registryOnly ? { status: rule.status, detail: rule.detail, registryOnly: true } : { status: rule.status, detail: rule.detail };
    const outcome = rule.resolve(value, pointer, model);
    if (outcome) return outcome;
  }
  return undefined;
}

/** The entries a strict export refuses: not fully carried, and not registry data. */
export function strictLoss(entries: readonly LossEntry[]): LossEntry[] {
  return entries.filter((e) => e.status !== "carried" && !e.registryOnly);
}

export function lossCounts(entries: readonly LossEntry[]): Record<LossStatus, number> {
  const counts = { carried: 0, approximated: 0, dropped: 0 };
  for (const e of entries) counts[e.status]++;
  return counts;
}

/**
 * The counts in words, the same wherever a person reads them (the terminal, the page, the
 * project's ENVELOPE_EXPORT.md): "43 carried, 1 approximated, 5 not carried (5 of them
 * registry-only)". Registry-only fields are not carried like any dropped field (the JSON
 * counts and the Envelope-Loss header say so too), and the words say how many of them are
 * only registry data. The page (web/app.js, lossCountsText) writes the same sentence.
 */
export function lossCountsText(entries: readonly LossEntry[]): string {
  const c = lossCounts(entries);
  const registry = entries.filter((e) => e.registryOnly).length;
  return `${c.carried} carried, ${c.approximated} approximated, ${c.dropped} not carried${registry ? ` (${registry} of them registry-only)` : ""}`;
}

/**
 * One line for the terminal, plus the fields that are not fully carried (what a strict
 * export refuses), then the registry-only fields on one line of their own: they are
 * counted as not carried, but no runtime reads them, so they are listed apart, not as losses.
 */
export function lossSummary(entries: readonly LossEntry[]): string {
  const lines = [`loss report: ${lossCountsText(entries)}`];
  for (const e of strictLoss(entries)) lines.push(`  ${e.status === "approximated" ? "~" : "-"} ${e.field}: ${e.detail}`);
  const registry = entries.filter((e) => e.registryOnly);
  if (registry.length) lines.push(`  registry-only, not a loss (no runtime reads them; kept in the provenance copy): ${registry.map((e) => e.field).join(", ")}`);
  return lines.join("\n");
}
