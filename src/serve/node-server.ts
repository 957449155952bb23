// The Node HTTP server under Fastify, set so that every request reaches Fastify's hooks
// (and so gets a problem+json answer, the security headers and a log line) where Node would
// otherwise answer, or drop it, on its own.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { refuseConnect } from "./client-errors.js";
import type { ServeSettings } from "./settings.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function nodeServer(settings: ServeSettings, handler: Handler, log: (line: object) => void): Server {
  const server = createServer(
    {
      // A client must send its whole request in time; a stalled one gets 408 and is closed.
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: Math.min(settings.requestTimeoutMs, 10_000),
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(settings.requestTimeoutMs / 4))),
      keepAliveTimeout: 5_000,
      // Node's own 400 for a missing Host has no body: onRequest refuses it instead.
      requireHostHeader: false,
    },
    handler,
  );
  // A client that sends its request and then shuts its side still gets the answer (Node's
  // default drops the request on the client's FIN: no answer, no log line).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // An Expect other than 100-continue: Node would answer a bare 417; onRequest answers it.
  server.on("checkExpectation", handler);
  // CONNECT never reaches the handler: without a listener Node drops the connection unanswered.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => refuseConnect(socket, log));
  return server;
}
