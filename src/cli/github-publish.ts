// The CLI side of publishing to GitHub, shared by `export --github` and `publish`: flags,
// the token (GITHUB_TOKEN or --token-stdin, never an argument), progress lines, the final
// URL, and one exit code per kind of failure.
import type { FileSet } from "../export/file-set.js";
import { PublishError, type PublishErrorKind } from "../publish/errors.js";
import { checkApiUrl, DEFAULT_API_URL, publishToGitHub, type PublishResult } from "../publish/publish.js";
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

export interface GitHubRequest extends GitHubFlags {
  token: string;
  apiUrl: string;
  delayScale: number;
}

/**
 * Checks the flags and reads the token before any work is done, so a typo or a missing
 * token costs nothing. The token is never taken from the command line (ps, shell history).
 */
export async function prepareGitHub(flags: GitHubFlags, io: Io, options: { stdinTaken: boolean; needToken: boolean }): Promise<GitHubRequest> {
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
  if (flags.tokenStdin) {
    if (stdinTaken) throw new UsageError("--token-stdin cannot be used when the definition is read from standard input (-)");
    token = (await readAll(io.stdin ?? process.stdin)).replace(/\r?\n$/, "");
    if (!token) throw new UsageError("--token-stdin: standard input was empty; pipe the token in (e.g. from a password manager)");
  } else {
    token = io.env.GITHUB_TOKEN;
    if (!token) throw new UsageError("publishing to GitHub needs a token: set GITHUB_TOKEN, or pipe it in with --token-stdin");
  }
  if (/\s/.test(token)) throw new UsageError("the GitHub token contains white space; check how it was copied");
  return { ...flags, token, apiUrl, delayScale: scale };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export type GitHubOutcome = { ok: true; result: PublishResult; code: 0 } | { ok: false; error: PublishError; code: number };

/** The library's hints name no flags (the HTTP API shows them too); here the CLI's are added. */
function cliHint(e: PublishError): string | undefined {
  if (e.kind === "bad-credentials" && e.hint) return `${e.hint}; give the new one in GITHUB_TOKEN or with --token-stdin`;
  return e.hint;
}

/**
 * Publishes, writing progress (and with --verbose one line per request) to stderr, and on
 * failure the message, hint and suggestions. Every line passes through the token redactor,
 * a second guard behind the library's.
 */
export async function publishWithProgress(files: FileSet, request: GitHubRequest, io: Io, message: string, echoErrors: boolean): Promise<GitHubOutcome> {
  const redact = redactor(request.token);
  const line = (text: string) => io.stderr.write(redact(`github: ${printable(text)}\n`));
  try {
    const result = await publishToGitHub(files, {
      repository: request.repository,
      token: request.token,
      apiUrl: request.apiUrl,
      private: request.private,
      ...(request.description !== undefined ? { description: request.description } : {}),
      message,
      onProgress: line,
      onWarning: (text) => line(`warning: ${text}`),
      ...(request.verbose ? { onRequest: line } : {}),
      timing: { delayScale: request.delayScale },
    });
    return { ok: true, result, code: 0 };
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    if (echoErrors) {
      io.stderr.write(redact(`envelope: github: ${printable(e.message)}\n`));
      const hint = cliHint(e);
      if (hint) io.stderr.write(redact(`  hint: ${printable(hint)}\n`));
    }
    return { ok: false, error: e, code: exitCodeFor(e) };
  }
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

/** The `github` member of --json output. */
export function githubJson(outcome: GitHubOutcome, token: string): unknown {
  const redact = redactor(token);
  if (outcome.ok) return outcome.result;
  const e = outcome.error;
  const hint = cliHint(e);
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
  };
}

export function publishedLine(result: PublishResult): string {
  return `published ${result.files} files (${result.bytes} bytes) to ${result.url}\n`;
}

export function dryRunLine(files: FileSet, request: GitHubRequest): string {
  const host = new URL(request.apiUrl).host;
  return `would publish ${files.size} files to ${request.repository} (${request.private ? "private" : "public"}) on ${host === "api.github.com" ? "github.com" : host}\n`;
}
