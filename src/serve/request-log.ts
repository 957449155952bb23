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

/** True once the client can no longer be answered: there is nothing to send, or to log as a failure. */
export function clientGone(reply: FastifyReply): boolean {
  const socket = reply.raw.socket;
  return reply.raw.destroyed || !socket || socket.destroyed || !socket.writable;
}
