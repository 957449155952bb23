// The validating schema = the published v1.0 schema (kept byte-for-byte as the standard
// ships it) + the v1.1/v1.2 overlay. Keeping them apart means a new release of the standard
// replaces one file, and the overlay shows at a glance what we accept beyond v1.0.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

type JsonObject = Record<string, unknown>;

const schemaDir = fileURLToPath(new URL("../../schema/", import.meta.url));

export const SCHEMA_URL = "https://schema.openenvelope.org/team/v1.json";

function readJson(name: string): JsonObject {
  return JSON.parse(readFileSync(schemaDir + name, "utf8")) as JsonObject;
}

export function composeSchema(base: JsonObject, overlay: JsonObject): JsonObject {
  const schema = structuredClone(base);
  schema.properties = { ...(schema.properties as JsonObject), ...(overlay.properties as JsonObject) };
  schema.$defs = { ...(schema.$defs as JsonObject), ...(overlay.$defs as JsonObject) };
  return schema;
}

let cached: JsonObject | undefined;

/** The schema every definition is validated against (v1.0 + v1.1 + v1.2). */
export function teamSchema(): JsonObject {
  cached ??= composeSchema(readJson("team-v1.0.schema.json"), readJson("team-v1.x-extensions.json"));
  return cached;
}
