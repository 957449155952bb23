// What the exported project needs of the connection packs (`--connections`) in both Python
// targets: team.CONNECTIONS (connections.py's Connection per pack with reach.openapi that an
// agent got), team.MCP_SERVERS (its McpServer per pack with reach.mcp an agent got, whose URL
// is under its apiHosts), team.CONNECTION_AGENTS, team.CONNECTION_SECRETS (the credential variables, which
// the runner requires at start), and the README's and .env.example's lines. Credentials are
// never part of it: only the names of the variables that hold them.
import { mcpUrlCarried } from "../../connections/assign.js";
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

/** A pack with reach.mcp: the server's tools, listed from it when the agent is built. */
export interface McpServerView {
  provider: string;
  displayName: string;
  /** The pack's auth.kind. */
  packAuthKind: ConnectionPack["provider"]["auth"]["kind"];
  /** How connections.py sends it: an MCP server reads its credential from Authorization, so an api_key goes as a bearer token. */
  authKind: "bearer" | "basic" | "oauth2";
  header: string;
  env: string[];
  apiHosts: string[];
  url: string;
  transport: "http" | "sse";
  /** What each tool's name starts with (connections.py's mcp_tool_name). */
  toolPrefix: string;
  agents: string[];
  isOauth: boolean;
  endpoints: Array<{ name: string; url: string }>;
  readScopes: ScopeGroup[];
  writeScopes: ScopeGroup[];
}

export interface ConnectionsView {
  /** Some agent got a pack's tools (team.CONNECTIONS, team.MCP_SERVERS and connections.py ship). */
  has: boolean;
  /** Some agent got an MCP server's tools (the LangGraph export depends on langchain-mcp-adapters). */
  hasMcp: boolean;
  /** Some operation has parameters (team.py imports Param). */
  usesParams: boolean;
  /** Packs were given (the README's and the loss report's Connections sections). */
  given: boolean;
  packs: ConnectionPackView[];
  mcpServers: McpServerView[];
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
  if (!c) return { has: false, hasMcp: false, usesParams: false, given: false, packs: [], mcpServers: [], agents: [], secrets: [], rows: [] };
  const packs: ConnectionPackView[] = [];
  const mcpServers: McpServerView[] = [];
  for (const pack of c.packs) {
    const api = c.apis.find((a) => a.provider === pack.provider.id);
    const agents = c.assignments.filter((a) => a.provider === pack.provider.id).map((a) => a.agent);
    const endpoints = pack.provider.auth.endpoints ?? {};
    const oauth = {
      isOauth: pack.provider.auth.kind === "oauth2",
      endpoints: (["authorize", "token", "revoke"] as const).flatMap((name) => (endpoints[name] ? [{ name, url: endpoints[name]! }] : [])),
      readScopes: pack.provider.auth.scopes?.read ?? [],
      writeScopes: pack.provider.auth.scopes?.write ?? [],
    };
    const mcp = pack.provider.reach.mcp;
    if (mcp && agents.length && mcpUrlCarried(pack)) {
      const kind = pack.provider.auth.kind;
      const runtime = auth(pack, "Authorization");
      mcpServers.push({
        provider: pack.provider.id,
        displayName: pack.provider.displayName,
        packAuthKind: kind,
        authKind: kind === "api_key" ? "bearer" : kind,
        ...runtime,
        apiHosts: pack.provider.apiHosts ?? [],
        url: mcp.server.url,
        transport: mcp.server.transport ?? "http",
        toolPrefix: `${pack.provider.id.replace(/-/g, "_").replace(/[^A-Za-z0-9_-]/g, "_")}_`,
        agents,
        ...oauth,
      });
    }
    if (!api || !agents.length) continue;
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
      ...oauth,
    });
  }
  const keys = [...new Set(c.assignments.map((a) => a.agent))];
  const used = new Set([...packs, ...mcpServers].map((p) => p.provider));
  return {
    has: used.size > 0,
    hasMcp: mcpServers.length > 0,
    usesParams: packs.some((p) => p.operations.some((o) => o.params.length > 0)),
    given: true,
    packs,
    mcpServers,
    agents: keys.flatMap((key) => {
      const providers = c.assignments.filter((a) => a.agent === key && used.has(a.provider)).map((a) => a.provider);
      return providers.length ? [{ key, providers }] : [];
    }),
    // In pack order, each pack's once (a pack with both an OpenAPI document and an MCP server has one credential).
    secrets: [...new Set(c.packs.flatMap((pack) => [...packs, ...mcpServers].filter((p) => p.provider === pack.provider.id).flatMap((p) => p.env)))],
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
