// A scripted OpenAI-compatible model server for the real-path harness: loopback only, on a
// port the OS picks, closes itself after `lifetimeMs`. It speaks chat completions (plain and
// streaming SSE, tool calls, `response_format: json_schema`), logs every request body, and
// answers from a per-test script: a function of the request. Anything else (e.g. the
// Responses API) gets a 404 that is logged too, so a test can see a client took another path.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatMessage {
  role: string;
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: JsonSchema } }>;
  tool_choice?: unknown;
  response_format?: { type: string; json_schema?: { name?: string; schema?: JsonSchema; strict?: boolean } };
  [key: string]: unknown;
}

export interface LoggedRequest {
  method: string;
  path: string;
  /** Parsed JSON body (undefined when it was not JSON). */
  body: ChatRequest | undefined;
  raw: string;
  at: number;
}

/** What the script answers: text, a JSON value (sent as the message content), or tool calls; `delayMs` later (a slow model). */
export type Reply = ({ text: string } | { json: unknown } | { toolCalls: Array<{ name: string; arguments: unknown }> } | { status: number; error: string }) & { delayMs?: number };

export type Script = (request: ChatRequest, log: readonly LoggedRequest[]) => Reply;

export interface ModelServer {
  /** e.g. http://127.0.0.1:PORT/v1 — the OPENAI_BASE_URL to give clients. */
  baseUrl: string;
  requests: LoggedRequest[];
  /** Chat-completion requests only (POST …/chat/completions with a JSON body). */
  chats(): ChatRequest[];
  close(): Promise<void>;
}

export type JsonSchema = { [key: string]: unknown };

/** The text of a message's content, whatever shape the client sent it in. */
export function textOf(content: ChatMessage["content"]): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content.map((p) => p.text ?? "").join("");
}

/**
 * An instance of `schema` (as OpenAI structured outputs send it: objects, arrays, enums,
 * $ref into $defs, anyOf) whose every string is `marker` plus its path, so a later prompt
 * that contains it proves which output it came from.
 */
export function instanceOf(schema: JsonSchema, marker: string, root: JsonSchema = schema, path = "", items = 1): unknown {
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const name = ref.replace(/^#\/(\$defs|definitions)\//, "");
    const defs = (root.$defs ?? root.definitions ?? {}) as Record<string, JsonSchema>;
    return instanceOf(defs[name] ?? {}, marker, root, path, items);
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (Array.isArray(options)) {
      const chosen = options.find((o) => o.type !== "null") ?? options[0] ?? {};
      return instanceOf(chosen, marker, root, path, items);
    }
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : (schema.type as string | undefined);
  switch (type) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, instanceOf(v, marker, root, `${path}.${k}`, items)]));
    }
    case "array":
      // `items` elements, each with its own path, so a test can tell records apart.
      return Array.from({ length: items }, (_, i) => instanceOf((schema.items ?? {}) as JsonSchema, marker, root, `${path}[${i}]`, items));
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return `${marker}${path}`;
  }
}

function completion(request: ChatRequest, message: ChatMessage, finish: string): object {
  return {
    id: "chatcmpl-realpath",
    object: "chat.completion",
    created: 1_700_000_000,
    model: request.model,
    system_fingerprint: "fp_realpath", // some clients (OpenRouter's SDK) require it
    choices: [{ index: 0, message: { ...message, refusal: null }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

function chunk(request: ChatRequest, delta: object, finish: string | null): string {
  const body = { id: "chatcmpl-realpath", object: "chat.completion.chunk", created: 1_700_000_000, model: request.model, system_fingerprint: "fp_realpath", choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function answer(res: ServerResponse, request: ChatRequest, reply: Reply): void {
  if ("status" in reply) {
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: reply.error, type: "scripted", code: reply.status } }));
    return;
  }
  const toolCalls =
    "toolCalls" in reply
      ? reply.toolCalls.map((c, i) => ({ id: `call_${i}`, type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } }))
      : undefined;
  const content = "text" in reply ? reply.text : "json" in reply ? JSON.stringify(reply.json) : null;
  const finish = toolCalls ? "tool_calls" : "stop";
  if (!request.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(completion(request, { role: "assistant", content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish)));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(chunk(request, { role: "assistant", content: "" }, null));
  if (content) {
    // Two pieces, so a client that only keeps the last delta would be caught.
    const cut = Math.ceil(content.length / 2);
    for (const piece of [content.slice(0, cut), content.slice(cut)]) if (piece) res.write(chunk(request, { content: piece }, null));
  }
  toolCalls?.forEach((c, index) => res.write(chunk(request, { tool_calls: [{ index, ...c }] }, null)));
  res.write(chunk(request, {}, finish));
  if (request.stream_options?.include_usage) {
    res.write(`data: ${JSON.stringify({ id: "chatcmpl-realpath", object: "chat.completion.chunk", created: 1_700_000_000, model: request.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\n`);
  }
  res.end("data: [DONE]\n\n");
}

export async function startModelServer(script: Script, lifetimeMs = 600_000): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: ChatRequest | undefined;
      try {
        body = raw ? (JSON.parse(raw) as ChatRequest) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? "").split("?")[0]!;
      requests.push({ method: req.method ?? "", path, body, raw, at: Date.now() });
      if (req.method === "POST" && path.endsWith("/chat/completions") && body) {
        let reply: Reply;
        try {
          reply = script(body, requests);
        } catch (error) {
          reply = { status: 500, error: `script failed: ${String(error)}` };
        }
        if (reply.delayMs) setTimeout(() => answer(res, body, reply), reply.delayMs);
        else answer(res, body, reply);
        return;
      }
      if (req.method === "GET" && path.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [] }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `realpath model server: no ${req.method} ${path}`, type: "not_found" } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chats: () => requests.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions") && r.body).map((r) => r.body!),
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
