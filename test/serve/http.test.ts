// The HTTP API of `envelope serve`, route by route and error by error, over real HTTP. Every
// answer is checked against the server's /openapi.json (helpers.ts `call`).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../src/serve/server.js";
import { validate } from "../../src/validate/validate.js";
import { BODY_LIMIT } from "../../src/serve/settings.js";
import { answerLimit } from "../../src/serve/answer-bound.js";
import { targetNames } from "../../src/targets/index.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { validDefinitions } from "../helpers/export.js";
import { bigTeam, call, contractOf, EXAMPLE, EXAMPLE_PATH, post, rawRequest, serve, type Served } from "./helpers.js";

let s: Served;
beforeAll(async () => {
  s = await serve({ workers: 2 });
});
afterAll(async () => {
  await s.close();
});

const tmp = mkdtempSync(join(tmpdir(), "envelope-serve-"));
async function cliZip(path: string, target: string): Promise<Buffer> {
  const zip = join(tmp, `${target}-${Math.random().toString(36).slice(2)}.zip`);
  const r = await runCli(["export", path, "--target", target, "--zip", zip]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(zip);
}

describe("GET routes", () => {
  it("/healthz answers ok with the version, also to HEAD", async () => {
    const a = await call(s, "GET", "/healthz");
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: "ok", version: expect.any(String) });
    expect((await call(s, "HEAD", "/healthz")).status).toBe(200);
  });
  it("/v1/targets lists every target", async () => {
    const a = await call(s, "GET", "/v1/targets");
    expect(a.json.targets.map((t: { name: string }) => t.name)).toEqual(targetNames());
  });
  it("/openapi.json describes exactly the API routes the server has", async () => {
    const a = await call(s, "GET", "/openapi.json");
    expect(a.json.openapi).toBe("3.1.0");
    const described = Object.entries(a.json.paths as Record<string, Record<string, unknown>>).map(([p, ops]) => `${p} ${Object.keys(ops).sort().join(",")}`);
    const served = Object.entries(ROUTES)
      .filter(([p]) => p !== "/")
      .map(([p, methods]) => `${p} ${methods.filter((m) => m !== "HEAD").map((m) => m.toLowerCase()).sort().join(",")}`);
    expect(described.sort()).toEqual(served.sort());
    for (const [url, methods] of Object.entries(ROUTES)) {
      for (const method of methods) expect(s.server.app.hasRoute({ url, method: method as "GET" }), `${method} ${url}`).toBe(true);
    }
  });
  it("the page: /, its assets, a strict CSP, ETags", async () => {
    const page = await call(s, "GET", "/", { unchecked: true });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const csp = page.headers.get("content-security-policy")!;
    for (const d of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "require-trusted-types-for 'script'", "frame-ancestors 'none'"]) expect(csp).toContain(d);
    // What the page loads (src, a <link>'s href) comes from its own origin. A link a person
    // follows is no load: only GitHub's token pages, opened apart (noopener), are linked.
    for (const tag of page.text.matchAll(/<(\w+)\b[^>]*?\b(?:src|href)="([^"]+)"[^>]*>/g)) {
      const [whole, name, url] = tag as unknown as [string, string, string];
      if (name === "a" && url.startsWith("https://github.com/settings/")) {
        expect(whole, "a link out opens apart").toMatch(/rel="noopener noreferrer"/);
        continue;
      }
      expect(url, "the page loads only from its own origin").toMatch(/^\/(assets\/|#)|^#/);
      if (url.startsWith("/assets/")) expect((await call(s, "GET", url, { unchecked: true })).status).toBe(200);
    }
    const again = await fetch(`${s.url}/`, { headers: { "if-none-match": page.headers.get("etag")! } });
    expect(again.status).toBe(304);
    const prism = await call(s, "GET", "/assets/prism.js", { unchecked: true });
    expect(prism.text).toContain("Prism.languages.python");
  });
  it("unknown paths are 404, known paths with another method 405 with Allow", async () => {
    const missing = await call(s, "GET", "/nope", { unchecked: true });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("application/problem+json");
    const wrong = await call(s, "GET", "/v1/exports", { unchecked: true });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(wrong.json.type).toBe("urn:envelope-export:problem:method-not-allowed");
    // Path tricks reach no file: assets are a fixed table.
    for (const p of ["/assets/../package.json", "/assets/%2e%2e/package.json", "/assets/app.js/..%2f..%2fpackage.json", "//etc/passwd"]) {
      const a = await call(s, "GET", p, { unchecked: true });
      expect([400, 404], p).toContain(a.status);
      expect(a.text).not.toContain("envelope-export\",");
    }
  });
});

describe("POST /v1/validate", () => {
  it("answers the CLI's diagnostics for every invalid fixture: same codes, pointers, lines, columns", async () => {
    const dir = join(ROOT, "test/fixtures/invalid");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const path = join(dir, f);
      const cli = JSON.parse((await runCli(["validate", path, "--format", "json"])).stdout).files[0];
      const a = await post(s, "/v1/validate", readFileSync(path));
      expect(a.json.diagnostics, f).toEqual(cli.diagnostics);
      // A body that is no readable JSON object is 400; a readable, invalid one is 200 with valid: false.
      const readable = validate(readFileSync(path)).document !== undefined;
      expect(a.status, f).toBe(readable ? 200 : 400);
      if (readable) expect(a.json.valid, f).toBe(cli.valid);
      else expect(a.json.type).toBe("urn:envelope-export:problem:malformed-definition");
    }
  });
  it("a valid definition: valid, no diagnostics", async () => {
    const a = await post(s, "/v1/validate", EXAMPLE);
    expect(a.json).toEqual({ valid: true, errors: 0, warnings: 0, diagnostics: [] });
  });
  it("identical diagnostics come once, with a count (as in the CLI)", async () => {
    const def = JSON.parse(EXAMPLE.toString());
    def.agents[0].prompt = "Use {{NOPE}}. ".repeat(400);
    const a = await post(s, "/v1/validate", JSON.stringify(def, null, 2));
    const unknown = a.json.diagnostics.filter((d: { code: string }) => d.code === "W_PLACEHOLDER_UNKNOWN");
    expect(unknown).toMatchObject([{ pointer: "/agents/0/prompt", count: 400 }]);
    expect(a.json.warnings).toBe(a.json.diagnostics.length);
  });
  it("strict=true turns warnings into errors, like --strict", async () => {
    const def = JSON.parse(EXAMPLE.toString());
    def.schedule = { type: "continuous" };
    const text = JSON.stringify(def, null, 2);
    const lax = await post(s, "/v1/validate", text);
    expect(lax.json).toMatchObject({ valid: true, warnings: 1 });
    const strict = await post(s, "/v1/validate?strict=true", text);
    expect(strict.json).toMatchObject({ valid: false, errors: 1, warnings: 0 });
    expect(strict.json.diagnostics[0].code).toBe("W_SCHEDULE_CONTINUOUS");
  });
  it("malformed JSON is 400 with the position; an empty body too", async () => {
    const a = await post(s, "/v1/validate", '{\n  "name": "x",\n}');
    expect(a.status).toBe(400);
    expect(a.json.diagnostics[0]).toMatchObject({ code: "E_JSON_SYNTAX", line: 2, column: 14 });
    expect(a.json.detail).toContain("line 2, column 14");
    const empty = await post(s, "/v1/validate", "");
    expect(empty.status).toBe(400);
    expect(empty.json.diagnostics[0].code).toBe("E_EMPTY_FILE");
    const notUtf8 = await post(s, "/v1/validate", new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.json.diagnostics[0].code).toBe("E_ENCODING");
  });
  it("accepts application/*+json and a UTF-8 charset; refuses other media types and charsets with 415", async () => {
    expect((await post(s, "/v1/validate", EXAMPLE, { "content-type": "application/vnd.envelope+json" })).status).toBe(200);
    expect((await post(s, "/v1/validate", EXAMPLE, { "content-type": "application/json; charset=UTF-8" })).status).toBe(200);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16"]) {
      const a = await post(s, "/v1/validate", EXAMPLE, { "content-type": type });
      expect(a.status, type).toBe(415);
      expect(a.json.type).toBe("urn:envelope-export:problem:unsupported-media-type");
    }
    const none = await call(s, "POST", "/v1/validate");
    expect(none.status).toBe(415);
  });
  it("refuses unknown or repeated query parameters and bad flags", async () => {
    expect((await post(s, "/v1/validate?strcit=true", EXAMPLE)).status).toBe(400);
    expect((await post(s, "/v1/validate?strict=true&strict=false", EXAMPLE)).status).toBe(400);
    expect((await post(s, "/v1/validate?strict=maybe", EXAMPLE)).status).toBe(400);
  });
});

describe("POST /v1/exports", () => {
  it("answers a zip byte-identical to `envelope export --zip`, for every shipped definition and target", async () => {
    for (const def of validDefinitions()) {
      for (const target of ["crewai", "langgraph"]) {
        const a = await post(s, `/v1/exports?target=${target}`, readFileSync(def.path));
        expect(a.status, `${def.name} ${target}`).toBe(200);
        expect(a.headers.get("content-type")).toBe("application/zip");
        expect(Buffer.compare(a.bytes, await cliZip(def.path, target)), `${def.name} ${target}: the zip differs from the CLI's`).toBe(0);
        expect(a.headers.get("content-disposition")).toMatch(/^attachment; filename="[A-Za-z0-9._-]+-(crewai|langgraph)\.zip"$/);
      }
    }
  });
  it("a zip computed now is streamed (chunked, no Content-Length); asked again, it comes whole from the cache, the same bytes", async () => {
    // 1500 agents: an archive of several worker messages (64 kB each), not one.
    const path = join(tmp, "streamed.envelope.json");
    writeFileSync(path, bigTeam(1500, `Streamed ${Date.now()}.`));
    const body = readFileSync(path);
    const first = await post(s, "/v1/exports?target=crewai", body);
    expect(first.status).toBe(200);
    expect(first.headers.get("envelope-cache")).toBe("miss");
    expect(first.headers.get("content-length")).toBeNull();
    expect(first.headers.get("transfer-encoding")).toBe("chunked");
    expect(first.bytes.length).toBeGreaterThan(2 * 64 * 1024);
    const cli = await cliZip(path, "crewai");
    expect(Buffer.compare(first.bytes, cli), "the streamed zip differs from the CLI's").toBe(0);
    const again = await post(s, "/v1/exports?target=crewai", body);
    expect(again.headers.get("envelope-cache")).toBe("hit");
    expect(again.headers.get("content-length")).toBe(String(cli.length));
    expect(Buffer.compare(again.bytes, cli), "the cached zip differs from the CLI's").toBe(0);
  });
  it("a streamed zip refused after its first bytes (inline runner past the time limit) never arrives as a whole answer", async () => {
    const inline = await serve({ workers: 0, timeoutMs: 100, cacheBytes: 0 });
    try {
      // Either no answer (the connection closes first), an error status, or a body that fails.
      const whole = await fetch(`${inline.url}/v1/exports?target=crewai`, { method: "POST", headers: { "content-type": "application/json" }, body: bigTeam(1500) }).then(
        (res) => res.arrayBuffer().then(() => res.status === 200, () => false),
        () => false,
      );
      expect(whole, "a cut archive was delivered as complete").toBe(false);
      // The inline runner streams the whole archive and only then refuses it: the abort path.
      expect(inline.logs.some((l) => l.msg === "zip stream aborted")).toBe(true);
    } finally {
      await inline.close();
    }
  });
  it("headers carry the loss counts and warnings; the zip is the default for */* and no Accept", async () => {
    const a = await post(s, "/v1/exports?target=crewai", EXAMPLE, { accept: "*/*" });
    expect(a.headers.get("content-disposition")).toBe('attachment; filename="support-tier-crewai.zip"');
    const cli = JSON.parse((await runCli(["export", EXAMPLE_PATH, "--target", "crewai", "--dry-run", "--json"])).stdout);
    const c = cli.loss.counts;
    expect(a.headers.get("envelope-loss")).toBe(`carried=${c.carried}, approximated=${c.approximated}, dropped=${c.dropped}`);
    expect(a.headers.get("envelope-warnings")).toBe("0");
    expect(a.headers.get("vary")).toBe("Accept");
    expect(a.headers.get("cache-control")).toBe("no-store");
  });
  it("Accept: application/json answers the files with their contents, the loss report and the diagram", async () => {
    const a = await post(s, "/v1/exports?target=langgraph", EXAMPLE, { accept: "application/json" });
    expect(a.status).toBe(200);
    const out = join(tmp, "lg");
    await runCli(["export", EXAMPLE_PATH, "--target", "langgraph", "--out", out]);
    const cli = JSON.parse((await runCli(["export", EXAMPLE_PATH, "--target", "langgraph", "--dry-run", "--json"])).stdout);
    expect(a.json.files.map((f: { path: string }) => f.path)).toEqual(cli.files.map((f: { path: string }) => f.path));
    // The answer stays within 3 × request + 2 MiB: a preview over it whole has contents left
    // out by fitPreview, largest first, until it fits (every other file has its content; the
    // zip is unaffected). The example's fits whole since the pristine record keeps uv.lock by
    // its hash; bounded.test.ts makes previews that do not.
    expect(a.bytes.length).toBeLessThanOrEqual(answerLimit(EXAMPLE.length));
    const bySize = [...a.json.files]
      .map((f: { path: string }) => f.path)
      .sort((x: string, y: string) => {
        const size = (path: string) => Buffer.byteLength(JSON.stringify(readFileSync(join(out, path), "utf8")));
        return size(y) - size(x);
      });
    const omitted = a.json.files.filter((f: { encoding: string }) => f.encoding === "omitted").map((f: { path: string }) => f.path);
    expect([...omitted].sort()).toEqual(bySize.slice(0, omitted.length).sort());
    expect(a.json.contentOmitted ?? 0).toBe(omitted.length);
    for (const f of a.json.files) {
      expect(f.mode).toBe(cli.files.find((c: { path: string }) => c.path === f.path).mode);
      expect(f.size, f.path).toBe(readFileSync(join(out, f.path)).length);
      if (f.encoding === "omitted") {
        expect(f.content, f.path).toBe("");
        continue;
      }
      expect(f.encoding, f.path).toBe("utf-8");
      expect(f.content, f.path).toBe(readFileSync(join(out, f.path), "utf8"));
    }
    expect(a.json.loss).toEqual(cli.loss);
    expect(a.json.name).toBe("support-tier");
    expect(a.json.diagram.nodes.filter((n: { kind: string }) => n.kind === "agent")).toHaveLength(3);
  });
  it("406 when neither zip nor JSON is acceptable; q-values are honoured", async () => {
    expect((await post(s, "/v1/exports?target=crewai", EXAMPLE, { accept: "text/html" })).status).toBe(406);
    expect((await post(s, "/v1/exports?target=crewai", EXAMPLE, { accept: "application/zip;q=0, application/json;q=0" })).status).toBe(406);
    const json = await post(s, "/v1/exports?target=crewai", EXAMPLE, { accept: "application/zip;q=0.5, application/json" });
    expect(json.headers.get("content-type")).toContain("application/json");
    const zip = await post(s, "/v1/exports?target=crewai", EXAMPLE, { accept: "application/zip, application/json;q=0.9" });
    expect(zip.headers.get("content-type")).toBe("application/zip");
  });
  it("an invalid definition is 422 with the diagnostics; strict loss is 422 with the loss report", async () => {
    const bad = await post(s, "/v1/exports?target=crewai", JSON.stringify({ ...JSON.parse(EXAMPLE.toString()), slug: "Not A Slug" }, null, 2));
    expect(bad.status).toBe(422);
    expect(bad.json.type).toBe("urn:envelope-export:problem:invalid-definition");
    expect(bad.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PATTERN", pointer: "/slug", line: 4 })]);
    const lossy = await post(s, "/v1/exports?target=crewai&strict=true", EXAMPLE);
    expect(lossy.status).toBe(422);
    expect(lossy.json.type).toBe("urn:envelope-export:problem:lossy-export");
    expect(lossy.json.loss.entries.length).toBeGreaterThan(10);
    expect(lossy.json.detail).toMatch(/not fully carried/);
    const malformed = await post(s, "/v1/exports?target=crewai", "[1, 2");
    expect(malformed.status).toBe(400);
  });
  it("the target is required and checked", async () => {
    const none = await post(s, "/v1/exports", EXAMPLE);
    expect(none.status).toBe(400);
    expect(none.json.targets).toEqual(targetNames());
    const unknown = await post(s, "/v1/exports?target=autogen", EXAMPLE);
    expect(unknown.status).toBe(400);
    expect(unknown.json.type).toBe("urn:envelope-export:problem:unknown-target");
    expect((await post(s, "/v1/exports?target=__proto__", EXAMPLE)).status).toBe(400);
  });
  it("a repeated request is answered from the cache, with the same bytes", async () => {
    const body = JSON.stringify({ ...JSON.parse(EXAMPLE.toString()), description: "cache check" }, null, 2);
    const first = await post(s, "/v1/exports?target=crewai", body);
    const second = await post(s, "/v1/exports?target=crewai", body);
    expect(first.headers.get("envelope-cache")).toBe("miss");
    expect(second.headers.get("envelope-cache")).toBe("hit");
    expect(Buffer.compare(first.bytes, second.bytes)).toBe(0);
  });
});

describe("limits", () => {
  it("a body over 1 MiB is 413, with or without Content-Length", async () => {
    const big = Buffer.alloc(BODY_LIMIT + 1, 0x20);
    const a = await post(s, "/v1/validate", big);
    expect(a.status).toBe(413);
    expect(a.json.type).toBe("urn:envelope-export:problem:payload-too-large");
    // Chunked, so the server cannot refuse by the header and must count while reading.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        c.close();
      },
    });
    const res = await fetch(`${s.url}/v1/exports?target=crewai`, { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    const exactly = Buffer.alloc(BODY_LIMIT, 0x20);
    exactly[0] = 0x7b;
    expect((await post(s, "/v1/validate", exactly)).status, "1 MiB itself is read (and is malformed JSON)").toBe(400);
  });
  it("a definition at the limit is validated", async () => {
    const team = bigTeam(3700);
    expect(team.length).toBeLessThan(BODY_LIMIT);
    expect(team.length).toBeGreaterThan(BODY_LIMIT * 0.9);
    const a = await post(s, "/v1/validate", team);
    expect(a.json.valid).toBe(true);
  });
  it("the Host header must name this machine when bound to loopback (DNS rebinding)", async () => {
    const res = await rawRequest(s, "GET /healthz HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n");
    expect(res).toMatch(/^HTTP\/1\.1 403/);
    expect(res).toContain("host-not-allowed");
    expect((await call(s, "GET", "/healthz", { headers: { host: "localhost" } })).status).toBe(200);
  });
  it("keeps an incoming request id that is a plain token, and makes one otherwise", async () => {
    expect((await call(s, "GET", "/healthz", { headers: { "x-request-id": "lb-1234" } })).headers.get("x-request-id")).toBe("lb-1234");
    expect((await call(s, "GET", "/healthz", { headers: { "x-request-id": "bad id with spaces" } })).headers.get("x-request-id")).not.toContain("bad");
  });
});

describe("load", () => {
  it("64 concurrent exports of different definitions all succeed, each with its own CLI-identical zip", async () => {
    const bodies = Array.from({ length: 64 }, (_, i) => JSON.stringify({ ...JSON.parse(EXAMPLE.toString()), description: `Concurrent ${i}.` }, null, 2));
    const answers = await Promise.all(bodies.map((b, i) => post(s, `/v1/exports?target=${i % 2 ? "langgraph" : "crewai"}`, b)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    for (const i of [0, 1, 63]) {
      const path = join(tmp, `concurrent-${i}.envelope.json`);
      (await import("node:fs")).writeFileSync(path, bodies[i]!);
      expect(Buffer.compare(answers[i]!.bytes, await cliZip(path, i % 2 ? "langgraph" : "crewai"))).toBe(0);
    }
    // Identical requests in flight together share one export: one miss, fifteen hits.
    const fresh = JSON.stringify({ ...JSON.parse(EXAMPLE.toString()), description: `In flight ${Date.now()}.` });
    const misses = s.server.cache.stats().misses;
    const same = await Promise.all(Array.from({ length: 16 }, () => post(s, "/v1/exports?target=crewai", fresh)));
    expect(same.map((a) => a.headers.get("envelope-cache")).sort()).toEqual([...Array(15).fill("hit"), "miss"]);
    expect(s.server.cache.stats().misses).toBe(misses + 1);
    expect(new Set(same.map((a) => a.bytes.toString("base64"))).size).toBe(1);
  });
});

describe("the request log", () => {
  it("one JSON line per request: id, method, path, status, time; never a body or a query", async () => {
    const marker = "Z9-UNIQUE-BODY-MARKER";
    await post(s, "/v1/validate?strict=false", JSON.stringify({ ...JSON.parse(EXAMPLE.toString()), description: marker }));
    const line = s.logs.filter((l) => l.msg === "request" && l.path === "/v1/validate").at(-1)!;
    expect(line).toMatchObject({ method: "POST", path: "/v1/validate", status: 200, reqId: expect.any(String), ms: expect.any(Number) });
    expect(s.logText()).not.toContain(marker);
    expect(s.logText()).not.toContain("strict=false");
  });
});

describe("a stressed server", () => {
  it("a slow client gets 408 and is closed, while others are served", async () => {
    const slow = await serve({ requestTimeoutMs: 400 });
    try {
      const answer = rawRequest(slow, `POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
      // While that client stalls, another is served.
      expect((await call(slow, "GET", "/healthz")).status).toBe(200);
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(text).toContain("Content-Type: application/problem+json");
      expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ type: "urn:envelope-export:problem:request-timeout", status: 408 });
    } finally {
      await slow.close();
    }
  });
  it("requests Node's parser refuses (bad request line, headers too large) are answered as problem+json", async () => {
    const raw = (request: string) => rawRequest(s, request);
    const badLine = await raw("GET ?x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(badLine).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*Content-Type: application\/problem\+json/);
    const huge = await raw(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(huge.slice(huge.indexOf("\r\n\r\n") + 4))).toMatchObject({ type: "urn:envelope-export:problem:headers-too-large", status: 431 });
  });
  it("at the concurrency bound the extra requests get 503 with Retry-After; the rest succeed", async () => {
    const busy = await serve({ workers: 1, maxQueue: 0 });
    try {
      const bodies = Array.from({ length: 6 }, (_, i) => bigTeam(1000, `Busy ${i}.`));
      const answers = await Promise.all(bodies.map((b) => post(busy, "/v1/exports?target=crewai", b)));
      const statuses = answers.map((a) => a.status);
      expect(statuses).toContain(200);
      expect(statuses).toContain(503);
      expect(statuses.every((st) => st === 200 || st === 503)).toBe(true);
      const refused = answers.find((a) => a.status === 503)!;
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.json.type).toBe("urn:envelope-export:problem:overloaded");
    } finally {
      await busy.close();
    }
  });
  it("an export over the time limit is stopped (503) and the worker replaced; the next request is served", async () => {
    const limited = await serve({ workers: 1, timeoutMs: 100 });
    try {
      const a = await post(limited, "/v1/exports?target=crewai", bigTeam(1500));
      expect(a.status).toBe(503);
      expect(a.json.type).toBe("urn:envelope-export:problem:time-limit");
      expect(limited.server.runner.stats().restarts).toBe(1);
      await limited.server.runner.ready();
      const small = JSON.stringify({ $schema: "https://schema.openenvelope.org/team/v1.json", name: "T", slug: "t", version: "1.0.0", description: "d", visibility: "private", agents: [{ key: "a", name: "A", title: "A", role: "manager" }] });
      expect((await post(limited, "/v1/validate", small)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("contract", () => {
  it("no answer in this file broke openapi.json", async () => {
    expect((await contractOf(s)).violations).toEqual([]);
  });
});
