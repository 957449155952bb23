// Connection packs' tools (`envelope export --connections`), as the Python targets'
// connections.py and connection_tools.py carry them: one typed tool per OpenAPI operation,
// and an MCP server's tools through @langchain/mcp-adapters; every request checked twice,
// fail-closed, before it is sent:
// 1. against the agent's access policy (policy.ts, as the http_request tool), then
// 2. against the pack's `apiHosts` (envelope-export's spec/api-hosts-vectors.json): the
//    pack's credential goes to those hosts and nowhere else.
// Redirects are not followed (the next hop would have to pass both checks), bodies are cut,
// and the credential's values are redacted from what a tool returns. A refusal or a failure
// is the tool's text, never thrown (it would end the agent's run). Credentials come only from
// the environment: api_key as it is in its header, bearer and oauth2 as `Authorization:
// Bearer`, basic as `Authorization: Basic` of `USERNAME:PASSWORD`.
import type { StructuredToolInterface } from "@langchain/core/tools";
import { tool } from "langchain";
import { render } from "./placeholders.js";
import { evaluate, type AccessPolicy } from "./policy.js";
import { redact } from "./redaction.js";

/** The subset of JSON schema envelope-export keeps of an operation's parameters and body. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface PackAuth {
  kind: "api_key" | "bearer" | "basic" | "oauth2";
  /** The header the credential goes in. */
  header: string;
  /** The environment variables that hold it (basic: username, then password). */
  env: readonly string[];
}

export interface ParamSpec {
  /** The tool's argument. */
  arg: string;
  /** The name on the wire. */
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface OperationSpec {
  tool: string;
  method: string;
  path: string;
  description: string;
  params: readonly ParamSpec[];
  /** The JSON request body's schema; null: no body. */
  body: JsonSchema | null;
  bodyRequired: boolean;
  bodyDescription: string;
}

/** A pack with reach.openapi: one tool per operation. */
export interface ConnectionSpec {
  provider: string;
  displayName: string;
  auth: PackAuth;
  apiHosts: readonly string[];
  baseUrl: string;
  operations: readonly OperationSpec[];
}

/** A pack with reach.mcp: the server's tools, listed from it when the agent converses. */
export interface McpServerSpec {
  provider: string;
  displayName: string;
  auth: PackAuth;
  apiHosts: readonly string[];
  url: string;
  transport: "http" | "sse";
}

/** The team's packs: what a team's `src/team.ts` declares as CONNECTIONS. */
export interface ConnectionsSpec {
  packs: readonly ConnectionSpec[];
  mcpServers: readonly McpServerSpec[];
  /** Agent key → the providers of its packs. */
  agents: Readonly<Record<string, readonly string[]>>;
  /** The credentials' variables, required before a run. */
  secrets: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;
type Pack = ConnectionSpec | McpServerSpec;

/** The most characters of a response body the model is given (as connections.py). */
export const PACK_BODY_LIMIT = 4000;

const PLAIN_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** Whether a request to `host` may carry the pack's credential: an entry or a subdomain of one; anything but a plain lowercase hostname matches none. */
export function apiHostsAllow(apiHosts: readonly string[], host: string): boolean {
  const h = host.toLowerCase();
  if (!PLAIN_HOST.test(h) || /^[0-9.]+$/.test(h)) return false;
  return apiHosts.some((entry) => h === entry || h.endsWith(`.${entry}`));
}

/** The credential's values that are set, by variable name (what `redact` replaces). */
export function credentialValues(auth: PackAuth, env: Env): Record<string, string> {
  return Object.fromEntries(auth.env.flatMap((name) => (env[name] ? [[name, env[name]!] as const] : [])));
}

/** The headers that carry the credential; undefined when a variable of it is not set. */
export function credentialHeaders(auth: PackAuth, env: Env): Record<string, string> | undefined {
  const values = auth.env.map((name) => env[name] ?? "");
  if (!values.every((v) => v)) return undefined;
  if (auth.kind === "basic") return { [auth.header]: `Basic ${Buffer.from(`${values[0]}:${values[1]}`).toString("base64")}` };
  if (auth.kind === "api_key") return { [auth.header]: values[0]! };
  return { [auth.header]: `Bearer ${values[0]}` };
}

/** Both checks of one request, in order: the URL to send it to, or why it is refused (a text for the model). */
export function checkRequest(pack: Pack, method: string, url: string, agentKey: string, policy: AccessPolicy, variables: Readonly<Record<string, string>>): { url: string; refused?: string } {
  const decision = evaluate(policy, method, url, variables);
  if (!decision.allowed) return { url, refused: `REFUSED by access policy of ${agentKey}: ${decision.reason}` };
  let host: string;
  try {
    host = new URL(decision.url).hostname;
  } catch (error) {
    return { url, refused: `REFUSED by access policy of ${agentKey}: the HTTP client cannot parse the URL (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!apiHostsAllow(pack.apiHosts, host)) {
    return { url, refused: `REFUSED by connection pack ${pack.provider}: ${host || "the URL"} is not under its apiHosts (${pack.apiHosts.join(", ")}), so its credential is never sent there` };
  }
  return { url: decision.url };
}

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The credential's values by name, redacted from the result. */
  secrets: Record<string, string>;
}

const wire = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value));
/** Every character but unreserved ones encoded (Python's quote(safe="")): a value cannot add a path segment. */
const pathValue = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface PackCallOptions {
  agentKey: string;
  policy: AccessPolicy;
  /** The team's secrets and variables with their values: the policy's and the base URL's `{{NAME}}`. */
  variables: Readonly<Record<string, string>>;
  env: Env;
}

/** The request of one tool call, or why it is refused (a text for the model). */
export function prepareRequest(connection: ConnectionSpec, operation: OperationSpec, args: Readonly<Record<string, unknown>>, options: PackCallOptions): PreparedRequest | string {
  let path = operation.path;
  const query = new URLSearchParams();
  let headers: Record<string, string> = {};
  for (const param of operation.params) {
    const value = args[param.arg];
    if (value === undefined || value === null) {
      if (param.required) return `REFUSED: ${operation.tool} needs ${param.arg}`;
      continue;
    }
    if (param.in === "path") path = path.split(`{${param.name}}`).join(pathValue(wire(value)));
    else if (param.in === "query") for (const item of Array.isArray(value) ? value : [value]) query.append(param.name, wire(item));
    else headers[param.name] = wire(value);
  }
  const search = query.toString();
  const target = render(connection.baseUrl, options.variables) + path + (search ? `?${search}` : "");
  const checked = checkRequest(connection, operation.method, target, options.agentKey, options.policy, options.variables);
  if (checked.refused) return checked.refused;
  const credential = credentialHeaders(connection.auth, options.env);
  if (!credential) return `REFUSED: ${connection.auth.env.join(" and ")} not set for ${connection.provider}`;
  // Header names are case-insensitive: no parameter may stand beside the credential.
  const taken = new Set(Object.keys(credential).map((n) => n.toLowerCase()));
  headers = Object.fromEntries(Object.entries(headers).filter(([n]) => !taken.has(n.toLowerCase())));
  const body = operation.body !== null && args.body !== undefined && args.body !== null ? JSON.stringify(args.body) : undefined;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return { method: operation.method, url: checked.url, headers: { ...headers, ...credential }, body, secrets: credentialValues(connection.auth, options.env) };
}

/** A response as the tool's text: status, where a redirect points, the body (cut), the credential redacted. */
export async function describeResponse(response: Response, secrets: Readonly<Record<string, string>>): Promise<string> {
  const lines = [`HTTP ${response.status} ${response.statusText}`.trimEnd()];
  if (response.status >= 300 && response.status < 400) lines.push(`Location: ${response.headers.get("location") ?? ""}`);
  const text = await response.text();
  lines.push(text.length > PACK_BODY_LIMIT ? `${text.slice(0, PACK_BODY_LIMIT)}\n[truncated ${text.length} chars]` : text);
  return redact(lines.join("\n"), secrets);
}

/** A request that could not be made, as the tool's text. */
export function failed(error: unknown, secrets: Readonly<Record<string, string>>): string {
  const name = error instanceof Error ? error.name : "Error";
  return redact(`REQUEST FAILED: ${name}: ${error instanceof Error ? error.message : String(error)}`, secrets);
}

/** The tool's arguments as a JSON schema: its parameters by `arg`, and `body` when it has one. */
export function argsSchema(operation: OperationSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of operation.params) {
    const where = `${p.in} parameter ${p.name}`;
    properties[p.arg] = { ...p.schema, description: p.description ? `${p.description} (${where})` : where };
    if (p.required) required.push(p.arg);
  }
  if (operation.body !== null) {
    properties.body = { ...operation.body, description: operation.bodyDescription || "The JSON request body." };
    if (operation.bodyRequired) required.push("body");
  }
  return { type: "object", properties, required, additionalProperties: false };
}

export interface PackToolOptions {
  agentKey: string;
  policy: AccessPolicy;
  /** Names of the team's secrets and variables (read from `env` at each call). */
  names: readonly string[];
  env: Env;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const valuesOf = (names: readonly string[], env: Env): Record<string, string> => Object.fromEntries(names.flatMap((n) => (env[n]?.trim() ? [[n, env[n]!] as const] : [])));

/** The agent's OpenAPI packs' tools (none without a pack). */
export function connectionTools(spec: ConnectionsSpec | undefined, options: PackToolOptions): StructuredToolInterface[] {
  const out: StructuredToolInterface[] = [];
  for (const provider of spec?.agents[options.agentKey] ?? []) {
    const connection = spec!.packs.find((p) => p.provider === provider);
    if (!connection) continue;
    for (const operation of connection.operations) {
      const call = async (args: Record<string, unknown>): Promise<string> => {
        // Read at call time: the environment may change between runs of a long-lived server.
        const prepared = prepareRequest(connection, operation, args, { agentKey: options.agentKey, policy: options.policy, variables: valuesOf(options.names, options.env), env: options.env });
        if (typeof prepared === "string") return prepared;
        try {
          const response = await (options.fetch ?? fetch)(prepared.url, {
            method: prepared.method,
            headers: prepared.headers,
            redirect: "manual",
            signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
            ...(prepared.body !== undefined ? { body: prepared.body } : {}),
          });
          return await describeResponse(response, prepared.secrets);
        } catch (error) {
          return failed(error, prepared.secrets);
        }
      };
      out.push(tool(call, { name: operation.tool, description: `${connection.displayName}: ${operation.description}`.slice(0, 1024), schema: argsSchema(operation) }) as unknown as StructuredToolInterface);
    }
  }
  return out;
}

/** `<provider>_<tool>` in the characters every model API accepts, at most 64 of them, unique in `taken`. */
export function mcpToolName(provider: string, name: string, taken: Set<string>): string {
  const base = `${provider.replace(/-/g, "_")}_${name}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  let found = base;
  for (let n = 2; taken.has(found); n++) found = base.slice(0, 64 - `_${n}`.length) + `_${n}`;
  taken.add(found);
  return found;
}

/** A request of an MCP client that a check refused: thrown before anything is sent. */
export class RefusedRequest extends Error {
  override name = "RefusedRequest";
}

/** `fetch` for an MCP server's client: every request (the session's POSTs, an SSE stream's GET, its end's DELETE) passes both checks first; redirects are not followed. */
export function checkedFetch(server: McpServerSpec, options: Omit<PackCallOptions, "env">, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const checked = checkRequest(server, method, url, options.agentKey, options.policy, options.variables);
    if (checked.refused) throw new RefusedRequest(checked.refused);
    return base(input, { ...init, redirect: "manual" });
  };
}

/** An MCP tool's content (a string or content blocks) as one text. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => (b !== null && typeof b === "object" && (b as { type?: unknown }).type === "text" ? String((b as { text?: unknown }).text ?? "") : JSON.stringify(b))).join("\n");
}

export interface OpenMcp {
  tools: StructuredToolInterface[];
  /** Ends the sessions (after the conversation). */
  close(): Promise<void>;
}

/**
 * The agent's MCP servers' tools, listed from each server through @langchain/mcp-adapters
 * (loadMcpTools on an MCP client whose every request is checked), renamed `<provider>_<tool>`.
 * Opened for one conversation: the graph's import makes no network call and needs no
 * credential. A server that cannot be reached throws, naming the pack and its URL.
 */
export async function openMcpTools(spec: ConnectionsSpec | undefined, options: PackToolOptions): Promise<OpenMcp> {
  const servers = (spec?.agents[options.agentKey] ?? []).flatMap((p) => spec!.mcpServers.filter((s) => s.provider === p));
  if (!servers.length) return { tools: [], close: async () => {} };
  // Loaded by the first team that has an MCP server, not by every graph.
  const [{ Client }, { StreamableHTTPClientTransport }, { SSEClientTransport }, { loadMcpTools }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@langchain/mcp-adapters"),
  ]);
  const variables = valuesOf(options.names, options.env);
  const clients: Array<InstanceType<typeof Client>> = [];
  const close = async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  };
  const tools: StructuredToolInterface[] = [];
  const taken = new Set<string>();
  try {
    for (const server of servers) {
      const where = `the MCP server of pack ${server.provider} (${server.url})`;
      const headers = credentialHeaders(server.auth, options.env);
      if (!headers) throw new Error(`${server.auth.env.join(" and ")} not set for ${where}`);
      const secrets = credentialValues(server.auth, options.env);
      // The first request's checks, before anything is opened: a refusal is the error's text.
      const first = checkRequest(server, server.transport === "sse" ? "GET" : "POST", server.url, options.agentKey, options.policy, variables);
      if (first.refused) throw new Error(`${where}: ${first.refused}`);
      const fetcher = checkedFetch(server, { agentKey: options.agentKey, policy: options.policy, variables }, options.fetch);
      const url = new URL(server.url);
      // Both transports send requestInit's headers with every request, the SSE stream's GET included.
      const transport = server.transport === "sse" ? new SSEClientTransport(url, { requestInit: { headers }, fetch: fetcher }) : new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: fetcher });
      const client = new Client({ name: "envelope-runtime-js", version: "0.1.0" });
      let listed;
      try {
        await client.connect(transport);
        clients.push(client);
        listed = await loadMcpTools(server.provider, client, { throwOnLoadError: true, prefixToolNameWithServerName: false });
      } catch (error) {
        throw new Error(redact(`listing the tools of ${where} failed: ${error instanceof Error ? error.message : String(error)}`, secrets));
      }
      for (const found of listed) {
        const call = async (args: Record<string, unknown>): Promise<string> => {
          try {
            const content: unknown = await found.invoke(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null)));
            return redact(contentText(content), secrets);
          } catch (error) {
            return failed(error, secrets);
          }
        };
        const schema = found.schema as Parameters<typeof tool>[1]["schema"];
        tools.push(tool(call, { name: mcpToolName(server.provider, found.name, taken), description: `${server.displayName}: ${found.description}`.slice(0, 1024), schema }) as unknown as StructuredToolInterface);
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { tools, close };
}
