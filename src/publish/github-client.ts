// The Octokit instance a publish runs on, configured for one job:
// - the token goes only into `auth` (Octokit's innermost hook adds the header, so no log
//   line or error ever holds it), and the logger drops debug lines (they dump request
//   bodies, i.e. file contents);
// - plugin-retry retries 5xx and network failures with backoff; 404 and 409 are left to the
//   publisher's readiness loop, and a create is never retried blindly (see publish.ts);
// - rate limits: a secondary limit (403/429 "secondary rate limit") is waited out as GitHub
//   says (`retry-after`) and retried, after which writes are spaced a second apart; a
//   primary limit is waited out only if it resets soon, else reported;
// - every HTTP request is counted, so a publish can say what it cost.
// plugin-throttling is not used: its write queue is module-global and spaces every write a
// second apart whether or not GitHub pushed back, with no way to shorten it in tests.
import { retry } from "@octokit/plugin-retry";
import { Octokit } from "@octokit/rest";
import { VERSION } from "../version.js";
import { redactor } from "./errors.js";

export interface PublishTiming {
  /** Multiplies every wait (retry backoff, readiness polling, rate-limit waits); 0 in tests. */
  delayScale?: number;
  /** Waits of the readiness loop after creating the repository, in ms (before scaling). */
  readinessDelaysMs?: number[];
  /** Each HTTP request is abandoned after this long (not scaled). */
  requestTimeoutMs?: number;
  /** A rate limit that lasts longer than this is reported instead of waited out (not scaled). */
  maxRateLimitWaitMs?: number;
  /** How to wait; tests may record the waits instead. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ClientOptions {
  token: string;
  apiUrl: string;
  timing: PublishTiming;
  fetch?: typeof globalThis.fetch;
  /** Shown to the person: a rate-limit wait, a retry. */
  notify: (message: string) => void;
  /** One line per HTTP request (method, path, status, time), for --verbose. */
  verbose?: (line: string) => void;
  /** Octokit warnings (deprecations); always shown. */
  warn: (line: string) => void;
}

export interface RequestCounts {
  total: number;
  writes: number;
}

export interface GitHubClient {
  octokit: InstanceType<typeof Octokit>;
  counts: RequestCounts;
  sleep: (ms: number) => Promise<void>;
  scale: number;
}

const RetryingOctokit = Octokit.plugin(retry);
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const MAX_RATE_LIMIT_RETRIES = 3;

export function createClient(options: ClientOptions): GitHubClient {
  const scale = options.timing.delayScale ?? 1;
  const sleep = options.timing.sleep ?? realSleep;
  const redact = redactor(options.token);
  const counts: RequestCounts = { total: 0, writes: 0 };
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timing.requestTimeoutMs ?? 60_000;
  // Counts every HTTP request, and says so when GitHub fails one (plugin-retry then retries it
  // quietly, with waits of up to 9 s that should not look like a hang).
  const countingFetch: typeof globalThis.fetch = async (input, init) => {
    counts.total++;
    const method = (init?.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD") counts.writes++;
    const path = new URL(typeof input === "string" || input instanceof URL ? input : input.url).pathname;
    try {
      const response = await baseFetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) });
      if (response.status >= 500) options.notify(`GitHub answered ${response.status} to ${method} ${path}`);
      return response;
    } catch (e) {
      const cause = (e as { cause?: { message?: unknown } }).cause?.message ?? (e as Error).message;
      options.notify(`no answer to ${method} ${path} (${String(cause)})`);
      throw e;
    }
  };
  const octokit = new RetryingOctokit({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: `envelope-export/${VERSION}`,
    request: { fetch: countingFetch },
    retry: { retries: 3, doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451], retryAfterBaseValue: 1000 * scale },
    log: {
      debug: () => {},
      info: (line: string) => options.verbose?.(redact(String(line))),
      // plugin-request-log reports failed requests at "error" level: they are request lines too.
      error: (line: string) => options.verbose?.(redact(String(line))),
      warn: (line: string) => options.warn(redact(String(line))),
    },
  });

  // Writes are spaced only once GitHub has asked us to slow down.
  let writeInterval = 0;
  let lastWrite = 0;
  const maxWait = options.timing.maxRateLimitWaitMs ?? 120_000;
  octokit.hook.wrap("request", async (request, requestOptions) => {
    const isWrite = requestOptions.method !== "GET" && requestOptions.method !== "HEAD";
    for (let attempt = 0; ; attempt++) {
      if (isWrite && writeInterval > 0) {
        const due = lastWrite + writeInterval - Date.now();
        if (due > 0) await sleep(due);
      }
      if (isWrite) lastWrite = Date.now();
      try {
        return await request(requestOptions);
      } catch (error) {
        const wait = rateLimitWait(error);
        if (wait === undefined || attempt >= MAX_RATE_LIMIT_RETRIES || wait > maxWait) throw error;
        writeInterval = Math.max(writeInterval, 1000 * scale);
        const seconds = Math.ceil(wait / 1000);
        options.notify(`GitHub asked to slow down (rate limit); waiting ${seconds} s before retrying ${requestOptions.method} ${routeOf(requestOptions.url)}`);
        await sleep(wait * scale);
      }
    }
  });
  return { octokit, counts, sleep, scale };
}

/** The route template, not the expanded URL: short, and the same whatever the names. */
function routeOf(url: unknown): string {
  return typeof url === "string" ? url : "request";
}

interface HttpErrorLike {
  status: number;
  message: string;
  response?: { headers: Record<string, string | number | undefined>; data: unknown };
}

export function isHttpError(error: unknown): error is HttpErrorLike {
  return typeof error === "object" && error !== null && typeof (error as { status?: unknown }).status === "number";
}

export function isSecondaryRateLimit(error: unknown): boolean {
  if (!isHttpError(error) || (error.status !== 403 && error.status !== 429)) return false;
  return /secondary rate limit/i.test(githubMessage(error)) || (error.status === 429 && error.response?.headers["x-ratelimit-remaining"] !== "0");
}

export function isPrimaryRateLimit(error: unknown): boolean {
  return isHttpError(error) && (error.status === 403 || error.status === 429) && String(error.response?.headers["x-ratelimit-remaining"]) === "0";
}

/** How long GitHub asks us to wait before retrying, or undefined when this is no rate limit. */
export function rateLimitWait(error: unknown, now = Date.now()): number | undefined {
  if (!isHttpError(error)) return undefined;
  const headers = error.response?.headers ?? {};
  if (isSecondaryRateLimit(error)) {
    const after = Number(headers["retry-after"]);
    // Without retry-after GitHub's guidance is to wait at least a minute.
    return Number.isFinite(after) && after >= 0 ? after * 1000 : 60_000;
  }
  if (isPrimaryRateLimit(error)) {
    const reset = Number(headers["x-ratelimit-reset"]);
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) + 1000 : undefined;
  }
  return undefined;
}

/** GitHub's own short `message` from an error response body, if there is one. */
export function githubMessage(error: HttpErrorLike): string {
  const data = error.response?.data;
  if (data && typeof data === "object" && typeof (data as { message?: unknown }).message === "string") return (data as { message: string }).message;
  // A proxy's or load balancer's HTML error page says nothing the status does not.
  if (typeof data === "string" && data.length < 300 && !/^\s*</.test(data)) return data;
  return "";
}
