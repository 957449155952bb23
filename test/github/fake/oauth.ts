// The fake GitHub's OAuth web flow, as GitHub documents it ("Authorizing OAuth apps"):
//   GET  /login/oauth/authorize     a consent page (Authorize / Cancel) for the signed-in user
//   POST /login/oauth/access_token  code → token; errors are 200 with `error` (as GitHub does)
// The consent page's buttons redirect to redirect_uri with ?code&state, or with
// ?error=access_denied&state. Codes are single-use and bound to the client, the redirect_uri
// and the PKCE challenge. A token it issues is added to the fake's tokens, with the scopes
// asked for, so the REST API accepts it.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TokenGrant } from "./handlers.js";

export interface OAuthApp {
  secret: string;
  /** The registered callback URL: redirect_uri must be it or under it (GitHub's rule). Unset: any. */
  callback?: string;
}

export const CLIENT_ID = "Iv1.fakeclientid0001";
export const CLIENT_SECRET = "fake-client-secret-0123456789abcdef";

interface Authorization {
  clientId: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  challenge?: string;
}

interface Grant extends Authorization {
  issuedAt: number;
}

export interface OAuthRecord {
  /** Authorize requests as received (query parameters). */
  authorizeRequests: Array<Record<string, string>>;
  /** Tokens issued, in order. */
  issued: Array<{ token: string; scopes: string[]; clientId: string }>;
  /** Tokens revoked through DELETE /applications/{client_id}/token. */
  revoked: string[];
}

export class FakeOAuth {
  readonly record: OAuthRecord = { authorizeRequests: [], issued: [], revoked: [] };
  private readonly pending = new Map<string, Authorization>();
  private readonly codes = new Map<string, Grant>();
  private seq = 0;

  constructor(
    /** Mutable: a test registers its server's callback once the server listens. */
    readonly apps: Record<string, OAuthApp>,
    private readonly tokens: Record<string, TokenGrant>,
    /** The account signed in at the fake's web pages. */
    private readonly user: string,
  ) {}

  handles(pathname: string): boolean {
    return pathname.startsWith("/login/oauth/");
  }

  /** Basic client authentication of the REST API's OAuth-app endpoints. */
  clientAuthenticated(clientId: string, authorization: string | undefined): boolean {
    const m = /^basic (\S+)$/i.exec(authorization ?? "");
    if (!m) return false;
    const [id, secret] = Buffer.from(m[1]!, "base64").toString("utf8").split(":");
    return id === clientId && this.apps[clientId]?.secret === secret;
  }

  revoke(token: string): boolean {
    if (!Object.hasOwn(this.tokens, token) || !this.record.issued.some((i) => i.token === token)) return false;
    delete this.tokens[token];
    this.record.revoked.push(token);
    return true;
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL, rawBody: string): void {
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") return this.authorize(res, url.searchParams);
    if (req.method === "GET" && url.pathname === "/login/oauth/decide") return this.decide(res, url.searchParams);
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") return this.token(req, res, rawBody);
    page(res, 404, "Not Found", "<p>Not Found</p>");
  }

  private authorize(res: ServerResponse, q: URLSearchParams): void {
    this.record.authorizeRequests.push(Object.fromEntries(q));
    const clientId = q.get("client_id") ?? "";
    const app = this.apps[clientId];
    if (!app) return page(res, 404, "Not Found", "<p>The application is not known.</p>");
    const redirectUri = q.get("redirect_uri") ?? app.callback ?? "";
    if (!redirectUri || (app.callback && !callbackAllows(app.callback, redirectUri))) return page(res, 400, "Redirect URI mismatch", "<p>The redirect_uri is not associated with this application.</p>");
    const method = q.get("code_challenge_method");
    const challenge = q.get("code_challenge") ?? undefined;
    if (challenge && method !== "S256") return page(res, 400, "Bad request", "<p>code_challenge_method must be S256.</p>");
    const id = `auth${++this.seq}`;
    const scopes = (q.get("scope") ?? "").split(/[\s,]+/).filter(Boolean);
    this.pending.set(id, { clientId, redirectUri, state: q.get("state") ?? "", scopes, ...(challenge ? { challenge } : {}) });
    const list = scopes.length ? scopes.map((s) => `<li>${escape(s)}</li>`).join("") : "<li>(no scope: public information only)</li>";
    page(
      res,
      200,
      "Authorize application",
      `<h1>Authorize ${escape(clientId)}</h1><p>Signed in as <strong id="user">${escape(this.user)}</strong>.</p><ul id="scopes">${list}</ul>` +
        `<p><a id="authorize" href="/login/oauth/decide?id=${id}&amp;answer=yes">Authorize</a> <a id="cancel" href="/login/oauth/decide?id=${id}&amp;answer=no">Cancel</a></p>`,
    );
  }

  private decide(res: ServerResponse, q: URLSearchParams): void {
    const id = q.get("id") ?? "";
    const auth = this.pending.get(id);
    if (!auth) return page(res, 404, "Not Found", "<p>This authorization is over.</p>");
    this.pending.delete(id);
    const back = new URL(auth.redirectUri);
    if (q.get("answer") === "yes") {
      const code = randomBytes(10).toString("hex");
      this.codes.set(code, { ...auth, issuedAt: Date.now() });
      back.searchParams.set("code", code);
    } else {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user has denied your application access.");
      back.searchParams.set("error_uri", "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied");
    }
    if (auth.state) back.searchParams.set("state", auth.state);
    res.writeHead(302, { location: back.href }).end();
  }

  private token(req: IncomingMessage, res: ServerResponse, rawBody: string): void {
    const type = req.headers["content-type"] ?? "";
    const form = type.includes("json") ? new URLSearchParams(JSON.parse(rawBody || "{}") as Record<string, string>) : new URLSearchParams(rawBody);
    const answer = (body: Record<string, unknown>) => {
      // Without Accept: application/json GitHub answers form-encoded.
      const json = (req.headers.accept ?? "").includes("json");
      const text = json ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString();
      res.writeHead(200, { "content-type": json ? "application/json; charset=utf-8" : "application/x-www-form-urlencoded" }).end(text);
    };
    const error = (error: string, description: string) => answer({ error, error_description: description, error_uri: `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${error.replace(/_/g, "-")}` });
    const clientId = form.get("client_id") ?? "";
    if (this.apps[clientId]?.secret !== form.get("client_secret")) return error("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.");
    const code = form.get("code") ?? "";
    const grant = this.codes.get(code);
    this.codes.delete(code); // single use, whatever happens next
    if (!grant || grant.clientId !== clientId || Date.now() - grant.issuedAt > 10 * 60_000) return error("bad_verification_code", "The code passed is incorrect or expired.");
    const redirect = form.get("redirect_uri");
    if (redirect !== null && redirect !== grant.redirectUri) return error("redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.");
    if (grant.challenge) {
      const verifier = form.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return error("bad_verification_code", "The code_verifier does not match the code_challenge.");
    }
    const token = `gho_${randomBytes(18).toString("hex")}`;
    this.tokens[token] = { login: this.user, scopes: grant.scopes };
    this.record.issued.push({ token, scopes: grant.scopes, clientId });
    answer({ access_token: token, token_type: "bearer", scope: grant.scopes.join(",") });
  }
}

/**
 * GitHub's rule for redirect_uri against the registered callback URL: the same scheme, host
 * and port, and a path that is the callback's path or below it (by segments).
 */
export function callbackAllows(callback: string, redirectUri: string): boolean {
  let c: URL, r: URL;
  try {
    [c, r] = [new URL(callback), new URL(redirectUri)];
  } catch {
    return false;
  }
  if (c.protocol !== r.protocol || c.host !== r.host) return false;
  const base = c.pathname.replace(/\/$/, "");
  return r.pathname === base || r.pathname.startsWith(`${base}/`) || (base === "" && r.pathname.startsWith("/"));
}

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`);
}
