// One JSON line per request, written when its response closes, whether it finished or the
// client went away first. Fastify's onResponse runs only for a response that finished, so a
// client that aborted left no line at all; this one says `aborted: true` instead, with the
// status sent, or 499 (nginx's "client closed request") when no header went out.
import type { FastifyReply, FastifyRequest } from "fastify";

export function logWhenClosed(req: FastifyRequest, reply: FastifyReply): void {
  const res = reply.raw;
  res.once("close", () => {
    const aborted = !res.writableFinished;
    const cache = reply.getHeader("envelope-cache");
    req.log.info(
      {
        method: req.method,
        path: req.url.split("?")[0],
        status: aborted && !res.headersSent ? 499 : res.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ...(aborted ? { aborted: true } : {}),
        ...(cache ? { cache } : {}),
      },
      "request",
    );
  });
}

// What a stream says when the other end went away, not when the server failed.
const GONE = new Set(["ERR_STREAM_PREMATURE_CLOSE", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END", "ECONNRESET", "EPIPE"]);

/** True for an error that only says the client went away (and so cannot be answered). */
export function clientWentAway(error: Error & { code?: string }, reply: FastifyReply): boolean {
  const socket = reply.raw.socket;
  const gone = reply.raw.destroyed || !socket || socket.destroyed || !socket.writable;
  return gone && GONE.has(error.code ?? "");
}
