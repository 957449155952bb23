// The CLI side of publishing to GitHub, shared by `export --github` and `publish`: flags,
// the token (--token-stdin, GITHUB_TOKEN or the GitHub CLI's `gh auth token`, never an
// argument), progress lines, the final URL, and one exit code per kind of failure.
import { execFile } from "node:child_process";
import type { FileSet } from "../export/file-set.js";
import { PublishError, type PublishErrorKind } from "../publish/errors.js";
import { checkApiUrl, DEFAULT_API_URL, publishToGitHub, type ConnectionOptions, type PublishResult } from "../publish/publish.js";
import { parseRepositoryName } from "../publish/repository-name.js";
import { redactor } from "../publish/errors.js";
import { UsageError, type Io } from "./main.js";
import { printable } from "./style.js";

/** Distinct from validate/export's 0–2 and from Node's own exit codes (1–14, ≥ 128). */
export const GITHUB_EXIT: Record<Exclude<PublishErrorKind, "invalid-input">, number> = {
  "name-taken": 20,
  "bad-credentials": 21,
  "missing-permission": 22,
  "owner-not-found": 23,
  "rate-limited": 24,
  "github-unavailable": 25,
  "create-uncertain": 26,
  rejected: 27,
  // The CLI reports a taken repository that is not an export as name-taken: also 20.
  "not-an-export": 20,
};

export function exitCodeFor(error: PublishError): number {
  return error.kind === "invalid-input" ? 2 : GITHUB_EXIT[error.kind];
}

export interface GitHubFlags {
  repository: string;
  private: boolean;
  description?: string;
  apiUrl?: string;
  tokenStdin: boolean;
  verbose: boolean;
}

/** Where the token came from, said on stderr and in --json (the token itself never is). */
export type TokenSource = "--token-stdin" | "GITHUB_TOKEN" | "gh auth token";

export interface GitHubRequest extends GitHubFlags {
  token: string;
  /** Absent when no token was needed (--dry-run). */
  tokenSource?: TokenSource;
  apiUrl: string;
  delayScale: number;
}

/**
 * Checks the flags and reads the token before any work is done, so a typo or a missing
 * token costs nothing. The token is never taken from the command line (ps, shell history).
 */
export async function prepareGitHub(flags: GitHubFlags, io: Io, options: { stdinTaken: boolean; needToken: boolean | "if-at-hand" }): Promise<GitHubRequest> {
  const flag = flags.apiUrl !== undefined ? "--github-api-url" : "GITHUB_API_URL";
  let apiUrl = flags.apiUrl ?? (io.env.GITHUB_API_URL || DEFAULT_API_URL);
  try {
    parseRepositoryName(flags.repository);
  } catch (e) {
    if (e instanceof PublishError) throw new UsageError(`--github: ${e.message}${e.hint ? ` (${e.hint})` : ""}`);
    throw e;
  }
  try {
    apiUrl = checkApiUrl(apiUrl);
  } catch (e) {
    if (e instanceof PublishError) throw new UsageError(`${flag}: ${e.message}`);
    throw e;
  }
  const scale = delayScale(io.env);
  if (!options.needToken) return { ...flags, token: "", apiUrl, delayScale: scale };
  const stdinTaken = options.stdinTaken;
  let token: string | undefined;
  let tokenSource: TokenSource;
  if (flags.tokenStdin) {
    // Asked for explicitly, so it wins over GITHUB_TOKEN and gh.
    if (stdinTaken) throw new UsageError("--token-stdin cannot be used when the definition is read from standard input (-)");
    token = (await readAll(io.stdin ?? process.stdin)).replace(/\r?\n$/, "");
    if (!token) throw new UsageError("--token-stdin: standard input was empty; pipe the token in (e.g. from a password manager)");
    tokenSource = "--token-stdin";
  } else if (io.env.GITHUB_TOKEN) {
    token = io.env.GITHUB_TOKEN;
    tokenSource = "GITHUB_TOKEN";
  } else {
    const gh = await ghAuthToken(io.env, ghHostname(apiUrl));
    // A dry run looks at the repository when it can, and does without when it cannot.
    if (!gh.ok && options.needToken === "if-at-hand") return { ...flags, token: "", apiUrl, delayScale: scale };
    if (!gh.ok) {
      throw new UsageError(`publishing to GitHub needs a token: set GITHUB_TOKEN, pipe it in with --token-stdin, or sign the GitHub CLI in with \`gh auth login\` (${gh.reason})`);
    }
    token = gh.token;
    tokenSource = "gh auth token";
  }
  if (/\s/.test(token)) throw new UsageError("the GitHub token contains white space; check how it was copied");
  return { ...flags, token, tokenSource, apiUrl, delayScale: scale };
}

/** The host `gh` knows an API URL's server by: github.com for api.github.com, TENANT.ghe.com for api.TENANT.ghe.com, else the URL's host (GHES). */
export function ghHostname(apiUrl: string): string {
  const host = new URL(apiUrl).host;
  if (host === "api.github.com") return "github.com";
  if (/^api\.[^.]+\.ghe\.com$/.test(host)) return host.slice("api.".length);
  return host;
}

const GH_TIMEOUT_MS = 5_000;

/**
 * `gh auth token --hostname HOST`, run without a shell and with a short timeout. Not having
 * gh on PATH, or gh not signed in to HOST, is a reason to give, not an error.
 */
function ghAuthToken(env: NodeJS.ProcessEnv, hostname: string): Promise<{ ok: true; token: string } | { ok: false; reason: string }> {
  // Only the caller's PATH is searched: with none, there is no gh to find.
  if (!env.PATH) return Promise.resolve({ ok: false, reason: "no PATH to find gh on" });
  return new Promise((resolve) => {
    execFile("gh", ["auth", "token", "--hostname", hostname], { env, timeout: GH_TIMEOUT_MS, maxBuffer: 64 * 1024, encoding: "utf8", windowsHide: true }, (error, stdout, stderr) => {
      if (!error) {
        const token = stdout.replace(/\r?\n$/, "");
        resolve(token ? { ok: true, token } : { ok: false, reason: `gh auth token printed no token for ${hostname}` });
        return;
      }
      const e = error as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === "ENOENT") resolve({ ok: false, reason: "gh, the GitHub CLI, is not installed" });
      else if (e.killed) resolve({ ok: false, reason: `gh auth token did not answer within ${GH_TIMEOUT_MS / 1000} s` });
      else {
        // gh's own words (e.g. "no oauth token found for github.com"): the first line, and
        // through the redactor of whatever it printed on stdout, should that be a token.
        const said = redactor(stdout.trim())(printable(stderr.trim().split("\n")[0] ?? "")).slice(0, 200);
        resolve({ ok: false, reason: `gh gave no token for ${hostname}${said ? `: ${said}` : ""}` });
      }
    });
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export type GitHubOutcome = { ok: true; result: PublishResult; code: 0 } | { ok: false; error: PublishError; code: number };

/** The library's hints name no flags (the HTTP API shows them too); here the CLI's are added. */
function cliHint(e: PublishError, source: TokenSource | undefined): string | undefined {
  if (e.kind === "bad-credentials" && e.hint) {
    return source === "gh auth token" ? `${e.hint}; or sign the GitHub CLI in again with \`gh auth login\`` : `${e.hint}; give the new one in GITHUB_TOKEN or with --token-stdin`;
  }
  return e.hint;
}

/**
 * Publishes, writing progress (and with --verbose one line per request) to stderr, and on
 * failure the message, hint and suggestions. Every line passes through the token redactor,
 * a second guard behind the library's.
 */
export async function publishWithProgress(files: FileSet, request: GitHubRequest, io: Io, message: string, echoErrors: boolean): Promise<GitHubOutcome> {
  const line = progressLine(request, io);
  if (request.tokenSource) line(`token from ${request.tokenSource}`);
  try {
    const result = await publishToGitHub(files, {
      ...connection(request, line),
      private: request.private,
      ...(request.description !== undefined ? { description: request.description } : {}),
      message,
    });
    return { ok: true, result, code: 0 };
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    if (echoErrors) echoPublishError(e, request, io);
    return { ok: false, error: e, code: exitCodeFor(e) };
  }
}

/** What a publish and an update both take from the request: where, the token, and where progress goes. */
export function connection(request: GitHubRequest, line: (text: string) => void): ConnectionOptions & { repository: string } {
  return {
    repository: request.repository,
    token: request.token,
    apiUrl: request.apiUrl,
    onProgress: line,
    onWarning: (text) => line(`warning: ${text}`),
    ...(request.verbose ? { onRequest: line } : {}),
    timing: { delayScale: request.delayScale },
  };
}

/** A progress line on stderr (`github: …`), through the token redactor. */
export function progressLine(request: GitHubRequest, io: Io): (text: string) => void {
  const redact = redactor(request.token);
  return (text) => io.stderr.write(redact(`github: ${printable(text)}\n`));
}

/** The error and its hint (with the CLI's flags) on stderr. */
export function echoPublishError(e: PublishError, request: GitHubRequest, io: Io): void {
  const redact = redactor(request.token);
  io.stderr.write(redact(`envelope: github: ${printable(e.message)}\n`));
  const hint = cliHint(e, request.tokenSource);
  if (hint) io.stderr.write(redact(`  hint: ${printable(hint)}\n`));
}

/**
 * ENVELOPE_GITHUB_DELAY_SCALE multiplies every wait (retry backoff, readiness polling,
 * rate-limit waits): the test suite sets 0 so failures are exercised without sleeping.
 */
function delayScale(env: NodeJS.ProcessEnv): number {
  const raw = env.ENVELOPE_GITHUB_DELAY_SCALE;
  if (raw === undefined || raw === "") return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`ENVELOPE_GITHUB_DELAY_SCALE must be a number ≥ 0, not ${JSON.stringify(raw)}`);
  return n;
}

/** The `github` member of --json output, with where the token came from. */
export function githubJson(outcome: GitHubOutcome, request: GitHubRequest): unknown {
  const redact = redactor(request.token);
  const tokenSource = request.tokenSource ?? null;
  if (outcome.ok) return { ...outcome.result, tokenSource };
  const e = outcome.error;
  const hint = cliHint(e, request.tokenSource);
  return {
    error: {
      kind: e.kind,
      exitCode: outcome.code,
      message: redact(e.message),
      hint: hint === undefined ? null : redact(hint),
      suggestions: e.details.suggestions ?? [],
      repository: e.details.repository ?? null,
      status: e.details.status ?? null,
    },
    tokenSource,
  };
}

export function publishedLine(result: PublishResult): string {
  return `published ${result.files} files (${result.bytes} bytes) to ${result.url}\n`;
}

export function dryRunLine(files: FileSet, request: GitHubRequest): string {
  const host = new URL(request.apiUrl).host;
  return `would publish ${files.size} files to ${request.repository} (${request.private ? "private" : "public"}) on ${host === "api.github.com" ? "github.com" : host}\n`;
}
