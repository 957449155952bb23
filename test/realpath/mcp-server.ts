// A small MCP server of our own for the real path (issue 20): the streamable HTTP transport
// (MCP 2025-06-18, "Streamable HTTP") answering each JSON-RPC POST with `application/json`,
// no session id, and 405 for the GET stream and DELETE (both optional for a server). Enough
// for a client to initialize, list the tools and call one; written from the spec, not from
// an SDK, so the exported clients are tested against the wire format rather than against
// their own library.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, connect as netConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The call's text result. */
  call: (args: Record<string, unknown>, headers: IncomingMessage["headers"]) => string;
}

interface JsonRpc {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

function answer(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

function result(message: JsonRpc, tools: McpTool[], headers: IncomingMessage["headers"]): unknown {
  switch (message.method) {
    case "initialize":
      return {
        protocolVersion: String(message.params?.protocolVersion ?? "2025-06-18"),
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "envelope-realpath-mcp", version: "1.0.0" },
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
    case "tools/call": {
      const tool = tools.find((t) => t.name === message.params?.name);
      if (!tool) return { content: [{ type: "text", text: `no tool ${String(message.params?.name)}` }], isError: true };
      return { content: [{ type: "text", text: tool.call((message.params?.arguments ?? {}) as Record<string, unknown>, headers) }], isError: false };
    }
    default:
      return undefined;
  }
}

/** Answers one HTTP request to the MCP endpoint; `body` is the request's whole body. */
export function handleMcp(req: IncomingMessage, body: string, res: ServerResponse, tools: McpTool[]): void {
  if (req.method !== "POST") return answer(res, 405);
  let message: JsonRpc;
  try {
    message = JSON.parse(body) as JsonRpc;
  } catch {
    return answer(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
  }
  // A notification or a response of the client: accepted, nothing to say.
  if (message.id === undefined || message.method === undefined) return answer(res, 202);
  const found = result(message, tools, req.headers);
  if (found === undefined) return answer(res, 200, { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
  answer(res, 200, { jsonrpc: "2.0", id: message.id, result: found });
}

/**
 * An HTTPS site for `host` on loopback, reached through a proxy's CONNECT (`connect`, for the
 * proxy's "connect" event; any other host is refused with 403): the MCP schema requires an
 * https server URL, so the client must do TLS for real. Its certificate is self-signed, made
 * here with openssl, and `caFile` is what the client trusts (httpx reads SSL_CERT_FILE).
 */
export async function tlsSite(host: string, handler: RequestListener): Promise<{ caFile: string; connect: (req: IncomingMessage, socket: Duplex, head: Buffer) => void; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "envelope-realpath-tls-"));
  const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", `/CN=${host}`, "-addext", `subjectAltName=DNS:${host}`, "-addext", "basicConstraints=critical,CA:TRUE"], { stdio: "ignore" });
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const connect = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (req.url !== `${host}:443`) return void socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
    const upstream = netConnect(port, "127.0.0.1", () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  };
  return { caFile: cert, connect, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
