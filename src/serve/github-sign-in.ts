// "Sign in with GitHub" for the page: GitHub's OAuth web flow (authorization code with a
// state parameter and PKCE), the token kept only in a sealed, HttpOnly cookie — never in the
// page's script or storage, never logged — and a sign-out that revokes it at GitHub.
// Scopes are the least the repository needs: public_repo (repo for a private one), plus
// workflow only when the project has workflow files; the page asks for what its project needs.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { CookieSealer, readCookies, setCookie } from "./sealed-cookie.js";
import type { GitHubOAuthApp } from "./settings.js";

export interface GitHubSession {
  token: string;
  login: string;
  /** What GitHub granted (its token answer's `scope`). */
  scopes: string[];
  /** This sign-in's own id: a sign-out ends it by this, for every copy of the cookie. */
  sid: string;
  /** When it was sealed (seconds since the epoch). */
  iat: number;
}

/** How long a sign-in lasts (the cookie, the sealed expiry inside it, and the token: see `expiring`). */
export const SESSION_SECONDS = 60 * 60;
/** How long the trip to GitHub's consent page may take. */
const PENDING_SECONDS = 10 * 60;
const EXCHANGE_TIMEOUT_MS = 15_000;
/**
 * How many ended sign-ins are remembered at once. Each costs one GitHub sign-in and stays only
 * until its cookie would have expired anyway (an hour); past this many, every sign-in made
 * until then is ended (see `endedBefore`), so memory stays bounded and nothing fails open.
 */
const MAX_ENDED = 10_000;

interface Pending {
  state: string;
  verifier: string;
  redirectUri: string;
}

/** Where the callback sends the browser back to: the page, with what happened (the page words it). */
export type SignInOutcome = "signed-in" | "denied" | "expired" | "failed";

export interface SignInOptions {
  app: GitHubOAuthApp;
  apiUrl: string;
  publicUrl: string | undefined;
  key: Buffer;
  /** How long a sign-in lasts (SESSION_SECONDS unless a test says otherwise). */
  sessionSeconds?: number;
  /** How many ended sign-ins are remembered (MAX_ENDED unless a test says otherwise). */
  maxEnded?: number;
  fetch?: typeof fetch;
  warn(fields: Record<string, unknown>, message: string): void;
}

export class GitHubSignIn {
  private readonly sealer: CookieSealer;
  private readonly fetch: typeof fetch;
  private readonly secure: boolean;
  readonly sessionCookie: string;
  private readonly pendingCookie: string;
  private readonly sessionSeconds: number;
  /**
   * The tokens this server handed out, each revoked at GitHub when its session ends: a
   * browser that drops an expired cookie never signs out, and an OAuth app's token would
   * otherwise stay valid for as long as it is used (GitHub ends it after a year unused).
   * A server stopped before then leaves its tokens to that.
   */
  private readonly expiring = new Map<string, NodeJS.Timeout>();
  /**
   * The sealed cookie is stateless, so a copy kept after sign-out would still open: the ids of
   * ended sign-ins, each until its cookie's own expiry (ms), are refused. In this process's
   * memory: instances behind one load balancer each learn of an end only when GitHub refuses
   * the revoked token (see `end` in the create route).
   */
  private readonly ended = new Map<string, number>();
  /** Sign-ins sealed before this (seconds) are ended: set when `ended` overflows. */
  private endedBefore = 0;

  constructor(private readonly options: SignInOptions) {
    this.sessionSeconds = options.sessionSeconds ?? SESSION_SECONDS;
    this.sealer = new CookieSealer(options.key);
    this.fetch = options.fetch ?? fetch;
    this.secure = options.publicUrl?.startsWith("https:") ?? false;
    // __Host-: a Secure cookie the browser binds to this host and Path=/ (no subdomain sets it).
    this.sessionCookie = this.secure ? "__Host-envelope_github" : "envelope_github";
    this.pendingCookie = this.secure ? "__Host-envelope_oauth" : "envelope_oauth";
  }

  /** The request's sign-in, unless it was ended (signed out, or its token refused by GitHub). */
  session(req: FastifyRequest): GitHubSession | undefined {
    const session = this.sealer.open<GitHubSession>(this.sessionCookie, readCookies(req.headers.cookie).get(this.sessionCookie));
    // A cookie sealed without an id (an older server's, under the same key) cannot be ended: not accepted.
    if (!session || typeof session.sid !== "string" || typeof session.iat !== "number") return undefined;
    if (session.iat < this.endedBefore || this.ended.has(session.sid)) return undefined;
    return session;
  }

  /**
   * Ends the sign-in for whoever holds its cookie, and clears the cookie in this browser (the
   * token stays valid at GitHub: logout revokes it there).
   */
  end(session: GitHubSession, reply: FastifyReply, now = Date.now()): void {
    reply.header("set-cookie", setCookie(this.sessionCookie, "", { secure: this.secure, maxAge: 0 }));
    for (const [sid, until] of this.ended) if (until <= now) this.ended.delete(sid);
    if (this.ended.size >= (this.options.maxEnded ?? MAX_ENDED)) {
      this.ended.clear();
      this.endedBefore = Math.floor(now / 1000) + 1;
      return;
    }
    this.ended.set(session.sid, (session.iat + this.sessionSeconds) * 1000);
  }

  /**
   * Whether a request that the session cookie authorizes comes from this server's own page.
   * SameSite=Lax already keeps the cookie off cross-site POSTs; this is the second check.
   * A client that sends neither header is not a browser, so no other site can drive it.
   */
  sameOrigin(req: FastifyRequest): boolean {
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined) return site === "same-origin";
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    return origin === this.origin(req);
  }

  /** GET /auth/github/login: off to GitHub's consent page, with the scopes the page asks for. */
  async login(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const q = queryOf(req);
    const scopes = [q.get("private") === "true" ? "repo" : "public_repo", ...(q.get("workflow") === "true" ? ["workflow"] : [])];
    const pending: Pending = { state: randomBytes(32).toString("base64url"), verifier: randomBytes(32).toString("base64url"), redirectUri: `${this.base(req)}auth/github/callback` };
    const authorize = new URL(`${this.options.app.webUrl}/login/oauth/authorize`);
    authorize.searchParams.set("client_id", this.options.app.clientId);
    authorize.searchParams.set("redirect_uri", pending.redirectUri);
    authorize.searchParams.set("scope", scopes.join(" "));
    authorize.searchParams.set("state", pending.state);
    authorize.searchParams.set("code_challenge", createHash("sha256").update(pending.verifier).digest("base64url"));
    authorize.searchParams.set("code_challenge_method", "S256");
    reply.header("set-cookie", setCookie(this.pendingCookie, this.sealer.seal(this.pendingCookie, pending, PENDING_SECONDS), { secure: this.secure, maxAge: PENDING_SECONDS }));
    return reply.code(302).header("location", authorize.href).send();
  }

  /** GET /auth/github/callback: GitHub sends the browser back with a code (or why not). */
  async callback(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const q = queryOf(req);
    const pending = this.sealer.open<Pending>(this.pendingCookie, readCookies(req.headers.cookie).get(this.pendingCookie));
    const cookies = [setCookie(this.pendingCookie, "", { secure: this.secure, maxAge: 0 })];
    const back = (outcome: SignInOutcome) => reply.code(303).header("set-cookie", cookies).header("location", `/?github=${outcome}#github`).send();
    // No pending sign-in, or another one's state: a callback this browser did not start (or one too late).
    if (!pending || !equal(q.get("state") ?? "", pending.state)) return back("expired");
    const error = q.get("error");
    if (error) return back(error === "access_denied" ? "denied" : "failed");
    const code = q.get("code");
    if (!code) return back("failed");
    const session = await this.exchange(code, pending).catch((e: unknown) => {
      this.options.warn({ github: e instanceof Error ? e.message : String(e) }, "github sign-in failed");
      return undefined;
    });
    if (!session) return back("failed");
    const now = Date.now();
    const sealed: GitHubSession = { ...session, sid: randomBytes(16).toString("base64url"), iat: Math.floor(now / 1000) };
    cookies.push(setCookie(this.sessionCookie, this.sealer.seal(this.sessionCookie, sealed, this.sessionSeconds, now), { secure: this.secure, maxAge: this.sessionSeconds }));
    this.revokeWhenOver(session.token);
    return back("signed-in");
  }

  /** POST /auth/github/logout (the caller checks it is same-origin). */
  async logout(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const session = this.session(req);
    if (!session) reply.header("set-cookie", setCookie(this.sessionCookie, "", { secure: this.secure, maxAge: 0 }));
    else {
      this.end(session, reply);
      clearTimeout(this.expiring.get(session.token));
      this.expiring.delete(session.token);
      await this.revoke(session.token);
    }
    return reply.code(204).send();
  }

  /** Stops the timers (the server is closing): see `expiring`. */
  close(): void {
    for (const timer of this.expiring.values()) clearTimeout(timer);
    this.expiring.clear();
  }

  private revokeWhenOver(token: string): void {
    const timer = setTimeout(() => {
      this.expiring.delete(token);
      void this.revoke(token, "github session ended");
    }, this.sessionSeconds * 1000);
    timer.unref();
    this.expiring.set(token, timer);
  }

  /** The code for a token (with the PKCE verifier), then the account it belongs to. */
  private async exchange(code: string, pending: Pending): Promise<Omit<GitHubSession, "sid" | "iat">> {
    const { clientId, clientSecret, webUrl } = this.options.app;
    const res = await this.fetch(`${webUrl}/login/oauth/access_token`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: pending.redirectUri, code_verifier: pending.verifier }).toString(),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    // GitHub answers its errors with 200 and an `error` field.
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; scope?: unknown; error?: unknown };
    if (!res.ok || typeof body.access_token !== "string" || !body.access_token) {
      throw new Error(`the token exchange answered ${res.status}${typeof body.error === "string" ? ` ${body.error.slice(0, 80)}` : ""}`);
    }
    const token = body.access_token;
    const user = await this.fetch(`${this.options.apiUrl}/user`, {
      headers: { accept: "application/vnd.github+json", authorization: `Bearer ${token}`, "x-github-api-version": "2022-11-28" },
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    const account = (await user.json().catch(() => ({}))) as { login?: unknown };
    if (!user.ok || typeof account.login !== "string") {
      // No session will hold this token: it is not left valid at GitHub either.
      await this.revoke(token);
      throw new Error(`GET /user answered ${user.status}`);
    }
    const scopes = typeof body.scope === "string" ? body.scope.split(/[,\s]+/).filter(Boolean) : [];
    return { token, login: account.login, scopes };
  }

  /** Best effort: a sign-out (or the end of a session) ends the token at GitHub too. */
  private async revoke(token: string, what = "github sign-out"): Promise<void> {
    const { clientId, clientSecret } = this.options.app;
    try {
      const res = await this.fetch(`${this.options.apiUrl}/applications/${encodeURIComponent(clientId)}/token`, {
        method: "DELETE",
        headers: {
          accept: "application/vnd.github+json",
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
          "content-type": "application/json",
          "x-github-api-version": "2022-11-28",
        },
        body: JSON.stringify({ access_token: token }),
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      });
      if (res.status !== 204) this.options.warn({ github: `revoking the token answered ${res.status}` }, what);
    } catch (e) {
      this.options.warn({ github: e instanceof Error ? e.message : String(e) }, what);
    }
  }

  /** This server's address as users reach it. */
  private base(req: FastifyRequest): string {
    return this.options.publicUrl ?? `http://${req.headers.host}/`;
  }

  private origin(req: FastifyRequest): string {
    return new URL(this.base(req)).origin;
  }
}

function queryOf(req: FastifyRequest): URLSearchParams {
  return new URLSearchParams(req.url.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "");
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
