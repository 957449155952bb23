// Connections that end early or oddly, over raw sockets: a client that half-closes still gets
// its answer, one that goes away is logged once (aborted, no stack trace), and every error
// answer — even one Node's parser gives — is problem+json with the security headers.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bigTeam, EXAMPLE, serve, type Served } from "./helpers.js";

let s: Served;
beforeAll(async () => {
  s = await serve({ workers: 1 });
});
afterAll(async () => {
  await s.close();
});

function open(): Promise<{ sock: Socket; received: Promise<string>; firstData: Promise<void> }> {
  const url = new URL(s.url);
  const sock = connect(Number(url.port), url.hostname);
  let data = "";
  let first!: () => void;
  const firstData = new Promise<void>((r) => (first = r));
  const received = new Promise<string>((resolve) => {
    sock.on("data", (d) => {
      data += d.toString("latin1");
      first();
    });
    sock.on("close", () => resolve(data));
    sock.on("error", () => resolve(data));
  });
  return new Promise((r) => sock.once("connect", () => r({ sock, received, firstData })));
}

const post = (path: string, body: string | Buffer, headers = "") =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n`;

/** The request lines logged for one request id, once the server has had time to write them. */
async function linesFor(id: string): Promise<Array<Record<string, unknown>>> {
  await new Promise((r) => setTimeout(r, 300));
  return s.logs.filter((l) => l.reqId === id);
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("early and odd endings", () => {
  it("a client that half-closes after its request gets the answer, logged once", async () => {
    const { sock, received } = await open();
    sock.write(post("/v1/validate", EXAMPLE, "X-Request-Id: half-closed\r\n"));
    sock.end(EXAMPLE);
    const answer = await received;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"valid":true');
    expect(await linesFor("half-closed")).toMatchObject([{ msg: "request", status: 200 }]);
  });

  it("a client that goes away before the answer is logged once, aborted, without a stack", async () => {
    const body = bigTeam(3000);
    const { sock } = await open();
    sock.write(post("/v1/exports?target=langgraph", body, "X-Request-Id: gone-early\r\nAccept: application/json\r\n"));
    sock.write(body);
    await settle(50);
    sock.resetAndDestroy(); // a FIN alone would read as a half-close, still answered
    await settle(3000);
    const lines = await linesFor("gone-early");
    expect(lines).toMatchObject([{ msg: "request", status: 499, aborted: true }]);
    expect(s.logText()).not.toContain("internal error");
  }, 20_000);

  it("a client that goes away mid-zip is logged once, aborted, without a stack", async () => {
    const body = bigTeam(3000);
    const { sock, firstData } = await open();
    sock.write(post("/v1/exports?target=langgraph", body, "X-Request-Id: gone-mid-zip\r\n"));
    sock.write(body);
    await firstData;
    sock.destroy();
    await settle(3000);
    const lines = await linesFor("gone-mid-zip");
    expect(lines).toMatchObject([{ msg: "request", status: 200, aborted: true }]);
    expect(s.logText()).not.toMatch(/internal error|"stack"|zip stream aborted/);
  }, 20_000);

  it("a flood of clients that go away: one line each, no internal error", async () => {
    const before = s.logs.length;
    const n = 60;
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const { sock } = await open();
        const body = i % 2 ? EXAMPLE : Buffer.from(bigTeam(300));
        sock.write(post(i % 3 ? "/v1/validate" : "/v1/exports?target=crewai", body, `X-Request-Id: flood-${i}\r\n`));
        sock.write(body);
        await settle(i % 10);
        if (i % 4) sock.resetAndDestroy();
        else sock.destroy();
      }),
    );
    await settle(4000);
    const lines = s.logs.slice(before);
    for (let i = 0; i < n; i++) expect(lines.filter((l) => l.reqId === `flood-${i}`).length, `flood-${i}`).toBeLessThanOrEqual(1);
    expect(lines.filter((l) => l.msg !== "request"), JSON.stringify(lines.filter((l) => l.msg !== "request").slice(0, 3))).toEqual([]);
    expect(s.logText()).not.toMatch(/internal error|"stack"/);
  }, 30_000);
});

/** The status, headers (lower-cased names) and parsed body of a raw answer. */
function parse(answer: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = "", ...rest] = answer.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  const text = rest.join("\r\n\r\n");
  return { status: Number(statusLine.split(" ")[1]), headers, body: text ? JSON.parse(text) : undefined };
}

async function ask(request: string): Promise<ReturnType<typeof parse>> {
  const { sock, received } = await open();
  sock.end(request);
  return parse(await received);
}

describe("every error answer is problem+json with the security headers", () => {
  const cases: Array<[string, string, number]> = [
    ["no Host on HTTP/1.1", "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", 400],
    ["two Host headers", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n", 400],
    ["Expect: bogus", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nExpect: bogus\r\nConnection: close\r\n\r\n", 417],
    ["a path that is not valid percent-encoding", "GET /%ff HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 400],
    ["a request line that is not HTTP", "GET / HTTP/1.1 extra\r\n\r\n", 400],
    // This server is no proxy: an absolute-form target naming another host is refused, and so is CONNECT.
    ["an absolute-form target naming another host", "GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 400],
    ["an absolute-form target in another scheme", "GET ftp://127.0.0.1/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 400],
    ["CONNECT", "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n", 405],
  ];
  for (const [what, request, status] of cases) {
    it(what, async () => {
      const before = s.logs.length;
      const a = await ask(request);
      expect(a.status).toBe(status);
      expect(a.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
      expect(a.headers).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer" });
      expect(a.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(a.body).toMatchObject({ type: expect.stringMatching(/^urn:envelope-export:problem:/), status });
      await settle(100);
      expect(s.logs.slice(before).filter((l) => l.msg === "request")).toMatchObject([{ status }]);
    });
  }
  it("an absolute-form target naming this server is answered as its path (RFC 9112 §3.2.2)", async () => {
    const { host } = new URL(s.url);
    const a = await ask(`GET http://${host}/healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ status: "ok" });
    const api = await ask(`GET http://${host}/v1/session HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(api.headers["cache-control"]).toBe("no-store");
  });
  it("CONNECT is answered with Allow and the connection closed, not dropped", async () => {
    const a = await ask("CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n");
    expect(a.headers).toMatchObject({ allow: "GET, HEAD, POST", connection: "close" });
    expect(a.body).toMatchObject({ type: "urn:envelope-export:problem:method-not-allowed", status: 405 });
  });
  it("Expect: 100-continue is met", async () => {
    const { sock, received } = await open();
    sock.end(post("/v1/validate", EXAMPLE, "Expect: 100-continue\r\nConnection: close\r\n") + EXAMPLE.toString());
    expect(await received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });
});

describe("shutting down", () => {
  it("a request that arrives on an open connection while the server closes gets a problem+json 503 and the connection closes; the one in flight is answered", async () => {
    const own = await serve({ workers: 1, logLevel: "debug" });
    try {
      const url = new URL(own.url);
      const sock = connect(Number(url.port), url.hostname);
      const received = new Promise<string>((resolve) => {
        let data = "";
        sock.on("data", (d) => (data += d.toString("latin1")));
        sock.on("close", () => resolve(data));
        sock.on("error", () => resolve(data));
      });
      await new Promise<void>((r) => sock.once("connect", () => r()));
      const half = Math.floor(EXAMPLE.length / 2);
      sock.write(post("/v1/validate", EXAMPLE));
      sock.write(EXAMPLE.subarray(0, half));
      await expect.poll(() => own.logs.some((l) => l.msg === "incoming")).toBe(true);
      const closed = own.close();
      // The rest of the body, and a second request behind it on the same connection.
      sock.write(Buffer.concat([EXAMPLE.subarray(half), Buffer.from("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")]));
      const data = await received;
      await closed;
      const answers = data.split(/(?=HTTP\/1\.1 )/);
      expect(answers.length, data).toBe(2);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
      expect(answers[1]).toMatch(/content-type: application\/problem\+json/i);
      expect(answers[1]).toMatch(/x-request-id: /i);
      expect(answers[1]).toMatch(/connection: close/i);
      expect(answers[1]).toContain('"type":"urn:envelope-export:problem:shutting-down"');
    } finally {
      await own.close();
    }
  }, 30_000);
});
