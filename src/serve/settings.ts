// The server's settings: defaults, then environment variables, then command-line flags.
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { DEFAULT_API_URL } from "../publish/publish.js";

/** An OAuth app of GitHub's (or GitHub Enterprise Server's): the page's "Sign in with GitHub". */
export interface GitHubOAuthApp {
  clientId: string;
  clientSecret: string;
  /** GitHub's web root, where the sign-in pages are: https://github.com, or https://HOST for GitHub Enterprise Server. */
  webUrl: string;
}

export interface ServeSettings {
  host: string;
  port: number;
  /** Worker threads for validation and exports; 0 runs them on the event loop (no time limit enforcement). */
  workers: number;
  /** Jobs that may wait for a worker; more are refused with 503. */
  maxQueue: number;
  /** Time limit of one validate or export request (queue wait included), in ms. */
  timeoutMs: number;
  /** Time limit of one GitHub publish, in ms. */
  publishTimeoutMs: number;
  /** Publishes that may run at once; more are refused with 503. */
  maxPublishes: number;
  /** Time a client has to send a whole request (a slow client is answered 408), in ms. */
  requestTimeoutMs: number;
  /** Bytes of answers kept for repeated identical requests; 0 disables. */
  cacheBytes: number;
  /** The GitHub REST API root that publishes go to (never chosen by a request). */
  githubApiUrl: string;
  /** Multiplies the publisher's retry waits (0 in tests). */
  githubDelayScale: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "silent";
  /**
   * Host names (without port) the Host header may carry; "any" accepts every host. The
   * default for a server bound to this machine is its loopback names, which stops a web page
   * on another site from reaching it through DNS rebinding.
   */
  allowedHosts: string[] | "any";
  /** How long a shutdown waits for requests in flight before closing their connections, in ms. */
  shutdownTimeoutMs: number;
  /** Set when GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are: the page signs in with GitHub instead of asking for a token. */
  githubOAuth?: GitHubOAuthApp;
  /**
   * The address users reach this server at (behind a proxy: its https URL). The OAuth
   * callback is under it, and an https one makes the sign-in cookies Secure. Unset: the
   * request's own Host, over http.
   */
  publicUrl?: string;
  /**
   * The key that seals sign-in cookies (32 bytes). Random per process unless
   * ENVELOPE_SESSION_KEY gives one: instances behind one load balancer need the same key.
   */
  sessionKey: Buffer;
  /** How long a sign-in lasts, in seconds (one hour; shorter only in tests). */
  sessionSeconds?: number;
}

/** The body limit of every POST: 1 MiB (a 3-agent definition is about 8 kB). */
export const BODY_LIMIT = 1024 * 1024;

export class SettingsError extends Error {}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "silent"] as const;
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1", "[::1]"];

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Every setting, by the environment variable that sets it (documented in `envelope --help`). */
export const ENV = {
  host: "ENVELOPE_HOST",
  port: "ENVELOPE_PORT",
  workers: "ENVELOPE_WORKERS",
  maxQueue: "ENVELOPE_MAX_QUEUE",
  timeoutMs: "ENVELOPE_TIMEOUT_MS",
  publishTimeoutMs: "ENVELOPE_PUBLISH_TIMEOUT_MS",
  maxPublishes: "ENVELOPE_MAX_PUBLISHES",
  requestTimeoutMs: "ENVELOPE_REQUEST_TIMEOUT_MS",
  cacheMb: "ENVELOPE_CACHE_MB",
  logLevel: "ENVELOPE_LOG_LEVEL",
  allowedHosts: "ENVELOPE_ALLOWED_HOSTS",
  githubApiUrl: "GITHUB_API_URL",
  githubDelayScale: "ENVELOPE_GITHUB_DELAY_SCALE",
  githubClientId: "GITHUB_CLIENT_ID",
  githubClientSecret: "GITHUB_CLIENT_SECRET",
  githubWebUrl: "GITHUB_WEB_URL",
  publicUrl: "ENVELOPE_PUBLIC_URL",
  sessionKey: "ENVELOPE_SESSION_KEY",
} as const;

function int(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new SettingsError(`${name} must be a whole number, not ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new SettingsError(`${name} must be between ${min} and ${max}, not ${n}`);
  return n;
}

export interface SettingsOverrides {
  host?: string | undefined;
  port?: string | undefined;
  workers?: string | undefined;
}

export function resolveSettings(env: NodeJS.ProcessEnv, flags: SettingsOverrides = {}): ServeSettings {
  const pick = (flag: string | undefined, flagName: string, envName: string): [string, string] | undefined => {
    if (flag !== undefined) return [flagName, flag];
    const v = env[envName];
    return v !== undefined && v !== "" ? [envName, v] : undefined;
  };
  const host = pick(flags.host, "--host", ENV.host)?.[1] ?? "127.0.0.1";
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) throw new SettingsError(`--host must be a host name or address, not ${JSON.stringify(host)}`);
  const port = pick(flags.port, "--port", ENV.port);
  const workers = pick(flags.workers, "--workers", ENV.workers);
  const num = (envName: string, fallback: number, min: number, max: number) => {
    const v = env[envName];
    return v === undefined || v === "" ? fallback : int(envName, v, min, max);
  };
  const cores = Math.max(1, availableParallelism());
  const w = workers ? int(workers[0], workers[1], 0, 64) : cores;
  const level = env[ENV.logLevel] || "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new SettingsError(`${ENV.logLevel} must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(level)}`);
  const scaleRaw = env[ENV.githubDelayScale];
  const scale = scaleRaw === undefined || scaleRaw === "" ? 1 : Number(scaleRaw);
  if (!Number.isFinite(scale) || scale < 0) throw new SettingsError(`${ENV.githubDelayScale} must be a number ≥ 0, not ${JSON.stringify(scaleRaw)}`);
  const allowed = env[ENV.allowedHosts];
  const allowedHosts: string[] | "any" =
    allowed !== undefined && allowed !== "" ? (allowed.trim() === "*" ? "any" : allowed.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean)) : isLoopback(host) ? LOOPBACK_NAMES : "any";
  const githubApiUrl = env[ENV.githubApiUrl] || DEFAULT_API_URL;
  const githubOAuth = oauthApp(env, githubApiUrl);
  const publicRaw = env[ENV.publicUrl];
  const publicUrl = publicRaw ? baseUrl(ENV.publicUrl, publicRaw) : undefined;
  if (publicUrl && new URL(publicUrl).pathname !== "/") throw new SettingsError(`${ENV.publicUrl} must be the server's root address (https://HOST/), not one under a path: the page and its sign-in live at /`);
  if (githubOAuth && !isLoopback(host)) {
    // Beyond this machine the Host header is the client's to choose, and plain http carries the sealed cookie in clear.
    const u = publicUrl ? new URL(publicUrl) : undefined;
    if (!u || (u.protocol !== "https:" && !isLoopback(u.hostname))) {
      throw new SettingsError(`sign-in with GitHub on ${host} needs ${ENV.publicUrl}: the https address users reach this server at (its callback, ${ENV.publicUrl}auth/github/callback, is the one registered with the OAuth app)`);
    }
  }
  return {
    host,
    port: port ? int(port[0], port[1], 0, 65535) : 8787,
    workers: w,
    maxQueue: num(ENV.maxQueue, 256, 0, 100_000),
    timeoutMs: num(ENV.timeoutMs, 10_000, 1, 600_000),
    publishTimeoutMs: num(ENV.publishTimeoutMs, 120_000, 1, 3_600_000),
    maxPublishes: num(ENV.maxPublishes, 8, 1, 1000),
    requestTimeoutMs: num(ENV.requestTimeoutMs, 10_000, 1, 600_000),
    cacheBytes: num(ENV.cacheMb, 64, 0, 65_536) * 1024 * 1024,
    githubApiUrl,
    githubDelayScale: scale,
    logLevel: level as ServeSettings["logLevel"],
    allowedHosts,
    shutdownTimeoutMs: 10_000,
    ...(githubOAuth ? { githubOAuth } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    sessionKey: sessionKey(env[ENV.sessionKey]),
  };
}

function oauthApp(env: NodeJS.ProcessEnv, apiUrl: string): GitHubOAuthApp | undefined {
  const clientId = env[ENV.githubClientId] ?? "";
  const clientSecret = env[ENV.githubClientSecret] ?? "";
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) throw new SettingsError(`sign-in with GitHub needs both ${ENV.githubClientId} and ${ENV.githubClientSecret} (the OAuth app's client ID and a client secret)`);
  const web = env[ENV.githubWebUrl] || webUrlOf(apiUrl);
  if (!web) throw new SettingsError(`${ENV.githubWebUrl} is needed with GITHUB_API_URL=${apiUrl}: the web address where GitHub's sign-in pages are (https://HOST)`);
  const webUrl = new URL(baseUrl(ENV.githubWebUrl, web));
  // The client secret goes there: https, or plain http only to this machine (a test's fake GitHub).
  if (webUrl.protocol !== "https:" && !isLoopback(webUrl.hostname)) throw new SettingsError(`${ENV.githubWebUrl} must be https (plain http only to this machine), not ${JSON.stringify(web)}`);
  return { clientId, clientSecret, webUrl: webUrl.href.replace(/\/$/, "") };
}

/** github.com's web root for its API, or a GitHub Enterprise Server's (https://HOST/api/v3 → https://HOST). */
function webUrlOf(apiUrl: string): string | undefined {
  const url = apiUrl.replace(/\/+$/, "");
  if (url === DEFAULT_API_URL) return "https://github.com";
  return url.endsWith("/api/v3") ? url.slice(0, -"/api/v3".length) : undefined;
}

/** An http(s) URL without credentials, query or fragment, ending in "/". */
function baseUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError(`${name} must be a URL (https://HOST/…), not ${JSON.stringify(raw)}`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.search || url.hash) {
    throw new SettingsError(`${name} must be a plain http(s) URL without credentials, query or fragment, not ${JSON.stringify(raw)}`);
  }
  return url.href.endsWith("/") ? url.href : `${url.href}/`;
}

function sessionKey(raw: string | undefined): Buffer {
  if (!raw) return randomBytes(32);
  const key = Buffer.from(raw, /^[0-9a-f]{64}$/i.test(raw) ? "hex" : "base64");
  if (key.length !== 32) throw new SettingsError(`${ENV.sessionKey} must be 32 bytes, as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`);
  return key;
}
