// POST /v1/exports/github against the fake GitHub: the repository holds exactly the CLI's
// export, failures map to statuses with the publisher's kind, and the caller's token appears
// in no answer and no log line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { TARGETS } from "../../src/targets/index.js";
import { start, TOKEN, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract, expectRepositoryEquals } from "../github/helpers.js";
import { definition } from "../helpers/reexport-desk.js";
import { call, EXAMPLE, post, serve, type Served } from "./helpers.js";

let gh: FakeGitHub;
let s: Served;
beforeAll(async () => {
  gh = await start({ existing: ["me/taken"] });
  s = await serve({ githubApiUrl: gh.url, githubDelayScale: 0 });
});
afterAll(async () => {
  await s?.close();
  await gh?.close();
});

const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

describe("POST /v1/exports/github", () => {
  it("creates the repository: one commit holding exactly the CLI's export", async () => {
    const a = await post(s, "/v1/exports/github?target=langgraph&repository=me/support-tier&description=From%20the%20page", EXAMPLE, auth());
    expect(a.status, a.text).toBe(201);
    expect(a.json).toMatchObject({ fullName: "me/support-tier", private: false, target: "langgraph", loss: { carried: expect.any(Number) } });
    expect(a.headers.get("location")).toBe(a.json.url);
    const files = exportDefinition(EXAMPLE, TARGETS.langgraph!).files!;
    expectRepositoryEquals(gh, "me", "support-tier", files);
    expectCleanContract(gh);
    const created = gh.requests.find((r) => r.operationId === "repos/create-for-authenticated-user");
    expect(created?.body).toMatchObject({ name: "support-tier", private: false, description: "From the page" });
  });
  it("private=true and an organization owner", async () => {
    const a = await post(s, "/v1/exports/github?target=crewai&repository=acme/support&private=true", EXAMPLE, auth());
    expect(a.status, a.text).toBe(201);
    expect(a.json).toMatchObject({ fullName: "acme/support", private: true });
  });
  it("no token: 401 with WWW-Authenticate, before anything is exported or sent", async () => {
    const before = gh.requests.length;
    const a = await post(s, "/v1/exports/github?target=crewai&repository=me/x", EXAMPLE);
    expect(a.status).toBe(401);
    expect(a.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(gh.requests.length).toBe(before);
  });
  it("a rejected token: 401 bad-credentials", async () => {
    const a = await post(s, "/v1/exports/github?target=crewai&repository=me/x", EXAMPLE, auth("wrong-token-123456"));
    expect(a.status).toBe(401);
    expect(a.json).toMatchObject({ type: "urn:envelope-export:problem:github-bad-credentials", kind: "bad-credentials" });
    expect(a.text).not.toContain("wrong-token-123456");
  });
  it("a taken name: 409 with free names", async () => {
    const a = await post(s, "/v1/exports/github?target=crewai&repository=me/taken", EXAMPLE, auth());
    expect(a.status).toBe(409);
    expect(a.json.kind).toBe("name-taken");
    expect(a.json.suggestions.length).toBeGreaterThan(0);
  });
  it("an unknown owner: 404 owner-not-found", async () => {
    const a = await post(s, "/v1/exports/github?target=crewai&repository=nobody-here/x", EXAMPLE, auth());
    expect(a.status).toBe(404);
    expect(a.json.kind).toBe("owner-not-found");
  });
  it("bad input is refused before GitHub is asked", async () => {
    const before = gh.requests.length;
    expect((await post(s, "/v1/exports/github?target=crewai", EXAMPLE, auth())).status).toBe(400);
    expect((await post(s, "/v1/exports/github?target=crewai&repository=no-slash", EXAMPLE, auth())).status).toBe(400);
    expect((await post(s, "/v1/exports/github?target=crewai&repository=me/bad%20name", EXAMPLE, auth())).status).toBe(400);
    expect((await post(s, `/v1/exports/github?target=crewai&repository=me/x&description=${"d".repeat(351)}`, EXAMPLE, auth())).status).toBe(400);
    const invalid = await post(s, "/v1/exports/github?target=crewai&repository=me/x", '{"name": 1}', auth());
    expect(invalid.status).toBe(422);
    expect(invalid.json.diagnostics.length).toBeGreaterThan(0);
    // A bad flag is the caller's 400, never a GitHub failure (it was read inside the publish).
    for (const q of ["private=maybe", "private=", "strict=TRUE"]) {
      const bad = await post(s, `/v1/exports/github?target=crewai&repository=me/x&${q}`, EXAMPLE, auth());
      expect(bad.status, q).toBe(400);
      expect(bad.json.type, q).toBe("urn:envelope-export:problem:bad-request");
    }
    // Where the token goes is the server's setting, never the request's.
    expect((await post(s, "/v1/exports/github?target=crewai&repository=me/x&apiUrl=http://127.0.0.1:1", EXAMPLE, auth())).status).toBe(400);
    expect(gh.requests.length).toBe(before);
  });
  it("the token is in no answer and no log line", async () => {
    expect(s.logText()).not.toContain(TOKEN);
    expect(s.logText()).not.toContain("wrong-token-123456");
    for (const line of s.logs.filter((l) => l.msg === "request")) expect(Object.keys(line).sort()).toEqual(["hostname", "level", "method", "msg", "ms", "path", "pid", "reqId", "status", "time", ...(line.cache ? ["cache"] : [])].sort());
  });
  it("GET is 405", async () => {
    expect((await call(s, "GET", "/v1/exports/github", { unchecked: true })).status).toBe(405);
  });
});

describe("POST /v1/exports/github?update=true: the new export of an exported repository, as a pull request", () => {
  it("opens the pull request (201, Location), reports one already open (200), and refuses a repository no export made (409)", async () => {
    const created = await post(s, "/v1/exports/github?target=langgraph&repository=me/desk", definition(1), auth());
    expect(created.status, created.text).toBe(201);
    const before = gh.requests.length;
    const taken = await post(s, "/v1/exports/github?target=langgraph&repository=me/desk", definition(2), auth());
    expect(taken.json.kind).toBe("name-taken");
    // The taken name is this team's earlier export: the answer says so (the page offers the
    // update first), having read the repository and written nothing.
    expect(taken.json.earlierExport).toEqual({ name: expect.any(String), version: expect.any(String), url: expect.stringMatching(/\/me\/desk$/), target: "langgraph", upToDate: false, counts: expect.objectContaining({ create: expect.any(Number) }) });
    expect(gh.requests.slice(before).filter((r) => r.method !== "GET" && r.operationId !== "repos/create-for-authenticated-user")).toEqual([]);
    const unchanged = await post(s, "/v1/exports/github?target=langgraph&repository=me/desk", definition(1), auth());
    expect(unchanged.json.earlierExport).toMatchObject({ upToDate: true, counts: {} });
    // Another framework's export, or a repository no export made: a taken name, nothing more.
    expect((await post(s, "/v1/exports/github?target=crewai&repository=me/desk", definition(2), auth())).json.earlierExport).toBeUndefined();
    expect((await post(s, "/v1/exports/github?target=langgraph&repository=me/taken", definition(2), auth())).json.earlierExport).toBeUndefined();
    const main = gh.requests.length;
    const a = await post(s, "/v1/exports/github?target=langgraph&repository=me/desk&update=true", definition(2), auth());
    expect(a.status, a.text).toBe(201);
    expect(a.json).toMatchObject({ status: "opened", fullName: "me/desk", defaultBranch: "main", pullRequest: { number: expect.any(Number) }, branch: expect.stringMatching(/^envelope\/update-/) });
    expect(a.headers.get("location")).toBe(a.json.pullRequest.url);
    expect(a.json.counts.create).toBeGreaterThan(0);
    expect(gh.requests.slice(main).some((r) => r.operationId === "git/update-ref")).toBe(false); // main is never written
    const again = await post(s, "/v1/exports/github?target=langgraph&repository=me/desk&update=true", definition(2), auth());
    expect(again.status, again.text).toBe(200);
    expect(again.json.status).toBe("already-proposed");
    const same = await post(s, "/v1/exports/github?target=langgraph&repository=me/desk&update=true", definition(1), auth());
    expect(same.json.status).toBe("up-to-date");
    const foreign = await post(s, "/v1/exports/github?target=langgraph&repository=me/taken&update=true", definition(2), auth());
    expect(foreign.status).toBe(409);
    expect(foreign.json.kind).toBe("not-an-export");
    expectCleanContract(gh);
  });
});

describe("POST /v1/exports/github when GitHub cannot be reached", () => {
  it("502 github-unavailable, with advice for an API caller (no CLI flags)", async () => {
    const offline = await serve({ githubApiUrl: "http://127.0.0.1:9", githubDelayScale: 0 });
    try {
      const a = await post(offline, "/v1/exports/github?target=crewai&repository=me/x", EXAMPLE, auth());
      expect(a.status, a.text).toBe(502);
      expect(a.json).toMatchObject({ type: "urn:envelope-export:problem:github-unavailable", kind: "github-unavailable" });
      expect(a.json.hint).toContain("the GitHub API URL in use");
      expect(a.json.hint).not.toMatch(/^check the network, and --/);
    } finally {
      await offline.close();
    }
  });
});
