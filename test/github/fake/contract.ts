// The contract check of the fake GitHub: every request is routed and validated against
// GitHub's published OpenAPI description (the operations extracted into
// test/github/fixtures/github-openapi.json by scripts/extract-github-openapi.mjs).
// - an unknown method + path is a violation (the client called something GitHub lacks, or
//   something the extract does not cover);
// - path parameters, query keys, required headers and the JSON body are checked with Ajv;
// - GitHub's schemas lack `additionalProperties: false`, so a misspelt key (`privat`,
//   `basetree`) would pass Ajv: a walker reports every body key the schema does not name;
// - the fake's own responses are checked too, so the client is tested against answers
//   shaped like GitHub's.
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export type Schema = Record<string, unknown>;

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  "x-github"?: { enabledForGitHubApps?: boolean };
  parameters: Array<{ name: string; in: "path" | "query" | "header"; required: boolean; schema: Schema }>;
  requestBody: { required: boolean; schema: Schema | null } | null;
  responses: Record<string, Schema | null>;
}

export interface IncomingCall {
  method: string;
  pathname: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

export interface Routed {
  operation: Operation;
  params: Record<string, string>;
  body: unknown;
}

const FIXTURE = new URL("../fixtures/github-openapi.json", import.meta.url);

export class Contract {
  readonly operations: Operation[];
  readonly source: Record<string, string>;
  private readonly ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  private readonly compiled = new Map<Schema, ValidateFunction>();
  private readonly routes: Array<{ operation: Operation; pattern: RegExp; names: string[] }>;

  constructor() {
    addFormats(this.ajv);
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as { source: Record<string, string>; operations: Operation[] };
    this.operations = fixture.operations;
    this.source = fixture.source;
    this.routes = this.operations.map((operation) => {
      const names: string[] = [];
      // A trailing {ref} may hold slashes (GitHub accepts heads/main encoded or not).
      const pattern = operation.path.replace(/\{(\w+)\}/g, (_m, name: string, offset: number, whole: string) => {
        names.push(name);
        return name === "ref" && offset + name.length + 2 === whole.length ? "(.+)" : "([^/]+)";
      });
      return { operation, pattern: new RegExp(`^${pattern}$`), names };
    });
  }

  operation(id: string): Operation {
    const op = this.operations.find((o) => o.operationId === id);
    if (!op) throw new Error(`no operation ${id} in the extract`);
    return op;
  }

  /** Routes a call and lists what GitHub's description says is wrong with it. */
  check(call: IncomingCall): { routed?: Routed; violations: string[] } {
    const where = `${call.method} ${call.pathname}`;
    const route = this.routes.find((r) => r.operation.method === call.method && r.pattern.test(call.pathname));
    if (!route) return { violations: [`${where}: no such operation in GitHub's OpenAPI description (or not in the extract)`] };
    const { operation } = route;
    const violations: string[] = [];
    const match = route.pattern.exec(call.pathname)!;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1]!);
      } catch {
        violations.push(`${where}: path parameter ${name} is not valid percent-encoding`);
      }
    });
    for (const p of operation.parameters.filter((x) => x.in === "path")) {
      const value = params[p.name];
      if (value === undefined || value === "") violations.push(`${where}: missing path parameter ${p.name}`);
      else violations.push(...this.validate(p.schema, value, `${where}: path parameter ${p.name}`));
    }
    const known = new Set(operation.parameters.filter((p) => p.in === "query").map((p) => p.name));
    for (const key of call.query.keys()) if (!known.has(key)) violations.push(`${where}: unknown query parameter ${key}`);
    const header = (name: string) => {
      const v = call.headers[name];
      return Array.isArray(v) ? v.join(",") : v;
    };
    // GitHub refuses requests without a User-Agent; Accept and the version header must be sane.
    if (!header("user-agent")) violations.push(`${where}: no User-Agent header (GitHub refuses such requests)`);
    const accept = header("accept");
    if (!accept || !/application\/(vnd\.github[\w.+-]*|json)|\*\/\*/.test(accept)) violations.push(`${where}: Accept header ${JSON.stringify(accept)} is not a GitHub media type`);
    const version = header("x-github-api-version");
    if (version !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(version)) violations.push(`${where}: X-GitHub-Api-Version ${JSON.stringify(version)} is not a date`);
    const auth = header("authorization");
    // An OAuth app's own endpoints (/applications/{client_id}/…) take Basic client_id:client_secret.
    const scheme = operation.path.startsWith("/applications/") ? /^basic \S+$/i : /^(token|bearer) \S+$/i;
    if (auth !== undefined && !scheme.test(auth)) violations.push(`${where}: Authorization header is not what ${operation.operationId} takes`);

    let body: unknown;
    if (operation.requestBody) {
      if (!/^application\/json\b/.test(header("content-type") ?? "")) violations.push(`${where}: body without Content-Type application/json`);
      if (call.rawBody === "") {
        if (operation.requestBody.required) violations.push(`${where}: the request body is required`);
      } else {
        try {
          body = JSON.parse(call.rawBody);
        } catch {
          violations.push(`${where}: the body is not JSON`);
        }
        if (body !== undefined && operation.requestBody.schema) {
          violations.push(...this.validate(operation.requestBody.schema, body, `${where}: body`));
          for (const key of unknownKeys(operation.requestBody.schema, body, "")) violations.push(`${where}: body${key}: not a property GitHub defines`);
        }
      }
    } else if (call.rawBody !== "") {
      violations.push(`${where}: a body on an operation that takes none`);
    }
    return { routed: { operation, params, body }, violations };
  }

  /** Checks one of the fake's own responses against the description (null: not described as JSON). */
  checkResponse(operation: Operation, status: number, body: unknown): string[] {
    const schema = operation.responses[String(status)];
    if (schema === undefined) return [`${operation.method} ${operation.path}: status ${status} is not among the documented responses`];
    if (schema === null) return [];
    return this.validate(schema, body, `${operation.method} ${operation.path} → ${status}`);
  }

  private validate(schema: Schema, value: unknown, label: string): string[] {
    let fn = this.compiled.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.compiled.set(schema, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => `${label}${e.instancePath}: ${e.message ?? "invalid"}${e.params && "allowedValues" in e.params ? ` (${(e.params.allowedValues as unknown[]).join(", ")})` : ""}`);
  }
}

/** Pointers of object keys in `data` that `schema` does not name (through allOf/anyOf/oneOf). */
export function unknownKeys(schema: Schema, data: unknown, pointer: string): string[] {
  if (Array.isArray(data)) {
    const items = schema.items as Schema | undefined;
    return items ? data.flatMap((item, i) => unknownKeys(items, item, `${pointer}/${i}`)) : [];
  }
  if (data === null || typeof data !== "object") return [];
  const alternatives = [schema, ...(["allOf", "anyOf", "oneOf"] as const).flatMap((k) => (schema[k] as Schema[] | undefined) ?? [])];
  const properties = new Map<string, Schema>();
  let open = false;
  let described = false;
  for (const alt of alternatives) {
    const props = alt.properties as Record<string, Schema> | undefined;
    if (props) {
      described = true;
      for (const [k, v] of Object.entries(props)) if (!properties.has(k)) properties.set(k, v);
    }
    if (alt.additionalProperties || alt.patternProperties) open = true;
  }
  if (!described || open) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const sub = properties.get(key);
    if (!sub) out.push(`${pointer}/${key}`);
    else out.push(...unknownKeys(sub, value, `${pointer}/${key}`));
  }
  return out;
}

/**
 * The smallest value a schema accepts (required properties only; the first of oneOf/anyOf):
 * the fake's responses start from this and fill in what it knows, so they have every field
 * GitHub's description promises, in the right type.
 */
export function sample(schema: Schema): unknown {
  const one = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (one?.[0]) return sample(one[0]);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...(schema.allOf as Schema[]).map((s) => sample(s)));
  if (schema.nullable === true) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      for (const key of (schema.required as string[] | undefined) ?? []) out[key] = props[key] ? sample(props[key]) : null;
      return out;
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "string":
      if (schema.format === "date-time") return "2020-01-01T00:00:00Z";
      if (schema.format === "uri") return "https://example.invalid/";
      if (schema.format === "email") return "nobody@example.invalid";
      if (typeof schema.minLength === "number") return "0".repeat(schema.minLength);
      return "";
    default:
      return null;
  }
}
