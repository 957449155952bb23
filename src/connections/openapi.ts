// A pack's `reach.openapi.ref`: the OpenAPI document (JSON) next to the pack, read at export
// time from the disk and never fetched from the network. Each operation becomes one typed tool:
// its method and path, a tool name (the operationId, else one derived from method and path,
// prefixed with the provider id, at most 64 characters, unique), its summary/description,
// its path/query/header parameters and a JSON request body, with their schemas reduced to the
// subset the exported tools type (string, number, integer, boolean, array, object, enum,
// required). `servers[0].url` is the base URL. Local `#/components/...` refs are resolved;
// anything else (a remote ref, a cycle, allOf/oneOf/anyOf) is a diagnostic naming the file and
// the pointer, as is an unreadable file, bad JSON, YAML (no YAML parser is a dependency) or no
// servers. A server outside the pack's `apiHosts` is a warning (its calls would all be refused).
import { createHash } from "node:crypto";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import { childPointer, parsePointer } from "../read/json-pointer.js";
import { JsonSyntaxError, parseJsonWithPositions } from "../read/json-with-positions.js";
import { locate, type SourceDocument } from "../read/source.js";
import { apiHostsAllow } from "./api-hosts.js";
import { fileSource, type PackSource } from "./pack-source.js";
import type { ConnectionPack } from "./read-packs.js";

/** The schema subset the exported tools type their arguments with. */
export interface ArgSchema {
  type: "string" | "number" | "integer" | "boolean" | "array" | "object";
  description?: string;
  enum?: Array<string | number | boolean>;
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  required?: string[];
}

export interface OperationParam {
  /** The tool's argument name (a Python identifier, unique in the operation). */
  arg: string;
  /** The name on the wire. */
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  schema: ArgSchema;
}

export interface PackOperation {
  tool: string;
  method: string;
  path: string;
  description: string;
  params: OperationParam[];
  body?: { required: boolean; schema: ArgSchema; description: string };
}

export interface PackApi {
  provider: string;
  file: string;
  baseUrl: string;
  operations: PackOperation[];
  /** The header of the document's first `apiKey` security scheme `in: header` (how an api_key pack's key is sent). */
  apiKeyHeader?: string;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const MAX_BYTES = 5 * 1024 * 1024;
export const MAX_TOOL_NAME = 64;

class SchemaProblem extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

/** The operations of a pack's OpenAPI document; `taken` holds tool names already given (across packs). */
export function readOpenApi(pack: ConnectionPack, taken: Set<string> = new Set(), source: PackSource = fileSource): { api?: PackApi; diagnostics: Diagnostic[] } {
  const ref = pack.provider.reach.openapi?.ref;
  if (ref === undefined) return { diagnostics: [] };
  const at0 = { line: 0, column: 0 };
  const pointerInPack = "/provider/reach/openapi/ref";
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    return { diagnostics: [makeDiagnostic("E_PACK_OPENAPI", pointerInPack, at0, `reach.openapi.ref "${ref}" is a URL; OpenAPI documents are read from the disk next to the pack, never fetched`, { file: pack.file, hint: "save the document next to pack.json and give its relative path" })] };
  }
  const file = source.resolve(pack.file, ref);
  if (typeof file !== "string") return { diagnostics: [makeDiagnostic("E_PACK_OPENAPI", pointerInPack, at0, `reach.openapi.ref "${ref}" ${file.refused}`, { file: pack.file })] };
  if (/\.ya?ml$/i.test(file)) {
    return { diagnostics: [makeDiagnostic("E_PACK_OPENAPI", pointerInPack, at0, `reach.openapi.ref "${ref}" is YAML; only JSON OpenAPI documents are read`, { file: pack.file, hint: "convert the document to JSON" })] };
  }
  let text: string;
  try {
    const bytes = source.read(file);
    if (bytes.length > MAX_BYTES) return { diagnostics: [makeDiagnostic("E_PACK_OPENAPI", "", at0, "the OpenAPI document is over 5 MiB", { file })] };
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? "not valid UTF-8";
    return { diagnostics: [makeDiagnostic("E_PACK_OPENAPI", pointerInPack, at0, `cannot read the OpenAPI document ${ref}: ${why}`, { file: pack.file })] };
  }
  let doc: SourceDocument;
  try {
    doc = { file, text, parsed: parseJsonWithPositions(text) };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { diagnostics: [makeDiagnostic("E_PACK_OPENAPI", "", e.position, `the OpenAPI document is not valid JSON: ${e.message}`, { file, hint: "YAML documents are not read: convert it to JSON" })] };
  }
  const root = doc.parsed.value as Record<string, unknown>;
  const problem = (pointer: string, message: string) => makeDiagnostic("E_PACK_OPENAPI", pointer, locate(doc, pointer, true), message, { file });
  if (root === null || typeof root !== "object" || Array.isArray(root)) return { diagnostics: [problem("", "an OpenAPI document is a JSON object")] };
  const servers = root.servers;
  const url = Array.isArray(servers) ? (servers[0] as { url?: unknown } | undefined)?.url : undefined;
  const diagnostics: Diagnostic[] = [];
  if (typeof url !== "string" || !/^https?:\/\/[^/{}]+/.test(url) || !URL.canParse(url)) diagnostics.push(problem(Array.isArray(servers) ? (servers.length ? "/servers/0" : "/servers") : "", "the OpenAPI document needs servers[0].url, an absolute http(s) URL without variables (the tools' base URL)"));
  const paths = root.paths;
  if (paths === null || typeof paths !== "object" || Array.isArray(paths)) {
    diagnostics.push(problem("", "the OpenAPI document has no `paths` object"));
    return { diagnostics };
  }
  const operations: PackOperation[] = [];
  const prefix = toolPart(pack.provider.id);
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    const itemPointer = childPointer("/paths", path);
    if (item === null || typeof item !== "object") continue;
    const common = ((item as Record<string, unknown>).parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
      if (op === undefined || op === null || typeof op !== "object") continue;
      const opPointer = childPointer(itemPointer, method);
      try {
        const params = parameters(root, [
          ...common.map((p, i) => [p, childPointer(childPointer(itemPointer, "parameters"), i)] as const),
          ...(((op.parameters as unknown[] | undefined) ?? []).map((p, i) => [p, childPointer(childPointer(opPointer, "parameters"), i)] as const)),
        ]);
        const body = requestBody(root, op.requestBody, childPointer(opPointer, "requestBody"));
        const base = typeof op.operationId === "string" && op.operationId ? toolPart(op.operationId) : toolPart(`${method}_${path}`);
        const description = [op.summary, op.description].filter((t): t is string => typeof t === "string" && t.trim() !== "").join(": ") || `${method.toUpperCase()} ${path}`;
        operations.push({ tool: uniqueName(`${prefix}_${base}`, taken), method: method.toUpperCase(), path, description, params, ...(body ? { body } : {}) });
      } catch (e) {
        if (!(e instanceof SchemaProblem)) throw e;
        diagnostics.push(problem(e.pointer, e.message));
      }
    }
  }
  if (!operations.length && !diagnostics.length) diagnostics.push(problem("/paths", "the OpenAPI document has no operation"));
  if (diagnostics.length) return { diagnostics };
  const schemes = Object.values(((root.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<string, { type?: unknown; in?: unknown; name?: unknown }>);
  const apiKey = schemes.find((s) => s && s.type === "apiKey" && s.in === "header" && typeof s.name === "string" && /^[A-Za-z0-9-]+$/.test(s.name));
  // The tools send the pack's credential only to hosts under apiHosts: a server outside them
  // makes every call a refusal at run time. A warning, not a refusal: the pack may be meant for
  // another server (a staging copy of the document), and the export says what it will do.
  const apiHosts = pack.provider.apiHosts ?? [];
  if (!apiHostsAllow(apiHosts, new URL(url as string).hostname)) {
    diagnostics.push(
      makeDiagnostic("W_PACK_SERVER_OUTSIDE_API_HOSTS", "/servers/0/url", locate(doc, "/servers/0/url"), `the OpenAPI server ${url as string} (servers[0].url) is not under the pack's apiHosts (${apiHosts.join(", ") || "none declared"}): every call of the pack's tools would be refused at run time`, {
        file,
        hint: `add ${new URL(url as string).hostname} (or its registrable domain) to the pack's apiHosts, or correct servers[0].url`,
      }),
    );
  }
  return { api: { provider: pack.provider.id, file, baseUrl: (url as string).replace(/\/+$/, ""), operations, ...(apiKey ? { apiKeyHeader: apiKey.name as string } : {}) }, diagnostics };
}

/** A tool-name part: lowercase letters, digits and `_`. */
function toolPart(text: string): string {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "") || "op"
  );
}

function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted.length <= MAX_TOOL_NAME ? wanted : `${wanted.slice(0, MAX_TOOL_NAME - 9)}_${createHash("sha256").update(wanted).digest("hex").slice(0, 8)}`;
  for (let n = 2; taken.has(name); n++) name = `${name.slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

/** Follows a local `#/...` ref (chains too); anything else is a problem at `pointer`. */
function deref(root: unknown, value: unknown, pointer: string, seen: readonly string[] = []): { value: unknown; pointer: string } {
  if (value === null || typeof value !== "object" || !("$ref" in value)) return { value, pointer };
  const ref = (value as { $ref: unknown }).$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) throw new SchemaProblem(`$ref ${JSON.stringify(ref)} is not a local #/components/... reference (documents are never fetched)`, childPointer(pointer, "$ref"));
  const target = ref.slice(1);
  if (seen.includes(target)) throw new SchemaProblem(`$ref ${ref} refers to itself (recursive schemas are not typed)`, childPointer(pointer, "$ref"));
  let node: unknown = root;
  for (const token of parsePointer(target)) {
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[token] : undefined;
    if (node === undefined) throw new SchemaProblem(`$ref ${ref} names nothing in the document`, childPointer(pointer, "$ref"));
  }
  return deref(root, node, target, [...seen, target]);
}

function parameters(root: unknown, list: ReadonlyArray<readonly [unknown, string]>): OperationParam[] {
  const byKey = new Map<string, OperationParam>();
  for (const [raw, rawPointer] of list) {
    const { value, pointer } = deref(root, raw, rawPointer);
    const p = value as Record<string, unknown>;
    if (p === null || typeof p !== "object" || typeof p.name !== "string") throw new SchemaProblem("a parameter needs a name", pointer);
    if (p.in === "cookie") throw new SchemaProblem(`parameter "${p.name}" is a cookie; cookie parameters are not carried`, childPointer(pointer, "in"));
    if (p.in !== "path" && p.in !== "query" && p.in !== "header") throw new SchemaProblem(`parameter "${p.name}" has no \`in\` of path, query or header`, pointer);
    const header = p.in === "header" ? p.name.toLowerCase() : "";
    // OpenAPI: Accept, Content-Type and Authorization header parameters are ignored (the tool sets them).
    if (IGNORED_HEADERS.has(header)) continue;
    // Headers that would route the request, or carry another credential, are never the model's to set.
    if (FORBIDDEN_HEADERS.has(header) || header.startsWith("proxy-")) throw new SchemaProblem(`header parameter "${p.name}" is not carried: the tools never let the model set it`, childPointer(pointer, "name"));
    const schema = p.schema === undefined ? { type: "string" as const } : argSchema(root, p.schema, childPointer(pointer, "schema"));
    // An operation's parameter replaces the path item's of the same name and place.
    byKey.set(`${p.in}:${p.name}`, { arg: "", name: p.name, in: p.in, required: p.in === "path" || p.required === true, description: typeof p.description === "string" ? p.description : "", schema });
  }
  const args = new Set(["body"]);
  return [...byKey.values()].map((p) => {
    let arg = toolPart(p.name).replace(/^(\d)/, "p_$1");
    if (PYTHON_RESERVED.has(arg)) arg = `${arg}_`;
    while (args.has(arg)) arg = `${arg}_`;
    args.add(arg);
    return { ...p, arg };
  });
}

function requestBody(root: unknown, raw: unknown, rawPointer: string): PackOperation["body"] {
  if (raw === undefined) return undefined;
  const { value, pointer } = deref(root, raw, rawPointer);
  const body = value as Record<string, unknown>;
  const content = (body?.content ?? {}) as Record<string, { schema?: unknown }>;
  const json = Object.keys(content).find((type) => /^application\/(.+\+)?json\b/.test(type));
  if (json === undefined) throw new SchemaProblem(`the request body has no JSON media type (${Object.keys(content).join(", ") || "none"}); only JSON bodies are carried`, childPointer(pointer, "content"));
  const schemaPointer = childPointer(childPointer(childPointer(pointer, "content"), json), "schema");
  const schema = content[json]!.schema === undefined ? { type: "object" as const } : argSchema(root, content[json]!.schema, schemaPointer);
  return { required: body.required === true, schema, description: typeof body.description === "string" ? body.description : "" };
}

const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const FORBIDDEN_HEADERS = new Set(["host", "cookie", "connection", "content-length", "transfer-encoding", "te", "upgrade", "forwarded", "x-forwarded-for", "x-forwarded-host"]);

const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

function argSchema(root: unknown, raw: unknown, rawPointer: string, seen: readonly string[] = []): ArgSchema {
  const { value, pointer } = deref(root, raw, rawPointer, seen);
  const refPath = pointer !== rawPointer ? [...seen, pointer] : seen;
  const s = value as Record<string, unknown>;
  if (s === null || typeof s !== "object" || Array.isArray(s)) throw new SchemaProblem("a schema is an object", pointer);
  for (const k of ["allOf", "oneOf", "anyOf", "not"]) if (k in s) throw new SchemaProblem(`\`${k}\` schemas are not typed by the exported tools`, childPointer(pointer, k));
  let type = Array.isArray(s.type) ? (s.type as unknown[]).filter((t) => t !== "null")[0] : s.type;
  if (type === undefined) type = s.properties !== undefined ? "object" : s.items !== undefined ? "array" : Array.isArray(s.enum) ? typeof s.enum[0] : undefined;
  if (typeof type !== "string" || !TYPES.has(type)) throw new SchemaProblem(`schema type ${JSON.stringify(s.type ?? null)} is not one of string, number, integer, boolean, array, object`, pointer);
  const out: ArgSchema = { type: type as ArgSchema["type"] };
  if (typeof s.description === "string") out.description = s.description;
  if (Array.isArray(s.enum)) {
    const values = s.enum.filter((v): v is string | number | boolean => ["string", "number", "boolean"].includes(typeof v));
    if (values.length) out.enum = values;
  }
  if (out.type === "array") out.items = s.items === undefined ? { type: "string" } : argSchema(root, s.items, childPointer(pointer, "items"), refPath);
  if (out.type === "object" && s.properties !== null && typeof s.properties === "object") {
    out.properties = Object.fromEntries(Object.entries(s.properties as Record<string, unknown>).map(([k, v]) => [k, argSchema(root, v, childPointer(childPointer(pointer, "properties"), k), refPath)]));
    if (Array.isArray(s.required)) out.required = s.required.filter((r): r is string => typeof r === "string" && r in out.properties!);
  }
  return out;
}

const PYTHON_RESERVED = new Set(
  "false none true and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield self".split(" "),
);
