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
