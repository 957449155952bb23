// The server's settings: defaults, then environment variables, then command-line flags.
import { availableParallelism } from "node:os";
import { DEFAULT_API_URL } from "../publish/publish.js";

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
    githubApiUrl: env[ENV.githubApiUrl] || DEFAULT_API_URL,
    githubDelayScale: scale,
    logLevel: level as ServeSettings["logLevel"],
    allowedHosts,
    shutdownTimeoutMs: 10_000,
  };
}
