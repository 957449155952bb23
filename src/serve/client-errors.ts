// Requests Node's HTTP parser refused before they became requests (a bad request line,
// headers too large, a body not sent in time), and CONNECT, which Node never hands to the
// request handler: answered on the socket itself, as problem+json with the security headers
// like every other error, and logged.
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { SECURITY_HEADERS } from "./security-headers.js";

export const PROBLEM_TYPE = "urn:envelope-export:problem:";

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request-timeout", "the request was not received in time"],
  HPE_HEADER_OVERFLOW: [431, "headers-too-large", "the request headers are too large"],
};

export function answerClientError(err: Error & { code?: string }, socket: Socket, log: (line: object) => void): void {
  // As Node's own handler: nothing is written into a response already under way (a zip
  // streaming on a kept-alive connection), and the socket is closed in every case.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === "ECONNRESET" || !socket.writable || inFlight) {
    socket.destroy();
    return;
  }
  const [status, code, detail] = CLIENT_ERRORS[err.code ?? ""] ?? [400, "bad-request", "the request is not valid HTTP"];
  log({ status, code: err.code ?? "" });
  answerOnSocket(socket, status, code, detail);
}

/**
 * CONNECT: Node hands it to a "connect" listener, and with none drops the connection without
 * a word. This server is no proxy: 405, problem+json, and the connection closed.
 */
export function refuseConnect(socket: Duplex, log: (line: object) => void): void {
  log({ status: 405, method: "CONNECT" });
  answerOnSocket(socket, 405, "method-not-allowed", "this server is not a proxy: CONNECT is refused", { Allow: "GET, HEAD, POST" });
}

function answerOnSocket(socket: Duplex, status: number, code: string, detail: string, extra: Record<string, string> = {}): void {
  const title = STATUS_CODES[status] ?? "Bad Request";
  const body = JSON.stringify({ type: PROBLEM_TYPE + code, title, status, detail });
  const headers = Object.entries({ ...SECURITY_HEADERS, ...extra }).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json; charset=utf-8\r\n${headers}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // A client that never closes its side does not keep the socket.
  if ("destroySoon" in socket && typeof socket.destroySoon === "function") socket.destroySoon();
  else socket.once("finish", () => socket.destroy());
}
