// What the exported project needs of the connection packs (`--connections`) in both Python
// targets: team.CONNECTIONS (connections.py's Connection per pack with reach.openapi that an
// agent got), team.CONNECTION_AGENTS, team.CONNECTION_SECRETS (the credential variables, which
// the runner requires at start), and the README's and .env.example's lines. Credentials are
// never part of it: only the names of the variables that hold them.
import type { TeamConnections } from "../../connections/connections.js";
import type { ArgSchema } from "../../connections/openapi.js";
import type { ConnectionPack, ScopeGroup } from "../../connections/read-packs.js";
import { connectionRows, type ConnectionRow } from "../../connections/report.js";

export interface ConnectionOperationView {
  tool: string;
  method: string;
  path: string;
  description: string;
  params: Array<{ arg: string; name: string; in: string; required: boolean; description: string; schema: ArgSchema }>;
  hasBody: boolean;
  body: ArgSchema | null;
  bodyRequired: boolean;
  bodyDescription: string;
  /** Arguments the generated tests call it with: every required one, of its type. */
  sample: Record<string, unknown>;
}

export interface ConnectionPackView {
  provider: string;
  displayName: string;
  authKind: ConnectionPack["provider"]["auth"]["kind"];
  /** The header the credential goes in. */
  header: string;
  /** The environment variables that hold the credential. */
  env: string[];
  apiHosts: string[];
  baseUrl: string;
  operations: ConnectionOperationView[];
  agents: string[];
  isOauth: boolean;
  endpoints: Array<{ name: string; url: string }>;
  readScopes: ScopeGroup[];
  writeScopes: ScopeGroup[];
}

export interface ConnectionsView {
  /** Some agent got a pack's tools (team.CONNECTIONS and connections.py ship). */
  has: boolean;
  /** Some operation has parameters (team.py imports Param). */
  usesParams: boolean;
  /** Packs were given (the README's and the loss report's Connections sections). */
  given: boolean;
  packs: ConnectionPackView[];
  agents: Array<{ key: string; providers: string[] }>;
  secrets: string[];
  rows: ConnectionRow[];
}

/** The provider id as the stem of its variables: `docs-search` → `DOCS_SEARCH`. */
export function envStem(provider: string): string {
  const stem = provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return /^[A-Z]/.test(stem) ? stem : `PACK_${stem}`;
}

function auth(pack: ConnectionPack, apiKeyHeader: string | undefined): Pick<ConnectionPackView, "header" | "env"> {
  const stem = envStem(pack.provider.id);
  switch (pack.provider.auth.kind) {
    case "api_key": {
      const header = apiKeyHeader ?? "X-API-Key";
      return { header, env: [`${stem}_API_KEY`] };
    }
    case "bearer":
      return { header: "Authorization", env: [`${stem}_TOKEN`] };
    case "basic":
      return { header: "Authorization", env: [`${stem}_USERNAME`, `${stem}_PASSWORD`] };
    case "oauth2":
      return { header: "Authorization", env: [`${stem}_ACCESS_TOKEN`] };
  }
}

export function connectionsView(c: TeamConnections | undefined): ConnectionsView {
  if (!c) return { has: false, usesParams: false, given: false, packs: [], agents: [], secrets: [], rows: [] };
  const packs: ConnectionPackView[] = [];
  for (const pack of c.packs) {
    const api = c.apis.find((a) => a.provider === pack.provider.id);
    const agents = c.assignments.filter((a) => a.provider === pack.provider.id).map((a) => a.agent);
    if (!api || !agents.length) continue;
    const endpoints = pack.provider.auth.endpoints ?? {};
    packs.push({
      provider: pack.provider.id,
      displayName: pack.provider.displayName,
      authKind: pack.provider.auth.kind,
      ...auth(pack, api.apiKeyHeader),
      apiHosts: pack.provider.apiHosts ?? [],
      baseUrl: api.baseUrl,
      operations: api.operations.map((o) => ({
        tool: o.tool,
        method: o.method,
        path: o.path,
        description: o.description,
        params: o.params.map((p) => ({ arg: p.arg, name: p.name, in: p.in, required: p.required, description: p.description, schema: p.schema })),
        hasBody: o.body !== undefined,
        body: o.body ? o.body.schema : null,
        bodyRequired: o.body?.required ?? false,
        bodyDescription: o.body?.description ?? "",
        sample: Object.fromEntries([...o.params.filter((p) => p.required).map((p) => [p.arg, sampleOf(p.schema)] as const), ...(o.body?.required ? [["body", sampleOf(o.body.schema)] as const] : [])]),
      })),
      agents,
      isOauth: pack.provider.auth.kind === "oauth2",
      endpoints: (["authorize", "token", "revoke"] as const).flatMap((name) => (endpoints[name] ? [{ name, url: endpoints[name]! }] : [])),
      readScopes: pack.provider.auth.scopes?.read ?? [],
      writeScopes: pack.provider.auth.scopes?.write ?? [],
    });
  }
  const keys = [...new Set(c.assignments.map((a) => a.agent))];
  const used = new Set(packs.map((p) => p.provider));
  return {
    has: packs.length > 0,
    usesParams: packs.some((p) => p.operations.some((o) => o.params.length > 0)),
    given: true,
    packs,
    agents: keys.flatMap((key) => {
      const providers = c.assignments.filter((a) => a.agent === key && used.has(a.provider)).map((a) => a.provider);
      return providers.length ? [{ key, providers }] : [];
    }),
    secrets: packs.flatMap((p) => p.env),
    rows: connectionRows(c),
  };
}

/** A value of the schema: an enum's first value, 1, true, "x", [], an object of its required properties. */
function sampleOf(schema: ArgSchema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case "string":
      return "x";
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return Object.fromEntries((schema.required ?? []).map((k) => [k, sampleOf(schema.properties![k]!)]));
  }
}
