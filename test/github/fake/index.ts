// A fake GitHub REST API on a real HTTP server (127.0.0.1, a free port), for tests of
// `envelope publish` through the library, the CLI (--github-api-url), and later a browser.
//
//   const gh = await start({ faults: [serverError("git/create-tree")] });
//   … publish to gh.url (or gh.url + "/api/v3", as for GitHub Enterprise Server) …
//   gh.repoDir("me", "team")   // the bare git repository to clone and compare
//   gh.pullRequests("me", "team") // pull requests opened through the API
//   gh.requests                // what it received, in order
//   gh.violations              // requests that break GitHub's OpenAPI description (expect [])
//   await gh.close()
//
// Every request is checked against the OpenAPI extract (contract.ts) before it is served;
// a violating request gets a 422 like GitHub's and is listed in `violations`.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Contract } from "./contract.js";
import type { Fault } from "./faults.js";
import { GitHubState, type Account, type Answer, type PullRecord, type TokenGrant } from "./handlers.js";
import { CLIENT_ID, CLIENT_SECRET, FakeOAuth, type OAuthApp, type OAuthRecord } from "./oauth.js";

export * from "./faults.js";
export { CLIENT_ID, CLIENT_SECRET } from "./oauth.js";
export type { Account, PullRecord, TokenGrant } from "./handlers.js";

export const TOKEN = "test-token-me";

export interface FakeGitHubOptions {
  faults?: Fault[];
  /** Accounts that exist. Default: users me and someone-else, organization acme (member: me). */
  accounts?: Account[];
  /** Tokens the fake accepts. Default: TOKEN → me, classic, scopes repo and workflow. */
  tokens?: Record<string, TokenGrant>;
  /** Repositories that exist before the test: "owner/name". */
  existing?: string[];
  defaultBranch?: string;
  /** A createTree with more entries answers GitHub's 422 "Sorry, your request timed out…". */
  maxTreeEntries?: number;
  now?: () => Date;
  /** OAuth apps by client ID (the web flow under /login/oauth/). Default: CLIENT_ID with CLIENT_SECRET, any callback. */
  oauthApps?: Record<string, OAuthApp>;
  /** Who is signed in at the fake's web pages (the consent page). Default: me. */
  signedInAs?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  operationId?: string;
  status: number;
  body?: unknown;
}

export interface FakeGitHub {
  /** The API root, like https://api.github.com. The same API also answers under /api/v3. */
  url: string;
  close(): Promise<void>;
  repoDir(owner: string, name: string): string;
  /** The pull requests opened in a repository, in order. */
  pullRequests(owner: string, name: string): PullRecord[];
  requests: RecordedRequest[];
  violations: string[];
  /** The fake's own answers that do not match GitHub's description (a bug in the fake). */
  responseViolations: string[];
  /** Bytes of every answer the fake sent, for scans. */
  answers: string[];
  /** The OAuth web flow: authorize requests, tokens issued and revoked. */
  oauth: OAuthRecord;
  /** The OAuth apps by client ID; set an app's `callback` to have redirect_uri checked as GitHub does. */
  oauthApps: Record<string, OAuthApp>;
}

const DEFAULT_ACCOUNTS: Account[] = [
  { login: "me", type: "User" },
  { login: "someone-else", type: "User" },
  { login: "acme", type: "Organization", members: ["me"] },
];

let contract: Contract | undefined;

export async function start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  contract ??= new Contract();
  const root = await mkdtemp(join(tmpdir(), "fake-github-"));
  const tokens: Record<string, TokenGrant> = options.tokens ? { ...options.tokens } : { [TOKEN]: { login: "me", scopes: ["repo", "workflow"] } };
  const faults = (options.faults ?? []).map((f) => ({ ...f, remaining: f.times ?? 1, skip: f.skip ?? 0 }));
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const responseViolations: string[] = [];
  const answers: string[] = [];
  let origin = "";
  let requestSeq = 0;
  const oauth = new FakeOAuth(options.oauthApps ?? { [CLIENT_ID]: { secret: CLIENT_SECRET } }, tokens, options.signedInAs ?? "me");
  const state = new GitHubState(root, contract, { accounts: options.accounts ?? DEFAULT_ACCOUNTS, defaultBranch: options.defaultBranch ?? "main", maxTreeEntries: options.maxTreeEntries, now: options.now ?? (() => new Date()) }, () => origin + apiPrefix);
  // A request under /api/v3 is answered with /api/v3 URLs, as GitHub Enterprise Server does.
  let apiPrefix = "";

  const send = (res: ServerResponse, answer: Answer, extra: Record<string, string> = {}) => {
    const text = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    answers.push(text);
    res.writeHead(answer.status, {
      "content-type": typeof answer.body === "string" ? "text/html; charset=utf-8" : "application/json; charset=utf-8",
      "x-github-request-id": `FAKE:${++requestSeq}`,
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": "4999",
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      ...extra,
      ...answer.headers,
    });
    res.end(text);
  };

  const takeFault = (operationId: string, when: "before" | "after") => {
    for (const f of faults) {
      if ((f.operation !== operationId && f.operation !== "*") || (f.when ?? "before") !== when || f.remaining <= 0) continue;
      if (f.skip > 0) {
        f.skip--;
        continue;
      }
      f.remaining--;
      return f;
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    // The web pages of the sign-in flow, not the REST API (github.com, or a GHES host's root).
    if (oauth.handles(url.pathname)) {
      requests.push({ method: req.method ?? "GET", path: url.pathname, status: 0 });
      return oauth.handle(req, res, url, rawBody);
    }
    apiPrefix = url.pathname.startsWith("/api/v3/") ? "/api/v3" : "";
    const pathname = url.pathname.slice(apiPrefix.length);
    const record: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, status: 0 };
    requests.push(record);
    const { routed, violations: found } = contract!.check({ method: record.method, pathname, query: url.searchParams, headers: req.headers, rawBody });
    const authorization = req.headers.authorization ?? "";
    const token = /^(?:token|bearer) (\S+)$/i.exec(authorization)?.[1];
    const revoking = routed?.operation.operationId === "apps/delete-token";
    // The token belongs in the Authorization header and nowhere else (but the one a revocation names).
    for (const t of revoking ? [] : Object.keys(tokens)) {
      if (rawBody.includes(t) || (req.url ?? "").includes(t)) found.push(`${record.method} ${pathname}: the token appears in the URL or body`);
    }
    if (routed) {
      record.operationId = routed.operation.operationId;
      if (routed.body !== undefined) record.body = routed.body;
    }
    if (found.length || !routed) {
      violations.push(...found);
      record.status = routed ? 422 : 404;
      return send(res, { status: record.status, body: { message: routed ? `Invalid request.\n\n${found.join("\n")}` : "Not Found", documentation_url: "https://docs.github.com/rest", status: String(record.status) } });
    }
    if (revoking) {
      // An OAuth app's endpoint: the app authenticates (Basic client_id:client_secret), not a user.
      const clientId = routed.params.client_id ?? "";
      const given = (routed.body as { access_token?: string }).access_token ?? "";
      const ok = oauth.clientAuthenticated(clientId, req.headers.authorization) && oauth.revoke(given);
      record.status = ok ? 204 : 404;
      return ok ? void res.writeHead(204).end() : send(res, { status: 404, body: { message: "Not Found", documentation_url: "https://docs.github.com/rest/apps/oauth-applications#delete-an-app-token", status: "404" } });
    }
    const grant = token !== undefined ? tokens[token] : undefined;
    if (!grant || grant.expired) {
      record.status = 401;
      return send(res, { status: 401, body: { message: token === undefined ? "Requires authentication" : "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" } });
    }
    const scopes = state.scopeHeaders(grant);
    const operationId = routed.operation.operationId;
    const before = takeFault(operationId, "before");
    if (before) return answerFault(res, record, before, scopes);
    const answer = await state.handle(routed.operation, { params: routed.params, query: url.searchParams, body: routed.body, grant }).catch((e: unknown) => ({ status: 500, body: { message: `fake GitHub bug: ${(e as Error).message}` } }) as Answer);
    const after = takeFault(operationId, "after");
    if (after) return answerFault(res, record, after, scopes);
    if (answer.status === 500) responseViolations.push(`${operationId}: ${JSON.stringify(answer.body)}`);
    else responseViolations.push(...contract!.checkResponse(routed.operation, answer.status, answer.body));
    record.status = answer.status;
    send(res, answer, scopes);
  };

  const answerFault = (res: ServerResponse, record: RecordedRequest, fault: Fault, scopes: Record<string, string>) => {
    if (fault.reset) {
      record.status = -1;
      res.socket?.destroy();
      return;
    }
    record.status = fault.status ?? 500;
    send(res, { status: record.status, body: fault.body ?? { message: "fault" }, ...(fault.headers ? { headers: fault.headers } : {}) }, scopes);
  };

  // One request at a time, like a client that waits for each answer: the git repositories and
  // the URL prefix of the request being answered are never shared between two requests.
  let queue = Promise.resolve();
  const server = createServer((req, res) => {
    queue = queue.then(() =>
      handle(req, res).catch((e: unknown) => {
        responseViolations.push(`fake GitHub crashed: ${(e as Error).stack ?? String(e)}`);
        if (!res.headersSent) res.writeHead(500).end();
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  origin = base;
  for (const full of options.existing ?? []) {
    const [owner, name] = full.split("/") as [string, string];
    await state.seed(owner, name);
  }
  return {
    url: base,
    requests,
    violations,
    responseViolations,
    answers,
    oauth: oauth.record,
    oauthApps: oauth.apps,
    repoDir: (owner, name) => state.repoDir(owner, name),
    pullRequests: (owner, name) => state.pullRequests(owner, name),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}
