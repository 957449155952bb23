// `envelope serve`: the HTTP API behind the Export button, and the handoff page at /.
// Stateless: each request carries the definition and gets the whole answer, so instances
// scale out behind any load balancer. CPU work runs in a bounded worker pool (pool.ts) with a
// per-request time limit; answers are reused by content (cache.ts). Logs are one JSON line
// per request (request-log.ts: id, method, path, status, time) — never a body, a query string or a header.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { PassThrough } from "node:stream";
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { FileSet } from "../export/file-set.js";
import { PublishError, redactor, type PublishErrorKind } from "../publish/errors.js";
import { checkApiUrl, exportCommitMessage, missingScopes, publishToGitHub } from "../publish/publish.js";
import { parseRepositoryName } from "../publish/repository-name.js";
import { updateGitHubRepository, type UpdateRepositoryResult } from "../publish/update-repository.js";
import { TARGETS, targetNames } from "../targets/index.js";
import { VERSION } from "../version.js";
import { PAGE_CSP, pageAssets } from "./assets.js";
import { ANSWER_ALLOWANCE, ANSWER_MULTIPLE } from "./answer-bound.js";
import { AnswerCache } from "./cache.js";
import type { ReportedDiagnostics } from "./diagnostic-cap.js";
import type { ExportAnswer, ExportFormat, Job, JobAnswer, JobConnections, ValidateAnswer, ZipHead, ZipStream } from "./jobs.js";
import { answerClientError, PROBLEM_TYPE } from "./client-errors.js";
import { ExportRequestError, parseExportRequest, REQUEST_LIMIT, REQUEST_TYPE } from "./export-request.js";
import { GitHubSignIn, type GitHubSession } from "./github-sign-in.js";
import { nodeServer } from "./node-server.js";
import { openApiDocument } from "./openapi.js";
import { clientWentAway, logWhenClosed } from "./request-log.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import { InlineRunner, JobTimeoutError, OverloadedError, WorkerPool, type JobRunner } from "./pool.js";
import { BODY_LIMIT, SettingsError, type ServeSettings } from "./settings.js";

export interface EnvelopeServer {
  app: FastifyInstance;
  /** Starts listening; resolves to the base URL (http://host:port/). */
  listen(): Promise<string>;
  /** Graceful: refuses new requests, lets those in flight finish (up to the shutdown timeout), stops the workers. */
  close(): Promise<void>;
  runner: JobRunner;
  cache: AnswerCache;
}

export interface ServerOptions {
  /** Where the JSON log lines go (default: standard error). */
  logStream?: { write(line: string): unknown };
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

const GITHUB_STATUS: Record<PublishErrorKind, number> = {
  "invalid-input": 400,
  "bad-credentials": 401,
  "missing-permission": 403,
  "owner-not-found": 404,
  "name-taken": 409,
  "not-an-export": 409,
  rejected: 422,
  "rate-limited": 429,
  "github-unavailable": 502,
  "create-uncertain": 502,
};

/** Which methods each path answers, for 405 and the OpenAPI check. */
export const ROUTES: Record<string, string[]> = {
  "/": ["GET", "HEAD"],
  "/healthz": ["GET", "HEAD"],
  "/openapi.json": ["GET", "HEAD"],
  "/v1/targets": ["GET", "HEAD"],
  "/v1/validate": ["POST"],
  "/v1/exports": ["POST"],
  "/v1/exports/github": ["POST"],
  "/v1/session": ["GET", "HEAD"],
  "/auth/github/login": ["GET", "HEAD"],
  "/auth/github/callback": ["GET", "HEAD"],
  "/auth/github/logout": ["POST"],
};

export async function createServer(settings: ServeSettings, options: ServerOptions = {}): Promise<EnvelopeServer> {
  let githubApiUrl: string;
  try {
    githubApiUrl = checkApiUrl(settings.githubApiUrl);
  } catch (e) {
    throw new SettingsError(`GITHUB_API_URL: ${(e as Error).message}`);
  }
  const assets = pageAssets();
  const openapi = JSON.stringify(openApiDocument());
  const targetsJson = JSON.stringify({ targets: targetNames().map((name) => ({ name, title: TARGETS[name]!.title })) });
  const runner: JobRunner = settings.workers > 0 ? new WorkerPool(settings.workers, settings.maxQueue) : new InlineRunner(settings.maxQueue);
  const cache = new AnswerCache(settings.cacheBytes);
  let publishing = 0;
  let seq = 0;
  const signIn = settings.githubOAuth
    ? new GitHubSignIn({ app: settings.githubOAuth, apiUrl: githubApiUrl, publicUrl: settings.publicUrl, key: settings.sessionKey, sessionSeconds: settings.sessionSeconds, warn: (fields, message) => app.log.warn(fields, message) })
    : undefined;

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: {
      level: settings.logLevel,
      stream: options.logStream ?? process.stderr,
      // Nothing from a request is logged except its method and path (no query, headers, body).
      serializers: { req: () => ({}), res: () => ({}) },
    },
    // Fastify's own per-request lines are off: onResponse writes one line per request instead.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "reqId" }),
    // An incoming X-Request-Id (from a load balancer) is kept when it is a plain token.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[A-Za-z0-9._:-]{1,64}$/.test(given) ? given : `r${Date.now().toString(36)}-${(++seq).toString(36)}`;
    },
    // Fastify's own 503 while closing is a bare JSON body with no request id or headers of
    // ours; the onRequest hook answers problem+json instead (see shuttingDown).
    return503OnClosing: false,
    forceCloseConnections: "idle",
    // Requests that never became requests (a bad request line, headers too large, a body not
    // sent in time) are answered as problem+json like every other error, and logged.
    clientErrorHandler: (err: Error & { code?: string }, socket: Socket) => answerClientError(err, socket, (line) => app.log.info(line, "request")),
    // A path that is not valid percent-encoding (GET /%ff) skips the hooks: answered as the rest.
    frameworkErrors: (error, req, reply) => {
      logWhenClosed(req, reply);
      reply.header("x-request-id", req.id).headers(SECURITY_HEADERS);
      return sendProblem(reply, new HttpProblem(400, "bad-request", "Bad request", error.message.slice(0, 200)));
    },
    serverFactory: (handler) => nodeServer(settings, handler as (req: IncomingMessage, res: ServerResponse) => void, (line) => app.log.info(line, "request")),
  }) as unknown as FastifyInstance;

  // Bodies are kept as bytes: the definition's own reader reports JSON errors with line and
  // column, and the export copies the definition byte for byte.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
  // The definition with its connection packs (export-request.ts): a larger limit, for the packs' OpenAPI documents.
  app.addContentTypeParser(REQUEST_TYPE, { parseAs: "buffer", bodyLimit: REQUEST_LIMIT }, (_req, body, done) => done(null, body));
  app.addContentTypeParser(/^application\/[a-z0-9.!#$&^_-]+\+json(\s*;.*)?$/i, { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  // Set as close() begins: a request that still arrives (on a connection already open) is
  // refused, its connection closed; requests in flight finish.
  let shuttingDown = false;
  app.addHook("preClose", async () => {
    shuttingDown = true;
  });

  app.addHook("onRequest", async (req, reply) => {
    logWhenClosed(req, reply);
    reply.header("x-request-id", req.id).headers(SECURITY_HEADERS);
    if (shuttingDown) throw new HttpProblem(503, "shutting-down", "Shutting down", "the server is shutting down; send the request again", {}, { connection: "close", "retry-after": "5" });
    checkHostAndExpect(req);
    checkTarget(req);
    if (settings.allowedHosts !== "any") {
      const host = hostName(req.headers.host);
      if (host === undefined || !settings.allowedHosts.includes(host)) {
        throw new HttpProblem(403, "host-not-allowed", "Host not allowed", `this server answers only to ${settings.allowedHosts.join(", ")} (set ENVELOPE_ALLOWED_HOSTS to serve other names)`);
      }
    }
    const path = pathOf(req.url);
    if (path.startsWith("/v1/") || path.startsWith("/auth/")) reply.header("cache-control", "no-store");
    req.log.debug({ method: req.method, path }, "incoming");
  });

  app.setErrorHandler((error: FastifyError | HttpProblem, req, reply) => {
    if (error instanceof HttpProblem) return sendProblem(reply, error);
    const status = error.statusCode ?? 500;
    if (status === 413) {
      if (isRequestType(req.headers["content-type"])) return sendProblem(reply, new HttpProblem(413, "payload-too-large", "Request too large", `the body is over the ${REQUEST_LIMIT / 1024 / 1024} MiB limit of a definition with its connection packs`));
      return sendProblem(reply, new HttpProblem(413, "payload-too-large", "Definition too large", `the body is over the ${BODY_LIMIT / 1024 / 1024} MiB limit; a team definition is a few kilobytes`));
    }
    if (status === 415) return sendProblem(reply, new HttpProblem(415, "unsupported-media-type", "Unsupported media type", `send the definition as application/json (UTF-8), or with connection packs as ${REQUEST_TYPE}`));
    if (status >= 400 && status < 500) return sendProblem(reply, new HttpProblem(status, "bad-request", "Bad request", error.message));
    // A client that went away (its stream closed early) is no server failure; its line says aborted.
    if (clientWentAway(error, reply)) return reply;
    req.log.error({ err: { message: error.message, stack: error.stack } }, "internal error");
    return sendProblem(reply, new HttpProblem(500, "internal", "Internal error", "the server failed; the request id identifies it in the server's log"));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = pathOf(req.url);
    const allowed = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    if (allowed) return sendProblem(reply, new HttpProblem(405, "method-not-allowed", "Method not allowed", `${path} answers ${allowed.join(", ")}`, {}, { allow: allowed.join(", ") }));
    return sendProblem(reply, new HttpProblem(404, "not-found", "Not found", `nothing at ${path.slice(0, 200)}`));
  });

  // The page.
  for (const [path, a] of assets) {
    app.get(path, async (req, reply) => {
      reply.header("cache-control", "no-cache").header("etag", a.etag);
      if (path === "/") reply.header("content-security-policy", PAGE_CSP);
      if (req.headers["if-none-match"] === a.etag) return reply.code(304).send();
      return reply.type(a.type).send(a.body);
    });
  }

  app.get("/healthz", async (_req, reply) => reply.type("application/json; charset=utf-8").send(JSON.stringify({ status: "ok", version: VERSION })));
  app.get("/openapi.json", async (_req, reply) => reply.type("application/json; charset=utf-8").send(openapi));
  app.get("/v1/targets", async (_req, reply) => reply.type("application/json; charset=utf-8").send(targetsJson));

  // Sign in with GitHub: answered only when an OAuth app is configured (the page then offers it).
  app.get("/v1/session", async (req, reply) => {
    const session = signIn?.session(req);
    const body = session ? { oauth: true, signedIn: true, login: session.login, scopes: session.scopes } : { oauth: signIn !== undefined, signedIn: false };
    return reply.type("application/json; charset=utf-8").send(JSON.stringify(body));
  });
  const notConfigured = () => new HttpProblem(404, "sign-in-not-configured", "Sign-in not configured", `this server has no GitHub OAuth app (set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET); send a token with the request instead`);
  app.get("/auth/github/login", async (req, reply) => {
    if (!signIn) throw notConfigured();
    return signIn.login(req, reply);
  });
  app.get("/auth/github/callback", async (req, reply) => {
    if (!signIn) throw notConfigured();
    return signIn.callback(req, reply);
  });
  app.post("/auth/github/logout", async (req, reply) => {
    if (!signIn) throw notConfigured();
    if (!signIn.sameOrigin(req)) throw crossSite();
    return signIn.logout(req, reply);
  });

  /**
   * Runs a job through the cache and the pool; overload and time limit become 503s. With a
   * stream, a zip computed now goes there as it is written (the cache keeps a copy); an
   * answer from the cache, or shared with an identical request in flight, holds the bytes.
   */
  const run = async (reply: FastifyReply, job: Job, stream?: ZipStream): Promise<JobAnswer> => {
    const compute = async (): Promise<JobAnswer> => {
      if (!stream) return runner.run(job, settings.timeoutMs);
      const chunks: Uint8Array[] = [];
      const answer = await runner.run(job, settings.timeoutMs, {
        head: stream.head,
        chunk(bytes) {
          if (cache.enabled) chunks.push(bytes);
          stream.chunk(bytes);
        },
      });
      return cache.enabled && answer.kind === "export" && answer.ok && answer.format === "zip" ? { ...answer, zip: Buffer.concat(chunks) } : answer;
    };
    try {
      const { answer, hit } = await cache.get(job, compute);
      if (!reply.raw.headersSent) reply.header("envelope-cache", hit ? "hit" : "miss");
      return answer;
    } catch (e) {
      if (e instanceof OverloadedError) throw new HttpProblem(503, "overloaded", "Server busy", e.message, {}, { "retry-after": "1" });
      if (e instanceof JobTimeoutError) throw new HttpProblem(503, "time-limit", "Time limit", e.message);
      throw e;
    }
  };

  app.post("/v1/validate", async (req, reply) => {
    const q = query(req, ["strict"]);
    const answer = (await run(reply, { kind: "validate", ...bodyOf(req), strict: flag(q, "strict") })) as ValidateAnswer;
    if (!answer.readable) throw malformed(answer);
    const { valid, errors, warnings, diagnostics, diagnosticsOmitted } = answer;
    return reply.type("application/json; charset=utf-8").send(JSON.stringify({ valid, errors, warnings, diagnostics, diagnosticsOmitted }));
  });

  app.post("/v1/exports", async (req, reply) => {
    const q = query(req, ["target", "strict"]);
    const target = targetOf(q);
    const format = negotiate(req.headers.accept);
    reply.header("vary", "Accept");
    if (!format) throw new HttpProblem(406, "not-acceptable", "Not acceptable", "this answers application/zip (the project) or application/json (a preview)");
    const job: Job = { kind: "export", ...bodyOf(req), target, strict: flag(q, "strict"), format };
    if (format === "zip") return sendZip(reply, job);
    const answer = (await run(reply, job)) as ExportAnswer;
    if (!answer.ok) throw refusal(answer);
    if (answer.format !== "json") throw new Error("unexpected answer");
    reply.header("envelope-warnings", String(answer.warnings));
    return reply.type("application/json; charset=utf-8").send(answer.json);
  });

  /**
   * The project as a zip: streamed as the worker writes it when computed now (chunked, no
   * Content-Length), sent whole when the cache holds it. A failure after the first byte
   * (time limit, a worker lost) aborts the response, so a client never takes a cut archive
   * for a whole one.
   */
  const sendZip = async (reply: FastifyReply, job: Job): Promise<FastifyReply> => {
    const body = new PassThrough();
    let announce: (head: ZipHead) => void = () => {};
    const head = new Promise<ZipHead>((resolve) => (announce = resolve));
    const answer = run(reply, job, { head: (h) => announce(h), chunk: (bytes) => void body.write(bytes) });
    const first = await Promise.race([head, answer]);
    if (first.kind !== "export") throw new Error("unexpected answer");
    if (!first.ok) throw refusal(first);
    if (first.format !== "zip") throw new Error("unexpected answer");
    const c = first.lossCounts;
    reply.header("envelope-warnings", String(first.warnings));
    reply.header("envelope-loss", `carried=${c.carried}, approximated=${c.approximated}, dropped=${c.dropped}`);
    reply.header("content-disposition", `attachment; filename="${first.fileName}"`);
    reply.type("application/zip");
    if ("zip" in first && first.zip) return reply.send(Buffer.from(first.zip.buffer, first.zip.byteOffset, first.zip.byteLength));
    reply.header("envelope-cache", "miss");
    answer.then(
      () => body.end(),
      (e: unknown) => {
        reply.log.warn({ err: { message: e instanceof Error ? e.message : String(e) } }, "zip stream aborted");
        body.destroy(e instanceof Error ? e : new Error(String(e)));
      },
    );
    return reply.send(body);
  };

  app.post("/v1/exports/github", async (req, reply) => {
    const q = query(req, ["target", "strict", "repository", "private", "description", "update"]);
    const target = targetOf(q);
    // update=true: the repository is an earlier export's; the new export goes to it as a pull request.
    const update = flag(q, "update");
    // A token the caller sends wins; else the page's sign-in, which only the page itself may use.
    const given = bearer(req.headers.authorization);
    const session: GitHubSession | undefined = given ? undefined : signIn?.session(req);
    if (session && !signIn!.sameOrigin(req)) throw crossSite();
    const token = given ?? session?.token;
    if (!token) {
      const how = signIn ? "sign in with GitHub on this server's page, or send a token" : "send a GitHub token";
      throw new HttpProblem(401, "unauthorized", "GitHub token needed", `${how} in the Authorization header: Bearer TOKEN (it is used for this request only)`, signIn ? { signIn: true } : {}, { "www-authenticate": 'Bearer realm="GitHub token"' });
    }
    const repository = q.get("repository");
    if (!repository) throw new HttpProblem(400, "bad-request", "Bad request", "repository=OWNER/NAME is required");
    try {
      parseRepositoryName(repository);
    } catch (e) {
      if (e instanceof PublishError) throw new HttpProblem(400, "bad-request", "Bad repository name", e.message, e.hint ? { hint: e.hint } : {});
      throw e;
    }
    const description = q.get("description") ?? undefined;
    if (description !== undefined && description.length > 350) throw new HttpProblem(400, "bad-request", "Bad request", "description is limited to 350 characters");
    // Read before publishing starts: a bad value is the caller's 400, never a GitHub failure.
    const isPrivate = flag(q, "private");
    const strict = flag(q, "strict");
    const sent = bodyOf(req);
    if (publishing >= settings.maxPublishes) throw new HttpProblem(503, "overloaded", "Server busy", "too many repositories are being created; try again shortly", {}, { "retry-after": "5" });
    publishing++;
    try {
      const answer = (await run(reply, { kind: "export", ...sent, target, strict, format: "files" })) as ExportAnswer;
      if (!answer.ok) throw refusal(answer);
      if (answer.format !== "files") throw new Error("unexpected answer");
      const files = new FileSet();
      for (const f of answer.files) files.add(f.path, f.bytes, f.mode);
      if (session && !update) {
        // What the sign-in granted is known: ask for more before GitHub refuses halfway.
        const workflows = answer.files.some((f) => f.path.startsWith(".github/workflows/"));
        const missing = missingScopes(session.scopes, { private: isPrivate, workflows });
        if (missing.length) {
          const why = workflows && missing.includes("workflow") ? " (the project has GitHub Actions workflows)" : isPrivate ? " (a private repository)" : "";
          throw new HttpProblem(403, "github-scope-needed", "Sign in again", `your sign-in does not allow ${missing.join(" and ")}${why}; sign in with GitHub again to allow it`, { kind: "missing-permission", signIn: true, scopes: missing });
        }
      }
      const redact = redactor(token);
      const deadline = AbortSignal.timeout(settings.publishTimeoutMs);
      const fetchWithDeadline: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
      try {
        if (update) {
          const result = await updateGitHubRepository(files, {
            repository,
            token,
            apiUrl: githubApiUrl,
            fetch: fetchWithDeadline,
            onWarning: (line) => req.log.warn({ github: redact(line) }, "github warning"),
            timing: { delayScale: settings.githubDelayScale },
          });
          const opened = result.status === "opened";
          if (result.pullRequest) reply.header("location", result.pullRequest.url);
          return reply.code(opened ? 201 : 200).type("application/json; charset=utf-8").send(JSON.stringify(updateAnswer(result, target, answer.lossCounts)));
        }
        const result = await publishToGitHub(files, {
          repository,
          token,
          apiUrl: githubApiUrl,
          private: isPrivate,
          ...(description ? { description } : {}),
          message: exportCommitMessage(target),
          fetch: fetchWithDeadline,
          onWarning: (line) => req.log.warn({ github: redact(line) }, "github warning"),
          timing: { delayScale: settings.githubDelayScale },
        });
        const loss = answer.lossCounts;
        return reply
          .code(201)
          .header("location", result.url)
          .type("application/json; charset=utf-8")
          .send(JSON.stringify({ ...result, target, loss }));
      } catch (e) {
        if (e instanceof PublishError) {
          const extra: Record<string, unknown> = { kind: e.kind };
          if (e.hint) extra.hint = redact(e.hint);
          if (e.details.suggestions) extra.suggestions = e.details.suggestions;
          if (e.details.repository) extra.repository = e.details.repository;
          if (e.kind === "name-taken") {
            // The name may be the builder's own earlier export of this team: read it (writing
            // nothing), so the page offers the update first instead of a failure and free names.
            const earlier = await updateGitHubRepository(files, { repository, token, apiUrl: githubApiUrl, fetch: fetchWithDeadline, dryRun: true, timing: { delayScale: settings.githubDelayScale } }).catch(() => undefined);
            if (earlier) extra.earlierExport = earlierExport(earlier);
          }
          const headers: Record<string, string> = e.kind === "bad-credentials" ? { "www-authenticate": 'Bearer realm="GitHub token", error="invalid_token"' } : {};
          if (session && e.kind === "bad-credentials") {
            // The signed-in token was revoked at GitHub: end the sign-in, and say to sign in again.
            signIn!.end(session, reply);
            extra.signIn = true;
            extra.hint = "GitHub no longer accepts this sign-in; sign in with GitHub again";
          }
          throw new HttpProblem(GITHUB_STATUS[e.kind], githubProblem(e.kind), "GitHub refused or failed", redact(e.message), extra, headers);
        }
        req.log.error({ err: { message: redact(String((e as Error).message)) } }, "publish failed");
        throw new HttpProblem(502, githubProblem("github-unavailable"), "GitHub failed", "publishing failed unexpectedly; nothing can be said about the repository: check it before trying again", { kind: "github-unavailable" });
      }
    } finally {
      publishing--;
    }
  });

  let closing: Promise<void> | undefined;
  return {
    app,
    runner,
    cache,
    async listen() {
      await runner.ready();
      await app.listen({ host: settings.host, port: settings.port });
      const address = app.server.address() as AddressInfo;
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}/`;
    },
    close() {
      closing ??= (async () => {
        const force = setTimeout(() => app.server.closeAllConnections(), settings.shutdownTimeoutMs);
        force.unref();
        try {
          signIn?.close();
          await app.close();
        } finally {
          clearTimeout(force);
          await runner.close();
        }
      })();
      return closing;
    },
  };
}

/** What the page shows of an update: where the pull request is, and what it does, counted. */
function updateAnswer(result: UpdateRepositoryResult, target: string, loss: Record<string, number>): Record<string, unknown> {
  const counts: Record<string, number> = {};
  for (const e of result.plan) if (!e.record && e.action !== "unchanged") counts[e.action] = (counts[e.action] ?? 0) + 1;
  return {
    status: result.status,
    fullName: result.fullName,
    url: result.url,
    defaultBranch: result.defaultBranch,
    ...(result.pullRequest ? { pullRequest: result.pullRequest } : {}),
    ...(result.branch ? { branch: result.branch } : {}),
    counts,
    target,
    loss,
  };
}

/**
 * What a taken name holds when an earlier export made it: its team and target as recorded
 * there, and what an update would do (`counts` by action, as `updateAnswer`'s), or that it
 * is up to date.
 */
function earlierExport(result: UpdateRepositoryResult): Record<string, unknown> {
  const counts: Record<string, number> = {};
  for (const e of result.plan) if (!e.record && e.action !== "unchanged") counts[e.action] = (counts[e.action] ?? 0) + 1;
  return { ...result.lastTeam, url: result.url, target: result.lastExport.target, upToDate: result.status === "up-to-date", counts };
}

function crossSite(): HttpProblem {
  return new HttpProblem(403, "cross-site", "Cross-site request", "a request signed in with GitHub must come from this server's own page");
}

function sendProblem(reply: FastifyReply, p: HttpProblem): FastifyReply {
  for (const [k, v] of Object.entries(p.headers)) reply.header(k, v);
  const body = { type: PROBLEM_TYPE + p.code, title: p.title, status: p.status, detail: p.message, requestId: reply.request.id, ...p.extra };
  return reply.code(p.status).type("application/problem+json; charset=utf-8").send(JSON.stringify(body));
}

/** A problem's diagnostics, as capped by the job (diagnostic-cap.ts). */
function listed(r: ReportedDiagnostics): Pick<ReportedDiagnostics, "diagnostics" | "diagnosticsOmitted"> {
  return { diagnostics: r.diagnostics, ...(r.diagnosticsOmitted ? { diagnosticsOmitted: r.diagnosticsOmitted } : {}) };
}

function malformed(r: ReportedDiagnostics): HttpProblem {
  const first = r.diagnostics.find((d) => d.severity === "error");
  const where = first && first.line > 0 ? ` (line ${first.line}, column ${first.column})` : "";
  return new HttpProblem(400, "malformed-definition", "Malformed definition", `${first?.message ?? "the body is not a JSON object"}${where}`, listed(r));
}

function refusal(answer: Extract<ExportAnswer, { ok: false }>): HttpProblem {
  if (answer.refusal === "malformed") return malformed(answer);
  if (answer.refusal === "lossy") {
    // A problem type's title stays the same for every occurrence (RFC 9457); the detail names the target and fields.
    return new HttpProblem(422, "lossy-export", "Not every field is carried", `strict=true: ${answer.failure ?? "a field is not fully carried"}`, { ...listed(answer), ...(answer.loss ? { loss: answer.loss } : {}) });
  }
  if (answer.refusal === "too-large") {
    // The export is fine; answering it would break the bound every answer keeps (answer-bound.ts).
    return new HttpProblem(
      422,
      "export-too-large",
      "Export too large to answer",
      `the answer would be ${answer.answerBytes} bytes, over the ${answer.limit} this server answers to a request this size (${ANSWER_MULTIPLE} × the request + ${ANSWER_ALLOWANCE / 1024 / 1024} MiB); the CLI exports it: envelope export FILE --target T --zip FILE`,
      listed(answer),
    );
  }
  const errors = answer.errors;
  if (answer.refusal === "connections") {
    return new HttpProblem(422, "invalid-connections", "Invalid connection packs", `the connection packs (or the definition with them) have ${errors} error${errors === 1 ? "" : "s"}; each pack diagnostic names its file`, listed(answer));
  }
  return new HttpProblem(422, "invalid-definition", "Invalid definition", `the definition has ${errors} error${errors === 1 ? "" : "s"}`, listed(answer));
}

/** The query string, with unknown or repeated parameters refused (a typo should not pass silently). */
function query(req: FastifyRequest, allowed: string[]): URLSearchParams {
  const raw = req.url.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "";
  const q = new URLSearchParams(raw);
  const seen = new Set<string>();
  for (const key of q.keys()) {
    if (!allowed.includes(key)) throw new HttpProblem(400, "bad-request", "Bad request", `unknown query parameter ${JSON.stringify(key.slice(0, 40))}; this route takes ${allowed.join(", ")}`);
    if (seen.has(key)) throw new HttpProblem(400, "bad-request", "Bad request", `query parameter ${key} given twice`);
    seen.add(key);
  }
  return q;
}

function flag(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  // As openapi.json lists them; an empty value is refused rather than guessed.
  if (v === null || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw new HttpProblem(400, "bad-request", "Bad request", `${name} must be true or false (or 1 or 0)`);
}

/** The problem type of a publish error: `github-<kind>`, without saying github twice. */
function githubProblem(kind: PublishErrorKind): string {
  return kind.startsWith("github-") ? kind : `github-${kind}`;
}

function targetOf(q: URLSearchParams): string {
  const target = q.get("target");
  if (target === null) throw new HttpProblem(400, "unknown-target", "Target needed", `target= is required: ${targetNames().join(" or ")}`, { targets: targetNames() });
  if (!Object.hasOwn(TARGETS, target)) throw new HttpProblem(400, "unknown-target", "Unknown target", `unknown target ${JSON.stringify(target.slice(0, 40))}; available: ${targetNames().join(", ")}`, { targets: targetNames() });
  return target;
}

/** The definition's bytes, and with REQUEST_TYPE the connection packs sent with it. */
function bodyOf(req: FastifyRequest): { body: Uint8Array; connections?: JobConnections } {
  const type = req.headers["content-type"];
  if (!type || !Buffer.isBuffer(req.body)) throw new HttpProblem(415, "unsupported-media-type", "Unsupported media type", "send the definition as the body, with Content-Type: application/json");
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") throw new HttpProblem(415, "unsupported-media-type", "Unsupported media type", `the definition must be UTF-8, not ${charset.slice(0, 40)}`);
  if (!isRequestType(type)) return { body: req.body };
  try {
    return parseExportRequest(req.body);
  } catch (e) {
    if (!(e instanceof ExportRequestError)) throw e;
    throw e.status === 413 ? new HttpProblem(413, "payload-too-large", "Definition too large", e.message) : new HttpProblem(400, "bad-request", "Bad request", e.message);
  }
}

function isRequestType(type: string | undefined): boolean {
  return (type ?? "").split(";")[0]!.trim().toLowerCase() === REQUEST_TYPE;
}

function bearer(header: string | undefined): string | undefined {
  const m = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1];
}

/** zip unless the client prefers JSON; undefined when it accepts neither (the most specific range decides). */
export function negotiate(accept: string | undefined): Exclude<ExportFormat, "files"> | undefined {
  if (!accept || !accept.trim()) return "zip";
  const ranges = accept.split(",").map((part) => {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return { range: range.trim(), q: Number.isFinite(q) ? q : 0 };
  });
  const quality = (type: string) => {
    let best = { specificity: -1, q: 0 };
    for (const { range, q } of ranges) {
      const specificity = range === type ? 2 : range === `${type.split("/")[0]}/*` ? 1 : range === "*/*" ? 0 : -1;
      if (specificity > best.specificity) best = { specificity, q };
    }
    return best.q;
  };
  const zip = quality("application/zip");
  const json = quality("application/json");
  if (zip <= 0 && json <= 0) return undefined;
  return json > zip ? "json" : "zip";
}

/**
 * HTTP/1.1 requires exactly one Host (RFC 9112 §3.2): none, or two (Node keeps only the
 * first), is a 400. An Expect this server cannot meet is a 417 (RFC 9110 §10.1.1).
 */
function checkHostAndExpect(req: FastifyRequest): void {
  const hosts = req.raw.rawHeaders.filter((name, i) => i % 2 === 0 && /^host$/i.test(name)).length;
  if (hosts > 1) throw new HttpProblem(400, "bad-request", "Bad request", "the request has more than one Host header");
  if (hosts === 0 && req.raw.httpVersion === "1.1") throw new HttpProblem(400, "bad-request", "Bad request", "an HTTP/1.1 request needs a Host header");
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== "100-continue") {
    throw new HttpProblem(417, "expectation-failed", "Expectation failed", "this server meets only Expect: 100-continue");
  }
}

/**
 * A target in absolute form (`GET http://host/path`, RFC 9112 §3.2.2) is answered only when it
 * names the host the Host header names: this server is no proxy, and the allowed-hosts check
 * reads Host. (CONNECT never reaches here: node-server.ts refuses it.)
 */
function checkTarget(req: FastifyRequest): void {
  const target = req.raw.url ?? "";
  if (target.startsWith("/") || (target === "*" && req.method === "OPTIONS")) return;
  const notProxy = (detail: string) => new HttpProblem(400, "bad-request", "Bad request", `${detail}; this server is not a proxy`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw notProxy("the request target is neither a path nor an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw notProxy(`the request target is a ${url.protocol.slice(0, 20)} URL`);
  // Normalized alike (case, a default port), so `Host: 127.0.0.1:80` names `http://127.0.0.1/`.
  const host = URL.parse(`${url.protocol}//${req.headers.host ?? ""}`)?.host;
  if (url.username || url.password || !host || url.host !== host) throw notProxy("the request target names another host than the Host header");
}

/** The path of a request target, in origin form or (checked by checkTarget) absolute form. */
function pathOf(target: string): string {
  const path = target.split("?")[0] ?? "";
  if (path.startsWith("/")) return path;
  try {
    return new URL(path).pathname;
  } catch {
    return path;
  }
}

function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d+$/, "");
}
