// Validation = read → JSON → schema → semantic rules. All problems are collected in one run
// and ordered by position; the schema layer and every rule run even when others failed.
import { collapseDiagnostics, promoteWarnings, sortDiagnostics, isError, type Diagnostic } from "../diagnostics/diagnostic.js";
import { parseDefinitionBytes, type SourceDocument } from "../read/source.js";
import type { Code } from "../diagnostics/codes.js";
import { registryWarning } from "./registry.js";
import { makeRuleContext, type Rule } from "./rule-context.js";
import { schemaDiagnostics } from "./schema-check.js";
import { checkAccessPolicies } from "./rules/access-policy.js";
import { checkAgents } from "./rules/agents.js";
import { checkGates } from "./rules/gates.js";
import { checkPipeline } from "./rules/pipeline.js";
import { checkPlaceholders } from "./rules/placeholders.js";
import { checkPricing } from "./rules/pricing.js";
import { checkSchedule } from "./rules/schedule.js";
import { checkWorkspace } from "./rules/workspace.js";

export const RULES: readonly Rule[] = [
  checkAgents,
  checkPipeline,
  checkGates,
  checkAccessPolicies,
  checkPlaceholders,
  checkSchedule,
  checkPricing,
  checkWorkspace,
];

/** Errors about registry data that `validate` (the registry's gate) reports and an export does not. */
const REGISTRY_ERRORS: ReadonlySet<string> = new Set<Code>(["E_PRICING_AMOUNT_MISSING"]);

export interface ValidateOptions {
  /** Turn warnings into errors. */
  strict?: boolean;
  /** A label for messages (a path, "<stdin>", "request body"). */
  file?: string;
  /**
   * Validating for an export, which carries no registry data: the registry's own errors
   * (REGISTRY_ERRORS) are reported as W_REGISTRY_FIELD warnings, so they do not block it.
   */
  forExport?: boolean;
}

export interface ValidationResult {
  valid: boolean;
  diagnostics: Diagnostic[];
  /** Present when the bytes were readable JSON with an object at the root. */
  document?: SourceDocument;
}

function collectDiagnostics(doc: SourceDocument): Diagnostic[] {
  const diagnostics = schemaDiagnostics(doc);
  const ctx = makeRuleContext(doc, diagnostics);
  for (const rule of RULES) rule(ctx);
  return diagnostics;
}

export function validateDocument(doc: SourceDocument, options: ValidateOptions = {}): ValidationResult {
  return finish(collectDiagnostics(doc), options, doc);
}

/** Validates a definition given as bytes or text. Never throws on bad input. */
export function validate(input: Uint8Array | string, options: ValidateOptions = {}): ValidationResult {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const read = parseDefinitionBytes(bytes, options.file ?? "<input>");
  if (!read.document) return finish(read.diagnostics, options);
  return finish([...read.diagnostics, ...collectDiagnostics(read.document)], options, read.document);
}

function finish(list: Diagnostic[], options: ValidateOptions, document?: SourceDocument): ValidationResult {
  const own = options.forExport ? list.map((d) => (REGISTRY_ERRORS.has(d.code) ? registryWarning(d) : d)) : list;
  // Collapsed here, once, so the CLI (every format), inspect, export and the HTTP API agree.
  const diagnostics = collapseDiagnostics(sortDiagnostics(options.strict ? promoteWarnings(own) : own));
  const result: ValidationResult = { valid: !diagnostics.some(isError), diagnostics };
  if (document) result.document = document;
  return result;
}
