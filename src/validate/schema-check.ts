// JSON Schema validation (ajv) translated into our diagnostics: a stable code per kind of
// failure, the pointer of the offending value (or key), and a plain-words message + hint.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import type { Code } from "../diagnostics/codes.js";
import { childPointer, pathLabel } from "../read/json-pointer.js";
import { locate, type SourceDocument } from "../read/source.js";
import { SCHEMA_URL, teamSchema } from "../schema/compose-schema.js";
import { requireCjs } from "../require-cjs.js";
import { compileSchema, schemaText } from "./compile-schema.js";
import { isRegistryPointer, REGISTRY_FIELDS, registryWarning } from "./registry.js";
import { suggestName } from "./suggest.js";

export { compileSchema } from "./compile-schema.js";

// Written next to this module by `npm run build` (scripts/build-artifacts.mjs).
const STANDALONE = new URL("./team-validator.cjs", import.meta.url);

let compiled: ValidateFunction | undefined;

/** The build's standalone validator when it was made from today's schema, else compiled now. */
function teamValidator(): ValidateFunction {
  const schema = teamSchema();
  if (existsSync(STANDALONE)) {
    const standalone = requireCjs(import.meta.url, fileURLToPath(STANDALONE)) as ValidateFunction & { schemaText?: string };
    if (standalone.schemaText === schemaText(schema)) return standalone;
  }
  return compileSchema(schema);
}

export function schemaDiagnostics(doc: SourceDocument): Diagnostic[] {
  compiled ??= teamValidator();
  compiled(doc.parsed.value);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const err of compiled.errors ?? []) {
    const translated = translate(err, doc);
    if (!translated) continue;
    const d = aboutRegistry(err, translated.pointer) ? currencyReading(err, translated, doc) ?? registryWarning(translated) : translated;
    const id = `${d.code}\u0000${d.pointer}\u0000${d.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(d);
  }
  return out;
}

function aboutRegistry(err: ErrorObject, pointer: string): boolean {
  if (err.keyword === "required" && err.instancePath === "") return REGISTRY_FIELDS.has(String((err.params as { missingProperty?: unknown }).missingProperty));
  return isRegistryPointer(pointer);
}

/** `pricing.currency: "usd"` (the schema's own documented default) is read as "USD". */
function currencyReading(err: ErrorObject, d: Diagnostic, doc: SourceDocument): Diagnostic | undefined {
  if (err.keyword !== "pattern" || d.pointer !== "/pricing/currency" || typeof err.data !== "string" || !/^[A-Za-z]{3}$/.test(err.data)) return undefined;
  return makeDiagnostic("W_PRICING_CURRENCY_CASE", d.pointer, d, `\`pricing.currency\` ${JSON.stringify(err.data)} is read as ${JSON.stringify(err.data.toUpperCase())}`, {
    file: doc.file,
    hint: "ISO 4217 codes are written in capitals (the schema documents the default as \"usd\")",
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 60 ? `"${value.slice(0, 57)}..."` : JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return String(value);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** One Ajv error in our words; `root` names the document (another schema's, such as a connection pack's). */
export function translate(err: ErrorObject, doc: SourceDocument, root = "the team"): Diagnostic | undefined {
  const pointer = err.instancePath;
  const field = pointer === "" ? root : `\`${pathLabel(pointer)}\``;
  const at = (p: string, key = false) => locate(doc, p, key);
  const d = (code: Code, p: string, message: string, hint?: string, key = false) =>
    makeDiagnostic(code, p, at(p, key), message, { file: doc.file, ...(hint ? { hint } : {}) });
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case "required": {
      const missing = String(p.missingProperty);
      return d("E_REQUIRED", pointer, `${field} is missing the required property \`${missing}\``);
    }
    case "additionalProperties": {
      const name = String(p.additionalProperty);
      const allowed = Object.keys(((err.parentSchema as Record<string, unknown>)?.properties as object) ?? {});
      const guess = suggestName(name, allowed);
      const hint = guess ? `did you mean \`${guess}\`?` : `allowed here: ${allowed.map((a) => `\`${a}\``).join(", ")}`;
      return d("E_UNKNOWN_PROPERTY", childPointer(pointer, name), `unknown property \`${name}\``, hint, true);
    }
    case "const":
      if (pointer === "/$schema") {
        return d("E_SCHEMA_URL", pointer, `\`$schema\` is ${describe(err.data)}, not the Envelope team schema URL`, `use "${SCHEMA_URL}"`);
      }
      return d("E_CONST", pointer, `${field} must be ${JSON.stringify(p.allowedValue)}, found ${describe(err.data)}`);
    case "enum": {
      const allowed = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ");
      return d("E_ENUM", pointer, `${field} is ${describe(err.data)}, which is not one of the allowed values`, `allowed: ${allowed}`);
    }
    case "type":
      return d("E_TYPE", pointer, `${field} must be ${article(String(p.type))}, found ${describe(err.data)}`);
    case "pattern":
      return d("E_PATTERN", pointer, `${field} ${describe(err.data)} does not match the required pattern ${String(p.pattern)}`, patternHint(String(p.pattern)));
    case "minLength":
    case "maxLength":
      return d("E_LENGTH", pointer, `${field} must be ${err.keyword === "minLength" ? "at least" : "at most"} ${String(p.limit)} characters long (it has ${[...(err.data as string)].length})`);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return d("E_RANGE", pointer, `${field} must be ${String(p.comparison)} ${String(p.limit)}, found ${describe(err.data)}`);
    case "minItems":
    case "maxItems":
      return d("E_ITEMS", pointer, `${field} must have ${err.keyword === "minItems" ? "at least" : "at most"} ${String(p.limit)} item${p.limit === 1 ? "" : "s"} (it has ${String((err.data as unknown[]).length)})`);
    case "format":
      return d("E_FORMAT", pointer, `${field} ${describe(err.data)} is not a valid ${String(p.format)}`);
    default:
      return d("E_SCHEMA", pointer, `${field}: ${err.message ?? "does not match the schema"}`);
  }
}

function patternHint(pattern: string): string | undefined {
  switch (pattern) {
    case "^[a-z0-9-]+$":
      return "use lowercase letters, digits and hyphens only, e.g. \"support-tier\"";
    case "^[a-z0-9_-]+$":
      return "use lowercase letters, digits, '_' and '-' only, e.g. \"billing-specialist\"";
    case "^[A-Z][A-Z0-9_]*$":
      return "use UPPER_SNAKE_CASE, e.g. \"ZENDESK_API_KEY\"";
    case "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$":
      return "use MAJOR.MINOR.PATCH, e.g. \"1.0.0\"";
    case "^\\d+[smhd]$":
      return "a number followed by s, m, h or d, e.g. \"72h\"";
    case "^[A-Z]{3}$":
      return "a three-letter ISO 4217 code in capitals, e.g. \"USD\"";
    default:
      return undefined;
  }
}
