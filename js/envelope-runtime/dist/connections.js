import { tool } from "langchain";
import { render } from "./placeholders.js";
import { evaluate } from "./policy.js";
import { redact } from "./redaction.js";
/** The most characters of a response body the model is given (as connections.py). */
export const PACK_BODY_LIMIT = 4000;
const PLAIN_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
/** Whether a request to `host` may carry the pack's credential: an entry or a subdomain of one; anything but a plain lowercase hostname matches none. */
export function apiHostsAllow(apiHosts, host) {
    const h = host.toLowerCase();
    if (!PLAIN_HOST.test(h) || /^[0-9.]+$/.test(h))
        return false;
    return apiHosts.some((entry) => h === entry || h.endsWith(`.${entry}`));
}
/** The credential's values that are set, by variable name (what `redact` replaces). */
export function credentialValues(auth, env) {
    return Object.fromEntries(auth.env.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}
/** The headers that carry the credential; undefined when a variable of it is not set. */
export function credentialHeaders(auth, env) {
    const values = auth.env.map((name) => env[name] ?? "");
    if (!values.every((v) => v))
        return undefined;
    if (auth.kind === "basic")
        return { [auth.header]: `Basic ${Buffer.from(`${values[0]}:${values[1]}`).toString("base64")}` };
    if (auth.kind === "api_key")
        return { [auth.header]: values[0] };
    return { [auth.header]: `Bearer ${values[0]}` };
}
/** Both checks of one request, in order: the URL to send it to, or why it is refused (a text for the model). */
export function checkRequest(pack, method, url, agentKey, policy, variables) {
    const decision = evaluate(policy, method, url, variables);
    if (!decision.allowed)
        return { url, refused: `REFUSED by access policy of ${agentKey}: ${decision.reason}` };
    let host;
    try {
        host = new URL(decision.url).hostname;
    }
    catch (error) {
        return { url, refused: `REFUSED by access policy of ${agentKey}: the HTTP client cannot parse the URL (${error instanceof Error ? error.message : String(error)})` };
    }
    if (!apiHostsAllow(pack.apiHosts, host)) {
        return { url, refused: `REFUSED by connection pack ${pack.provider}: ${host || "the URL"} is not under its apiHosts (${pack.apiHosts.join(", ")}), so its credential is never sent there` };
    }
    return { url: decision.url };
}
const wire = (value) => (typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value));
/** Every character but unreserved ones encoded (Python's quote(safe="")): a value cannot add a path segment. */
const pathValue = (value) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** The request of one tool call, or why it is refused (a text for the model). */
export function prepareRequest(connection, operation, args, options) {
    let path = operation.path;
    const query = new URLSearchParams();
    let headers = {};
    for (const param of operation.params) {
        const value = args[param.arg];
        if (value === undefined || value === null) {
            if (param.required)
                return `REFUSED: ${operation.tool} needs ${param.arg}`;
            continue;
        }
        if (param.in === "path")
            path = path.split(`{${param.name}}`).join(pathValue(wire(value)));
        else if (param.in === "query")
            for (const item of Array.isArray(value) ? value : [value])
                query.append(param.name, wire(item));
        else
            headers[param.name] = wire(value);
    }
    const search = query.toString();
    const target = render(connection.baseUrl, options.variables) + path + (search ? `?${search}` : "");
    const checked = checkRequest(connection, operation.method, target, options.agentKey, options.policy, options.variables);
    if (checked.refused)
        return checked.refused;
    const credential = credentialHeaders(connection.auth, options.env);
    if (!credential)
        return `REFUSED: ${connection.auth.env.join(" and ")} not set for ${connection.provider}`;
    // Header names are case-insensitive: no parameter may stand beside the credential.
    const taken = new Set(Object.keys(credential).map((n) => n.toLowerCase()));
    headers = Object.fromEntries(Object.entries(headers).filter(([n]) => !taken.has(n.toLowerCase())));
    const body = operation.body !== null && args.body !== undefined && args.body !== null ? JSON.stringify(args.body) : undefined;
    if (body !== undefined)
        headers["Content-Type"] = "application/json";
    return { method: operation.method, url: checked.url, headers: { ...headers, ...credential }, body, secrets: credentialValues(connection.auth, options.env) };
}
/** A response as the tool's text: status, where a redirect points, the body (cut), the credential redacted. */
export async function describeResponse(response, secrets) {
    const lines = [`HTTP ${response.status} ${response.statusText}`.trimEnd()];
    if (response.status >= 300 && response.status < 400)
        lines.push(`Location: ${response.headers.get("location") ?? ""}`);
    const text = await response.text();
    lines.push(text.length > PACK_BODY_LIMIT ? `${text.slice(0, PACK_BODY_LIMIT)}\n[truncated ${text.length} chars]` : text);
    return redact(lines.join("\n"), secrets);
}
/** A request that could not be made, as the tool's text. */
export function failed(error, secrets) {
    const name = error instanceof Error ? error.name : "Error";
    return redact(`REQUEST FAILED: ${name}: ${error instanceof Error ? error.message : String(error)}`, secrets);
}
/** The tool's arguments as a JSON schema: its parameters by `arg`, and `body` when it has one. */
export function argsSchema(operation) {
    const properties = {};
    const required = [];
    for (const p of operation.params) {
        const where = `${p.in} parameter ${p.name}`;
        properties[p.arg] = { ...p.schema, description: p.description ? `${p.description} (${where})` : where };
        if (p.required)
            required.push(p.arg);
    }
    if (operation.body !== null) {
        properties.body = { ...operation.body, description: operation.bodyDescription || "The JSON request body." };
        if (operation.bodyRequired)
            required.push("body");
    }
    return { type: "object", properties, required, additionalProperties: false };
}
const valuesOf = (names, env) => Object.fromEntries(names.flatMap((n) => (env[n]?.trim() ? [[n, env[n]]] : [])));
/** The agent's OpenAPI packs' tools (none without a pack). */
export function connectionTools(spec, options) {
    const out = [];
    for (const provider of spec?.agents[options.agentKey] ?? []) {
        const connection = spec.packs.find((p) => p.provider === provider);
        if (!connection)
            continue;
        for (const operation of connection.operations) {
            const call = async (args) => {
                // Read at call time: the environment may change between runs of a long-lived server.
                const prepared = prepareRequest(connection, operation, args, { agentKey: options.agentKey, policy: options.policy, variables: valuesOf(options.names, options.env), env: options.env });
                if (typeof prepared === "string")
                    return prepared;
                try {
                    const response = await (options.fetch ?? fetch)(prepared.url, {
                        method: prepared.method,
                        headers: prepared.headers,
                        redirect: "manual",
                        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
                        ...(prepared.body !== undefined ? { body: prepared.body } : {}),
                    });
                    return await describeResponse(response, prepared.secrets);
                }
                catch (error) {
                    return failed(error, prepared.secrets);
                }
            };
            out.push(tool(call, { name: operation.tool, description: `${connection.displayName}: ${operation.description}`.slice(0, 1024), schema: argsSchema(operation) }));
        }
    }
    return out;
}
/** `<provider>_<tool>` in the characters every model API accepts, at most 64 of them, unique in `taken`. */
export function mcpToolName(provider, name, taken) {
    const base = `${provider.replace(/-/g, "_")}_${name}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
    let found = base;
    for (let n = 2; taken.has(found); n++)
        found = base.slice(0, 64 - `_${n}`.length) + `_${n}`;
    taken.add(found);
    return found;
}
/** A request of an MCP client that a check refused: thrown before anything is sent. */
export class RefusedRequest extends Error {
    name = "RefusedRequest";
}
/** `fetch` for an MCP server's client: every request (the session's POSTs, an SSE stream's GET, its end's DELETE) passes both checks first; redirects are not followed. */
export function checkedFetch(server, options, base = fetch) {
    return async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        const method = init?.method ?? (input instanceof Request ? input.method : "GET");
        const checked = checkRequest(server, method, url, options.agentKey, options.policy, options.variables);
        if (checked.refused)
            throw new RefusedRequest(checked.refused);
        return base(input, { ...init, redirect: "manual" });
    };
}
/** An MCP tool's content (a string or content blocks) as one text. */
function contentText(content) {
    if (typeof content === "string")
        return content;
    const blocks = Array.isArray(content) ? content : [content];
    return blocks.map((b) => (b !== null && typeof b === "object" && b.type === "text" ? String(b.text ?? "") : JSON.stringify(b))).join("\n");
}
/**
 * The agent's MCP servers' tools, listed from each server through @langchain/mcp-adapters
 * (loadMcpTools on an MCP client whose every request is checked), renamed `<provider>_<tool>`.
 * Opened for one conversation: the graph's import makes no network call and needs no
 * credential. A server that cannot be reached throws, naming the pack and its URL.
 */
export async function openMcpTools(spec, options) {
    const servers = (spec?.agents[options.agentKey] ?? []).flatMap((p) => spec.mcpServers.filter((s) => s.provider === p));
    if (!servers.length)
        return { tools: [], close: async () => { } };
    // Loaded by the first team that has an MCP server, not by every graph.
    const [{ Client }, { StreamableHTTPClientTransport }, { SSEClientTransport }, { loadMcpTools }] = await Promise.all([
        import("@modelcontextprotocol/sdk/client/index.js"),
        import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
        import("@modelcontextprotocol/sdk/client/sse.js"),
        import("@langchain/mcp-adapters"),
    ]);
    const variables = valuesOf(options.names, options.env);
    const clients = [];
    const close = async () => {
        await Promise.allSettled(clients.map((c) => c.close()));
    };
    const tools = [];
    const taken = new Set();
    try {
        for (const server of servers) {
            const where = `the MCP server of pack ${server.provider} (${server.url})`;
            const headers = credentialHeaders(server.auth, options.env);
            if (!headers)
                throw new Error(`${server.auth.env.join(" and ")} not set for ${where}`);
            const secrets = credentialValues(server.auth, options.env);
            // The first request's checks, before anything is opened: a refusal is the error's text.
            const first = checkRequest(server, server.transport === "sse" ? "GET" : "POST", server.url, options.agentKey, options.policy, variables);
            if (first.refused)
                throw new Error(`${where}: ${first.refused}`);
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
            }
            catch (error) {
                throw new Error(redact(`listing the tools of ${where} failed: ${error instanceof Error ? error.message : String(error)}`, secrets));
            }
            for (const found of listed) {
                const call = async (args) => {
                    try {
                        const content = await found.invoke(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null)));
                        return redact(contentText(content), secrets);
                    }
                    catch (error) {
                        return failed(error, secrets);
                    }
                };
                const schema = found.schema;
                tools.push(tool(call, { name: mcpToolName(server.provider, found.name, taken), description: `${server.displayName}: ${found.description}`.slice(0, 1024), schema }));
            }
        }
    }
    catch (error) {
        await close();
        throw error;
    }
    return { tools, close };
}
