// Small definitions built in code, for unit tests that need one field changed.
import { validate } from "../../src/validate/validate.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";

export const SCHEMA = "https://schema.openenvelope.org/team/v1.json";

export function agent(key: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { key, name: key, title: `${key} title`, role: "specialist", ...extra };
}

export function team(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: SCHEMA,
    name: "Test Team",
    slug: "test-team",
    version: "1.0.0",
    description: "A team for tests.",
    visibility: "private",
    agents: [agent("lead", { role: "manager", prompt: "Lead the team." })],
    ...extra,
  };
}

export function diagnosticsOf(def: unknown, options: { strict?: boolean } = {}): Diagnostic[] {
  return validate(JSON.stringify(def, null, 2), options).diagnostics;
}

export function codesOf(def: unknown): string[] {
  return diagnosticsOf(def).map((d) => d.code);
}
