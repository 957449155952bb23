import type { StructuredToolInterface } from "@langchain/core/tools";
import { type AccessPolicy } from "./policy.js";
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
export declare const PACK_BODY_LIMIT = 4000;
/** Whether a request to `host` may carry the pack's credential: an entry or a subdomain of one; anything but a plain lowercase hostname matches none. */
export declare function apiHostsAllow(apiHosts: readonly string[], host: string): boolean;
/** The credential's values that are set, by variable name (what `redact` replaces). */
export declare function credentialValues(auth: PackAuth, env: Env): Record<string, string>;
/** The headers that carry the credential; undefined when a variable of it is not set. */
export declare function credentialHeaders(auth: PackAuth, env: Env): Record<string, string> | undefined;
/** Both checks of one request, in order: the URL to send it to, or why it is refused (a text for the model). */
export declare function checkRequest(pack: Pack, method: string, url: string, agentKey: string, policy: AccessPolicy, variables: Readonly<Record<string, string>>): {
    url: string;
    refused?: string;
};
export interface PreparedRequest {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
    /** The credential's values by name, redacted from the result. */
    secrets: Record<string, string>;
}
export interface PackCallOptions {
    agentKey: string;
    policy: AccessPolicy;
    /** The team's secrets and variables with their values: the policy's and the base URL's `{{NAME}}`. */
    variables: Readonly<Record<string, string>>;
    env: Env;
}
/** The request of one tool call, or why it is refused (a text for the model). */
export declare function prepareRequest(connection: ConnectionSpec, operation: OperationSpec, args: Readonly<Record<string, unknown>>, options: PackCallOptions): PreparedRequest | string;
/** A response as the tool's text: status, where a redirect points, the body (cut), the credential redacted. */
export declare function describeResponse(response: Response, secrets: Readonly<Record<string, string>>): Promise<string>;
/** A request that could not be made, as the tool's text. */
export declare function failed(error: unknown, secrets: Readonly<Record<string, string>>): string;
/** The tool's arguments as a JSON schema: its parameters by `arg`, and `body` when it has one. */
export declare function argsSchema(operation: OperationSpec): Record<string, unknown>;
export interface PackToolOptions {
    agentKey: string;
    policy: AccessPolicy;
    /** Names of the team's secrets and variables (read from `env` at each call). */
    names: readonly string[];
    env: Env;
    fetch?: typeof fetch;
    timeoutMs?: number;
}
/** The agent's OpenAPI packs' tools (none without a pack). */
export declare function connectionTools(spec: ConnectionsSpec | undefined, options: PackToolOptions): StructuredToolInterface[];
/** `<provider>_<tool>` in the characters every model API accepts, at most 64 of them, unique in `taken`. */
export declare function mcpToolName(provider: string, name: string, taken: Set<string>): string;
/** A request of an MCP client that a check refused: thrown before anything is sent. */
export declare class RefusedRequest extends Error {
    name: string;
}
/** `fetch` for an MCP server's client: every request (the session's POSTs, an SSE stream's GET, its end's DELETE) passes both checks first; redirects are not followed. */
export declare function checkedFetch(server: McpServerSpec, options: Omit<PackCallOptions, "env">, base?: typeof fetch): typeof fetch;
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
export declare function openMcpTools(spec: ConnectionsSpec | undefined, options: PackToolOptions): Promise<OpenMcp>;
export {};
