// Compiling the JSON Schema with Ajv: at build time into standalone code (scripts/build-
// artifacts.mjs writes dist/validate/team-validator.cjs), and at run time only when that
// file is missing or was built from another schema (running from src/, an edited schema/).
// Compiling costs a cold `validate` ~80 ms; loading the standalone code a few.
// Ajv ships CommonJS and schema checks are synchronous, so it is required, not imported:
// only the fallback pays for loading the compiler.
import { createRequire } from "node:module";
import type { Ajv as AjvClass, Options, ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

function newAjv(options: Options = {}): AjvClass {
  const { Ajv } = require("ajv") as typeof import("ajv");
  const addFormats = require("ajv-formats") as (ajv: AjvClass) => AjvClass;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, logger: false, ...options });
  addFormats(ajv);
  return ajv;
}

export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const ajv = newAjv();
  // An unknown `format` must never throw (VERSIONS.md v1.1): accept it as an annotation.
  for (const name of collectFormats(schema)) {
    if (!ajv.formats[name]) ajv.addFormat(name, true);
  }
  return ajv.compile(schema);
}

/**
 * The schema a standalone validator was built from, as text: compared whole before it is
 * used (23 kB; a hash would load node:crypto, ~10 ms of a cold `validate`).
 */
export function schemaText(schema: Record<string, unknown>): string {
  return JSON.stringify(schema);
}

/**
 * CommonJS source of a validator equivalent to compileSchema(schema), with the schema it was
 * made from exported as `schemaText`. Its formats come from ajv-formats, so a format ajv-formats does
 * not know (one compileSchema accepts as an annotation) is refused here: the build says so.
 */
export function standaloneValidatorCode(schema: Record<string, unknown>): string {
  const ajv = newAjv({ code: { source: true } });
  const unknown = [...collectFormats(schema)].filter((name) => !ajv.formats[name]);
  if (unknown.length) throw new Error(`standalone validator: ajv-formats has no format ${unknown.join(", ")}; teach compile-schema.ts to carry it`);
  const standaloneCode = (require("ajv/dist/standalone") as { default: (ajv: AjvClass, v: ValidateFunction) => string }).default;
  return `${standaloneCode(ajv, ajv.compile(schema))}\nmodule.exports.schemaText = ${JSON.stringify(schemaText(schema))};\n`;
}

function collectFormats(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => collectFormats(n, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "format" && typeof v === "string") out.add(v);
      else collectFormats(v, out);
    }
  }
  return out;
}
