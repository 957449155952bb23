// Sign in with GitHub over HTTP, against the fake GitHub's OAuth web flow: state and PKCE,
// least scopes, the token only in a sealed HttpOnly cookie, the cross-site check on every
// request the cookie authorizes, sign-out revoking the token, and no secret in any log line.
// (The same flow through the page, in Chromium: page-sign-in.test.ts.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings, SettingsError } from "../../src/serve/settings.js";
import { CLIENT_ID, CLIENT_SECRET, start, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract } from "../github/helpers.js";
import { ROOT } from "../helpers/cli.js";
import { call, EXAMPLE, serve, type Served } from "./helpers.js";

/** A team on a cron schedule: its export has a GitHub Actions workflow. */
const SCHEDULED = readFileSync(join(ROOT, "test/fixtures/valid/weekly-pipeline-review.envelope.json"));

let gh: FakeGitHub;
let s: Served;
let plain: Served;
beforeAll(async () => {
  gh = await start();
  const oauth = { githubOAuth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webUrl: gh.url } };
  s = await serve({ githubApiUrl: gh.url, githubDelayScale: 0, ...oauth });
  plain = await serve({ githubApiUrl: gh.url, githubDelayScale: 0 });
  // The OAuth app as registered at GitHub: its callback is this server's.
  gh.oauthApps[CLIENT_ID]!.callback = `${s.url}/auth/github/callback`;
});
afterAll(async () => {
  await s?.close();
  await plain?.close();
  await gh?.close();
});

/** The cookies a Set-Cookie list sets (name → value and attributes). */
function setCookies(res: Response): Map<string, { value: string; attributes: string[] }> {
  const out = new Map<string, { value: string; attributes: string[] }>();
  for (const line of res.headers.getSetCookie()) {
    const [pair = "", ...attributes] = line.split(/;\s*/);
    const eq = pair.indexOf("=");
    out.set(pair.slice(0, eq), { value: pair.slice(eq + 1), attributes });
  }
  return out;
}

const manual = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: "manual", headers });

/** The whole browser trip: our login → the fake's consent page → Authorize (or Cancel) → our callback. */
async function signIn(server: Served, options: { query?: string; answer?: "authorize" | "cancel"; tamperState?: boolean } = {}) {
  const login = await manual(`${server.url}/auth/github/login${options.query ?? ""}`);
  expect(login.status).toBe(302);
  const pending = setCookies(login).get("envelope_oauth")!;
  const authorize = new URL(login.headers.get("location")!);
  const consent = await (await fetch(authorize)).text();
  const link = new RegExp(`id="${options.answer ?? "authorize"}" href="([^"]+)"`).exec(consent)![1]!.replace(/&amp;/g, "&");
  const decided = await manual(gh.url + link);
  const callback = new URL(decided.headers.get("location")!);
  if (options.tamperState) callback.searchParams.set("state", "forged");
  const back = await manual(`${server.url}${callback.pathname}${callback.search}`, { cookie: `envelope_oauth=${pending.value}` });
  return { login, pending, authorize, back, cookies: setCookies(back) };
}

const publish = (server: Served, cookie: string, query: string, headers: Record<string, string> = { "sec-fetch-site": "same-origin" }, body: Buffer = EXAMPLE) =>
  call(server, "POST", `/v1/exports/github?target=langgraph&${query}`, { body, headers: { cookie, ...headers } });

describe("sign in with GitHub", () => {
  it("without an OAuth app the page is told to ask for a token, and the sign-in routes say why they are not there", async () => {
    expect((await call(plain, "GET", "/v1/session")).json).toEqual({ oauth: false, signedIn: false });
    const a = await call(plain, "GET", "/auth/github/login");
    expect(a.status).toBe(404);
    expect(a.json.type).toBe("urn:envelope-export:problem:sign-in-not-configured");
  });

  it("asks for the least scopes, with a fresh state and an S256 PKCE challenge, and keeps the state in a sealed HttpOnly cookie", async () => {
    expect((await call(s, "GET", "/v1/session")).json).toEqual({ oauth: true, signedIn: false });
    const { login, pending, authorize } = await signIn(s, { query: "?private=false&workflow=true" });
    expect(authorize.origin + authorize.pathname).toBe(`${gh.url}/login/oauth/authorize`);
    const q = authorize.searchParams;
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("scope")).toBe("public_repo workflow");
    expect(q.get("redirect_uri")).toBe(`${s.url}/auth/github/callback`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("state")!.length).toBeGreaterThanOrEqual(40);
    expect(pending.attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]));
    expect(pending.attributes).not.toContain("Secure"); // served over http
    expect(pending.value).not.toContain(q.get("state")!); // sealed, not the state in clear
    const second = await manual(`${s.url}/auth/github/login?private=true`);
    expect(new URL(second.headers.get("location")!).searchParams.get("scope")).toBe("repo");
    expect(new URL(second.headers.get("location")!).searchParams.get("state")).not.toBe(q.get("state"));
    expect(login.headers.get("cache-control")).toBe("no-store");
  });

  it("signs in, creates a repository with the cookie alone, and never shows the token", async () => {
    const { back, cookies } = await signIn(s, { query: "?workflow=true" });
    expect(back.status).toBe(303); // See Other: the page is fetched with GET whatever came before
    expect(back.headers.get("location")).toBe("/?github=signed-in#github");
    const session = cookies.get("envelope_github")!;
    expect(session.attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=3600"]));
    expect(cookies.get("envelope_oauth")!.attributes).toContain("Max-Age=0");
    const token = gh.oauth.issued.at(-1)!.token;
    expect(session.value).not.toContain(token);
    const cookie = `envelope_github=${session.value}`;
    const state = await call(s, "GET", "/v1/session", { headers: { cookie } });
    expect(state.json).toEqual({ oauth: true, signedIn: true, login: "me", scopes: ["public_repo", "workflow"] });
    const created = await publish(s, cookie, "repository=me/signed-in-team");
    expect(created.status, created.text).toBe(201);
    expect(created.json.fullName).toBe("me/signed-in-team");
    for (const text of [state.text, created.text, s.logText()]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(CLIENT_SECRET);
    }
    expectCleanContract(gh);
  });

  it("refuses the cookie from another site (Sec-Fetch-Site, or Origin when that is all there is)", async () => {
    const { cookies } = await signIn(s, { query: "?workflow=true" });
    const cookie = `envelope_github=${cookies.get("envelope_github")!.value}`;
    const before = gh.requests.length;
    const foreign: Array<Record<string, string>> = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, { origin: "http://evil.example" }];
    for (const headers of foreign) {
      const a = await publish(s, cookie, "repository=me/never", headers);
      expect(a.status).toBe(403);
      expect(a.json.type).toBe("urn:envelope-export:problem:cross-site");
    }
    const out = await call(s, "POST", "/auth/github/logout", { headers: { cookie, "sec-fetch-site": "cross-site" } });
    expect(out.status).toBe(403);
    expect(gh.requests.length).toBe(before);
  });

  it("a private repository or workflows beyond what was granted: 403 naming the scopes to sign in again with", async () => {
    const { cookies } = await signIn(s, { query: "?workflow=false" });
    const cookie = `envelope_github=${cookies.get("envelope_github")!.value}`;
    const before = gh.requests.length;
    const a = await publish(s, cookie, "repository=me/private-one&private=true");
    expect(a.status).toBe(403);
    expect(a.json).toMatchObject({ type: "urn:envelope-export:problem:github-scope-needed", signIn: true, kind: "missing-permission", scopes: ["repo"] });
    const b = await publish(s, cookie, "repository=me/scheduled", undefined, SCHEDULED);
    expect(b.json).toMatchObject({ type: "urn:envelope-export:problem:github-scope-needed", scopes: ["workflow"] });
    expect(b.json.detail).toContain("workflows");
    expect(gh.requests.length).toBe(before);
    const wider = await signIn(s, { query: "?workflow=true" });
    const c = await publish(s, `envelope_github=${wider.cookies.get("envelope_github")!.value}`, "repository=me/scheduled", undefined, SCHEDULED);
    expect(c.status, c.text).toBe(201);
  });

  it("Cancel at GitHub, a forged state, a tampered or foreign cookie: no sign-in", async () => {
    expect((await signIn(s, { answer: "cancel" })).back.headers.get("location")).toBe("/?github=denied#github");
    expect((await signIn(s, { tamperState: true })).back.headers.get("location")).toBe("/?github=expired#github");
    const noPending = await manual(`${s.url}/auth/github/callback?code=abc&state=xyz`);
    expect(noPending.headers.get("location")).toBe("/?github=expired#github");
    const { cookies } = await signIn(s);
    const value = cookies.get("envelope_github")!.value;
    const flipped = value.slice(0, -2) + (value.at(-2) === "A" ? "B" : "A") + value.at(-1);
    for (const cookie of [`envelope_github=${flipped}`, `envelope_github=${cookies.get("envelope_github")!.value.replace("v1.", "v2.")}`, `envelope_oauth=${value}`]) {
      expect((await call(s, "GET", "/v1/session", { headers: { cookie } })).json.signedIn).toBe(false);
    }
    // The same cookie does not open on a server with another key (a restart without ENVELOPE_SESSION_KEY).
    expect((await call(plain, "GET", "/v1/session", { headers: { cookie: `envelope_github=${value}` } })).json.signedIn).toBe(false);
  });

  it("a failed code exchange sends the browser back with 'failed' and logs why, without the code", async () => {
    const login = await manual(`${s.url}/auth/github/login`);
    const pending = setCookies(login).get("envelope_oauth")!.value;
    const state = new URL(login.headers.get("location")!).searchParams.get("state")!;
    const back = await manual(`${s.url}/auth/github/callback?code=not-a-code-1234&state=${state}`, { cookie: `envelope_oauth=${pending}` });
    expect(back.headers.get("location")).toBe("/?github=failed#github");
    expect(s.logText()).toContain("bad_verification_code");
    expect(s.logText()).not.toContain("not-a-code-1234");
    expect(s.logText()).not.toContain(state);
  });

  it("signing out clears the cookie and revokes the token at GitHub", async () => {
    const { cookies } = await signIn(s);
    const cookie = `envelope_github=${cookies.get("envelope_github")!.value}`;
    const token = gh.oauth.issued.at(-1)!.token;
    const out = await fetch(`${s.url}/auth/github/logout`, { method: "POST", headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(out.status).toBe(204);
    expect(setCookies(out).get("envelope_github")!.attributes).toContain("Max-Age=0");
    expect(s.logs.filter((l) => l.msg === "github sign-out")).toEqual([]);
    expect(gh.oauth.revoked).toContain(token);
    expectCleanContract(gh);
    // Whoever kept a copy of the old cookie is signed out too: the session says so, and a
    // create with it is refused here, before anything is asked of GitHub.
    expect((await call(s, "GET", "/v1/session", { headers: { cookie } })).json).toEqual({ oauth: true, signedIn: false });
    const before = gh.requests.length;
    const a = await publish(s, cookie, "repository=me/after-sign-out");
    expect(a.status).toBe(401);
    expect(a.json).toMatchObject({ type: "urn:envelope-export:problem:unauthorized", signIn: true });
    expect(gh.requests.length).toBe(before);
    // Signing out again with it changes nothing and revokes nothing twice.
    const again = await fetch(`${s.url}/auth/github/logout`, { method: "POST", headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(again.status).toBe(204);
    expect(gh.oauth.revoked.filter((t) => t === token)).toHaveLength(1);
    // Another sign-in of the same browser is not caught by it.
    const next = await signIn(s);
    const fresh = `envelope_github=${next.cookies.get("envelope_github")!.value}`;
    expect((await call(s, "GET", "/v1/session", { headers: { cookie: fresh } })).json.signedIn).toBe(true);
  });

  it("a token GitHub no longer takes (revoked elsewhere) ends the sign-in at its first use", async () => {
    const { cookies } = await signIn(s);
    const cookie = `envelope_github=${cookies.get("envelope_github")!.value}`;
    // Revoked at GitHub by someone else (another instance's sign-out, the account's settings).
    const revoke = await fetch(`${gh.url}/applications/${CLIENT_ID}/token`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`, "content-type": "application/json", accept: "application/vnd.github+json" },
      body: JSON.stringify({ access_token: gh.oauth.issued.at(-1)!.token }),
    });
    expect(revoke.status).toBe(204);
    const a = await publish(s, cookie, "repository=me/revoked-elsewhere");
    expect(a.status).toBe(401);
    expect(a.json).toMatchObject({ kind: "bad-credentials", signIn: true });
    expect(a.headers.getSetCookie().join("\n")).toMatch(/^envelope_github=; .*Max-Age=0/m);
    expect((await call(s, "GET", "/v1/session", { headers: { cookie } })).json.signedIn).toBe(false);
  });

  it("a sign-in nobody signs out of: its token is revoked at GitHub when the session ends", async () => {
    const short = await serve({ githubApiUrl: gh.url, githubDelayScale: 0, githubOAuth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webUrl: gh.url }, sessionSeconds: 1 });
    const registered = gh.oauthApps[CLIENT_ID]!.callback;
    try {
      gh.oauthApps[CLIENT_ID]!.callback = `${short.url}/auth/github/callback`;
      const { cookies } = await signIn(short);
      expect(cookies.get("envelope_github")!.attributes).toContain("Max-Age=1");
      const token = gh.oauth.issued.at(-1)!.token;
      expect(gh.oauth.revoked).not.toContain(token);
      await expect.poll(() => gh.oauth.revoked, { timeout: 5_000 }).toContain(token);
      expect(short.logs.filter((l) => String(l.msg).startsWith("github session"))).toEqual([]);
    } finally {
      gh.oauthApps[CLIENT_ID]!.callback = registered;
      await short.close();
    }
  });

  it("behind https (ENVELOPE_PUBLIC_URL): Secure __Host- cookies and the public callback URL", async () => {
    const secure = await serve({ githubApiUrl: gh.url, githubOAuth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webUrl: gh.url }, publicUrl: "https://export.example.com/" });
    try {
      const login = await manual(`${secure.url}/auth/github/login`);
      expect(new URL(login.headers.get("location")!).searchParams.get("redirect_uri")).toBe("https://export.example.com/auth/github/callback");
      const pending = setCookies(login).get("__Host-envelope_oauth")!;
      expect(pending.attributes).toEqual(expect.arrayContaining(["Secure", "HttpOnly", "Path=/"]));
      // Its own page's requests carry Origin https://export.example.com.
      const out = await fetch(`${secure.url}/auth/github/logout`, { method: "POST", headers: { origin: "https://export.example.com" } });
      expect(out.status).toBe(204);
    } finally {
      await secure.close();
    }
  });
});

describe("the fake GitHub's redirect_uri rule (GitHub's: same host and port, the callback's path or below)", () => {
  it("allows the callback and paths below it, nothing else", async () => {
    const { callbackAllows } = await import("../github/fake/oauth.js");
    expect(callbackAllows("http://a.example/cb", "http://a.example/cb")).toBe(true);
    expect(callbackAllows("http://a.example/cb", "http://a.example/cb/more")).toBe(true);
    expect(callbackAllows("http://a.example/cb", "http://a.example/cbx")).toBe(false);
    expect(callbackAllows("http://a.example/cb", "http://evil.a.example/cb")).toBe(false);
    expect(callbackAllows("http://a.example:1/cb", "http://a.example:2/cb")).toBe(false);
    expect(callbackAllows("https://a.example/cb", "http://a.example/cb")).toBe(false);
  });

  it("a server whose callback is not the registered one gets GitHub's mismatch page, never a code", async () => {
    const other = await serve({ githubApiUrl: gh.url, githubOAuth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webUrl: gh.url } });
    try {
      const login = await manual(`${other.url}/auth/github/login`);
      const page = await fetch(login.headers.get("location")!);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain("redirect_uri");
    } finally {
      await other.close();
    }
  });
});

describe("sign-in settings", () => {
  it("both halves of the OAuth app, GitHub's web address from the API's, a 32-byte session key", () => {
    expect(resolveSettings({}).githubOAuth).toBeUndefined();
    expect(() => resolveSettings({ GITHUB_CLIENT_ID: "x" })).toThrow(SettingsError);
    expect(resolveSettings({ GITHUB_CLIENT_ID: "x", GITHUB_CLIENT_SECRET: "y" }).githubOAuth).toEqual({ clientId: "x", clientSecret: "y", webUrl: "https://github.com" });
    expect(resolveSettings({ GITHUB_CLIENT_ID: "x", GITHUB_CLIENT_SECRET: "y", GITHUB_API_URL: "https://ghe.example.com/api/v3" }).githubOAuth?.webUrl).toBe("https://ghe.example.com");
    expect(() => resolveSettings({ GITHUB_CLIENT_ID: "x", GITHUB_CLIENT_SECRET: "y", GITHUB_API_URL: "https://proxy.example.com/github" })).toThrow(/GITHUB_WEB_URL/);
    expect(() => resolveSettings({ GITHUB_CLIENT_ID: "x", GITHUB_CLIENT_SECRET: "y", GITHUB_WEB_URL: "http://ghe.example.com" })).toThrow(/https/);
    expect(resolveSettings({ ENVELOPE_SESSION_KEY: "a".repeat(64) }).sessionKey).toEqual(Buffer.alloc(32, 0xaa));
    expect(() => resolveSettings({ ENVELOPE_SESSION_KEY: "short" })).toThrow(/32 bytes/);
    expect(resolveSettings({}).sessionKey).not.toEqual(resolveSettings({}).sessionKey);
    expect(() => resolveSettings({ ENVELOPE_PUBLIC_URL: "https://x.example/?a=1" })).toThrow(SettingsError);
    expect(resolveSettings({ ENVELOPE_PUBLIC_URL: "https://x.example" }).publicUrl).toBe("https://x.example/");
    expect(() => resolveSettings({ ENVELOPE_PUBLIC_URL: "https://x.example/export" })).toThrow(/root address/);
    // Beyond this machine, sign-in needs the public https address: the Host header is the client's.
    const oauth = { GITHUB_CLIENT_ID: "x", GITHUB_CLIENT_SECRET: "y" };
    expect(() => resolveSettings({ ...oauth, ENVELOPE_HOST: "0.0.0.0" })).toThrow(/ENVELOPE_PUBLIC_URL/);
    expect(() => resolveSettings({ ...oauth, ENVELOPE_HOST: "0.0.0.0", ENVELOPE_PUBLIC_URL: "http://export.example.com" })).toThrow(/https/);
    expect(resolveSettings({ ...oauth, ENVELOPE_HOST: "0.0.0.0", ENVELOPE_PUBLIC_URL: "https://export.example.com" }).publicUrl).toBe("https://export.example.com/");
  });
});
