// The catalogue of diagnostic codes. A code's severity is fixed here so that a rule cannot
// report the same code once as an error and once as a warning.
import type { Severity } from "./diagnostic.js";

export const CODES = {
  // Reading the file
  E_READ: "error",
  E_FILE_TOO_LARGE: "error",
  E_EMPTY_FILE: "error",
  E_ENCODING: "error",
  E_JSON_SYNTAX: "error",
  E_DUPLICATE_JSON_KEY: "error",
  E_ROOT_NOT_OBJECT: "error",
  W_UTF8_BOM: "warning",
  // Schema
  E_SCHEMA_URL: "error",
  E_REQUIRED: "error",
  E_UNKNOWN_PROPERTY: "error",
  E_TYPE: "error",
  E_ENUM: "error",
  E_CONST: "error",
  E_PATTERN: "error",
  E_LENGTH: "error",
  E_RANGE: "error",
  E_ITEMS: "error",
  E_FORMAT: "error",
  E_SCHEMA: "error",
  // Connection packs (--connections): OpenWOP pack.json files read next to a definition
  E_PACK_CREDENTIAL: "error",
  E_PACK_DUPLICATE_PROVIDER: "error",
  E_CONNECTION_UNKNOWN: "error",
  E_CONNECTION_NO_POLICY: "error",
  E_PACK_OPENAPI: "error",
  E_PACK_UNUSED: "error",
  E_PACK_API_HOST_SUFFIX: "error",
  W_PACK_SERVER_OUTSIDE_API_HOSTS: "warning",
  // Agents and hierarchy
  E_DUPLICATE_AGENT_KEY: "error",
  E_REPORTS_TO_UNKNOWN: "error",
  E_REPORTS_TO_SELF: "error",
  E_REPORTS_TO_CYCLE: "error",
  E_MODEL_CONFLICT: "error",
  E_POLICY_CONFLICT: "error",
  W_MULTIPLE_ROOTS: "warning",
  W_MODEL_FORMAT: "warning",
  W_MODEL_PROVIDER_UNKNOWN: "warning",
  W_LOCAL_ADAPTER: "warning",
  W_AGENT_TIMEOUT_RUN: "warning",
  // Pipeline and gates
  E_DUPLICATE_STEP_KEY: "error",
  E_STEP_AGENT_UNKNOWN: "error",
  E_DEPENDS_ON_UNKNOWN: "error",
  E_DEPENDS_ON_CYCLE: "error",
  E_DUPLICATE_GATE_NAME: "error",
  E_GATE_STEP_UNKNOWN: "error",
  E_GATE_ORDER: "error",
  E_THRESHOLD_COUNT_MISSING: "error",
  // Access policy
  W_REQUIRE_APPROVAL: "warning",
  W_POLICY_HOST_PATTERN: "warning",
  // Secrets, variables, placeholders
  E_DUPLICATE_ENV_NAME: "error",
  W_PLACEHOLDER_UNKNOWN: "warning",
  W_SECRET_IN_PROMPT: "warning",
  W_SECRET_UNUSED: "warning",
  W_VARIABLE_UNUSED: "warning",
  // Schedule and registry
  E_CRON_INVALID: "error",
  W_SCHEDULE_CONTINUOUS: "warning",
  // Registry-only fields never block an export: their problems are warnings.
  W_REGISTRY_FIELD: "warning",
  W_PRICING_CURRENCY_CASE: "warning",
  // The one registry error: `validate` is the registry's gate; an export reports it as W_REGISTRY_FIELD.
  E_PRICING_AMOUNT_MISSING: "error",
  W_PRICING_INTERVAL_MISSING: "warning",
  // Workspace (v1.2)
  E_DUPLICATE_WORKSPACE_NAME: "error",
  E_WORKSPACE_DUPLICATE_COLUMN: "error",
  E_WORKSPACE_RESERVED_COLUMN: "error",
  E_WORKSPACE_MULTIPLE_ID: "error",
  E_WORKSPACE_TRIGGER_COLUMN: "error",
  E_WORKSPACE_TRIGGER_STATUS: "error",
} as const satisfies Record<string, Severity>;

export type Code = keyof typeof CODES;

export function severityOf(code: Code): Severity {
  return CODES[code];
}
