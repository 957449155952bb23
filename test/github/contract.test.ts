// The fake GitHub's contract check is only worth something if it catches real mistakes:
// raw requests with the errors a client makes (a misspelt key, a wrong type, a missing
// field, an enum value, an unknown route, a missing header, a token in the body) are each
// refused with GitHub's 422 and listed; a correct one passes.
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { start, TOKEN, type FakeGitHub } from "./fake/index.js";
import { unknownKeys } from "./fake/contract.js";

let gh: FakeGitHub | undefined;
afterEach(async () => {
  await gh?.close();
  gh = undefined;
});

function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(path, gh!.url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { "user-agent": "contract-test", accept: "application/vnd.github+json", authorization: `token ${TOKEN}`, ...(text ? { "content-type": "application/json" } : {}), ...headers } }, (res) => {
      let data = "";
      res.on("data", (c: Buffer) => (data += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on("error", reject);
    req.end(text);
  });
}

describe("the fake GitHub checks requests against GitHub's OpenAPI description", () => {
  it("accepts a correct request", async () => {
    gh = await start();
    const r = await send("POST", "/user/repos", { name: "ok", private: false, auto_init: true });
    expect(r.status).toBe(201);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  it.each([
    ["a misspelt key", "POST", "/user/repos", { name: "x", privat: true }, /body\/privat: not a property GitHub defines/],
    ["a wrong type", "POST", "/user/repos", { name: 123 }, /body\/name: must be string/],
    ["a missing required field", "POST", "/user/repos", { private: true }, /body: must have required property 'name'/],
    ["an unknown key in a nested array item", "POST", "/repos/me/x/git/trees", { tree: [{ path: "a", mode: "100644", type: "blob", content: "", size: 1 }] }, /body\/tree\/0\/size: not a property/],
    ["a mode outside the enum", "POST", "/repos/me/x/git/trees", { tree: [{ path: "a", mode: "644", type: "blob", content: "" }] }, /body\/tree\/0\/mode: must be equal to one of the allowed values \(100644, 100755, 040000, 160000, 120000\)/],
    ["base_tree misspelt", "POST", "/repos/me/x/git/trees", { tree: [], basetree: "abc" }, /body\/basetree: not a property/],
    ["a commit author without email", "POST", "/repos/me/x/git/commits", { message: "m", tree: "t", author: { name: "n" } }, /body\/author: must have required property 'email'/],
    ["force as a string", "PATCH", "/repos/me/x/git/refs/heads%2Fmain", { sha: "abc", force: "yes" }, /body\/force: must be boolean/],
    ["an operation GitHub does not have", "POST", "/user/repositories", { name: "x" }, /POST \/user\/repositories: no such operation/],
    ["a query parameter the operation does not take", "GET", "/users/me?expand=1", undefined, /unknown query parameter expand/],
    ["the token in the body", "POST", "/user/repos", { name: "x", description: TOKEN }, /the token appears in the URL or body/],
  ])("refuses %s", async (_label, method, path, body, violation) => {
    gh = await start();
    const r = await send(method, path, body);
    expect(r.status).toBe(path === "/user/repositories" ? 404 : 422);
    expect(gh.violations.join("\n")).toMatch(violation);
  });

  it("refuses a request without User-Agent or with a strange Accept", async () => {
    gh = await start();
    await send("GET", "/users/me", undefined, { "user-agent": "" });
    await send("GET", "/users/me", undefined, { accept: "text/html" });
    expect(gh.violations).toEqual([expect.stringMatching(/no User-Agent header/), expect.stringMatching(/Accept header "text\/html" is not a GitHub media type/)]);
  });

  it("answers 401 without a known token, as GitHub does", async () => {
    gh = await start();
    expect((await send("GET", "/user", undefined, { authorization: "token nope" })).status).toBe(401);
  });

  it("the unknown-key walker follows allOf/anyOf/oneOf and leaves open objects alone", () => {
    const schema = { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "object", properties: { c: {} } } } }] };
    expect(unknownKeys(schema, { a: "x", b: { c: 1, d: 2 }, e: 3 }, "")).toEqual(["/b/d", "/e"]);
    expect(unknownKeys({ type: "object", additionalProperties: true, properties: {} }, { anything: 1 }, "")).toEqual([]);
  });

  it("the committed extract has the operations the extraction script lists, from @octokit/openapi 23.0.2", () => {
    const fixture = JSON.parse(readFileSync(new URL("./fixtures/github-openapi.json", import.meta.url), "utf8")) as { source: { package: string; version: string }; operations: Array<{ method: string; path: string }> };
    const script = readFileSync(new URL("../../scripts/extract-github-openapi.mjs", import.meta.url), "utf8");
    const listed = [...script.matchAll(/\["(get|post|patch|put|delete)", "([^"]+)"\]/g)].map((m) => `${m[1]!.toUpperCase()} ${m[2]}`);
    expect(fixture.source).toMatchObject({ package: "@octokit/openapi", version: "23.0.2" });
    expect(fixture.operations.map((o) => `${o.method} ${o.path}`)).toEqual(listed);
  });
});
