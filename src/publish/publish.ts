// publishToGitHub(files, options): a new GitHub repository whose history is exactly one
// commit holding the file set byte for byte. The flow, and why:
//  1. Who is OWNER? GET /users/{owner}: an organization gets POST /orgs/{org}/repos; a user
//     must be the token's own account (POST /user/repos creates in the token's account, so
//     publishing to someone else's name would silently land in the wrong place).
//  2. GET /repos/{owner}/{name}: a taken name is reported, with free names, before creating.
//     It also makes a failed create recoverable: the name was free a moment before, so a
//     repository that appears after a 5xx is ours, and it is used instead of created twice.
//     (Before the scopes: a taken name may be an earlier export's repository, which
//     `export --github` then updates with a pull request, checking the scopes it needs.)
//  3. A classic token announces its scopes (x-oauth-scopes): missing ones are named before
//     anything is created, including `workflow` when the project has .github/workflows/.
//  4. Create with auto_init: the Git Data API answers 409 on an empty repository.
//  5. Wait for the default branch (retry 404 and 409 only, bounded backoff): GitHub answers
//     the create before the repository is readable.
//  6. Binary files as blobs; text inline in one tree built without base_tree (which drops
//     the README from auto_init); chunked when large, each chunk on top of the last.
//  7. One root commit (no parents), and the branch forced onto it.
import type { FileSet } from "../export/file-set.js";
import { VERSION } from "../version.js";
import { classifyError, leftBehind, TOKEN_ADVICE } from "./classify-error.js";
import { PublishError, redactor, type LeftRepository } from "./errors.js";
import { createClient, isHttpError, type GitHubClient, type PublishTiming } from "./github-client.js";
import { alternativeNames, parseRepositoryName } from "./repository-name.js";
import { chunkTree, DEFAULT_LIMITS, planUpload, type TreeEntry, type UploadLimits, type UploadPlan } from "./upload-plan.js";
import { tolerateLag, writeTree } from "./write-tree.js";

export const DEFAULT_API_URL = "https://api.github.com";

/** The one commit of an exported project (`export --github` and the server make the same repository). */
export function exportCommitMessage(target: string): string {
  return `Initial commit\n\nExported from an Envelope team definition by envelope-export ${VERSION} (target ${target}).\n`;
}

export interface PublishOptions {
  /** OWNER/NAME of the repository to create. */
  repository: string;
  /** A GitHub token. It is sent only as the Authorization header and never printed. */
  token: string;
  private?: boolean;
  description?: string;
  /** The REST API root: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  apiUrl?: string;
  /** The commit message. */
  message?: string;
  /** The commit author; by default the token's account. */
  author?: { name: string; email: string };
  /** Progress in words, one line per step ("creating octocat/team (public)"). */
  onProgress?: (line: string) => void;
  /** One line per HTTP request (method, path, status, time): for --verbose. */
  onRequest?: (line: string) => void;
  /** Warnings from the GitHub client (deprecations). Printed to stderr when absent. */
  onWarning?: (line: string) => void;
  limits?: Partial<UploadLimits>;
  timing?: PublishTiming;
  /** The fetch to use (a proxy-aware one, or a test double). */
  fetch?: typeof globalThis.fetch;
}

export interface PublishResult {
  /** The repository's web page. */
  url: string;
  cloneUrl: string;
  fullName: string;
  owner: string;
  name: string;
  private: boolean;
  defaultBranch: string;
  /** The one commit, and its tree. */
  commit: string;
  tree: string;
  files: number;
  bytes: number;
  /** createBlob calls (binary or large files) and createTree calls. */
  blobs: number;
  trees: number;
  /** HTTP requests made, in total and those that write (POST/PATCH). */
  requests: { total: number; writes: number };
  /** True when creating failed mid-way and the repository it had created was used. */
  recovered: boolean;
}

interface Repo {
  owner: string;
  name: string;
  fullName: string;
  url: string;
  cloneUrl: string;
  private: boolean;
  defaultBranch: string;
}

const READINESS_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 8000, 8000];
const CREATE_CHECK_DELAYS_MS = [1000, 2000, 4000];

export function publishToGitHub(files: FileSet, options: PublishOptions): Promise<PublishResult> {
  return redacting(options, (progress) => run(files, options, progress));
}

/** The options a publish and an update both take to reach GitHub. */
export type ConnectionOptions = Pick<PublishOptions, "token" | "apiUrl" | "onProgress" | "onRequest" | "onWarning" | "timing" | "fetch">;

/**
 * Runs a job with progress and errors passed through the token redactor: the second line of
 * defence, as nothing in a message should hold the token, ever.
 */
export async function redacting<T>(options: ConnectionOptions, job: (progress: (line: string) => void) => Promise<T>): Promise<T> {
  const redact = redactor(options.token ?? "");
  try {
    return await job((line: string) => options.onProgress?.(redact(line)));
  } catch (e) {
    if (e instanceof PublishError) {
      const details = { ...e.details, ...(e.details.hint ? { hint: redact(e.details.hint) } : {}) };
      throw new PublishError(e.kind, redact(e.message), details);
    }
    throw e;
  }
}

/** The client for one job, after checking the token's form and the API URL. */
export function connect(options: ConnectionOptions, progress: (line: string) => void): { client: GitHubClient; apiUrl: string } {
  if (!options.token || /\s/.test(options.token)) {
    throw new PublishError("invalid-input", "a GitHub token is needed (set GITHUB_TOKEN or use --token-stdin)", { hint: TOKEN_ADVICE });
  }
  const apiUrl = checkApiUrl(options.apiUrl ?? DEFAULT_API_URL);
  const client = createClient({
    token: options.token,
    apiUrl,
    timing: options.timing ?? {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
    notify: progress,
    ...(options.onRequest ? { verbose: options.onRequest } : {}),
    warn: options.onWarning ?? ((line) => process.stderr.write(`envelope: github: ${line}\n`)),
  });
  return { client, apiUrl };
}

async function run(files: FileSet, options: PublishOptions, progress: (line: string) => void): Promise<PublishResult> {
  const { client, apiUrl } = connect(options, progress);
  const { owner, name } = parseRepositoryName(options.repository);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const plan = planUpload(files, limits);
  const isPrivate = options.private ?? false;

  progress(`checking ${owner} on ${hostOf(apiUrl)}`);
  const account = await resolveOwner(client, owner);
  if (await repositoryExists(client, owner, name)) throw await nameTaken(client, owner, name);
  const missing = missingScopes(account.scopes, { private: isPrivate, workflows: plan.workflows.length > 0 });
  if (missing.length) {
    const why = plan.workflows.length && missing.includes("workflow") ? ` (the project contains ${plan.workflows[0]}${plan.workflows.length > 1 ? ` and ${plan.workflows.length - 1} more workflow file(s)` : ""})` : "";
    throw new PublishError("missing-permission", `the token lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}${why}; nothing was created`, {
      hint: `add ${missing.join(" and ")} to the token's scopes (github.com/settings/tokens), or use a fine-grained token; ${TOKEN_ADVICE}`,
    });
  }

  progress(`creating ${owner}/${name} (${isPrivate ? "private" : "public"})`);
  const created = await createRepository(client, { owner, name, isPrivate, org: account.kind === "org", description: options.description, web: webOf(apiUrl) }, progress);
  const { repo } = created;
  const left: LeftRepository = { fullName: repo.fullName, url: repo.url };

  progress(`waiting for GitHub to set up ${repo.defaultBranch}`);
  await waitForBranch(client, repo, options.timing?.readinessDelaysMs ?? READINESS_DELAYS_MS, left);

  const git = client.octokit.rest.git;
  const at = { owner: repo.owner, repo: repo.name };
  const shas = new Map<string, string>();
  if (plan.blobs.length) progress(`uploading ${plan.blobs.length} binary or large file${plan.blobs.length === 1 ? "" : "s"} as blobs`);
  for (const file of plan.blobs) {
    const { data } = await tolerateLag(client, `uploading ${file.path}`, left, () => git.createBlob({ ...at, content: Buffer.from(file.bytes).toString("base64"), encoding: "base64" }));
    shas.set(file.path, data.sha);
  }
  const entries: TreeEntry[] = plan.files.map((f) => (f.text !== undefined ? { path: f.path, mode: f.mode, type: "blob", content: f.text } : { path: f.path, mode: f.mode, type: "blob", sha: shas.get(f.path)! }));
  const chunks = chunkTree(entries, limits);
  progress(`writing ${plan.files.length} files (${plan.totalBytes} bytes) in ${chunks.length === 1 ? "one tree request" : `${chunks.length} tree requests`}`);
  const tree = await writeTree(client, at, chunks, left);

  progress(`committing`);
  const { data: commit } = await tolerateLag(client, "creating the commit", left, () =>
    git.createCommit({ ...at, message: options.message ?? "Initial commit", tree: tree.sha, parents: [], ...(options.author ? { author: options.author } : {}) }),
  );
  progress(`pointing ${repo.defaultBranch} at the commit`);
  await tolerateLag(client, `updating ${repo.defaultBranch}`, left, () => git.updateRef({ ...at, ref: `heads/${repo.defaultBranch}`, sha: commit.sha, force: true }));

  return {
    url: repo.url,
    cloneUrl: repo.cloneUrl,
    fullName: repo.fullName,
    owner: repo.owner,
    name: repo.name,
    private: repo.private,
    defaultBranch: repo.defaultBranch,
    commit: commit.sha,
    tree: tree.sha,
    files: plan.files.length,
    bytes: plan.totalBytes,
    blobs: plan.blobs.length,
    trees: tree.requests,
    requests: { ...client.counts },
    recovered: created.recovered,
  };
}

/** The API root without a trailing slash; https only (plain http only to this machine). */
export function checkApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PublishError("invalid-input", `the GitHub API URL ${JSON.stringify(raw)} is not a URL (expected https://api.github.com or https://HOST/api/v3)`);
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) || url.hostname.startsWith("127.");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new PublishError("invalid-input", `refusing to send the token to ${url.protocol}//${url.host}: use https (plain http only to this machine)`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new PublishError("invalid-input", "the GitHub API URL must not carry credentials, a query or a fragment");
  }
  return url.toString().replace(/\/+$/, "");
}

function hostOf(apiUrl: string): string {
  const host = new URL(apiUrl).host;
  return host === "api.github.com" ? "github.com" : host;
}

/** Where repositories are seen in a browser: github.com, or the Enterprise Server's host. */
function webOf(apiUrl: string): string {
  const url = new URL(apiUrl);
  return `${url.protocol}//${hostOf(apiUrl)}`;
}

interface Account {
  kind: "user" | "org";
  login: string;
  /** A classic token's scopes (x-oauth-scopes); null for tokens that have none to announce. */
  scopes: string[] | null;
}

async function resolveOwner(client: GitHubClient, owner: string): Promise<Account> {
  const { users } = client.octokit.rest;
  let found;
  try {
    found = await users.getByUsername({ username: owner });
  } catch (e) {
    if (isHttpError(e) && e.status === 404) {
      throw new PublishError("owner-not-found", `there is no GitHub user or organization called ${owner}`, { status: 404, hint: "check the spelling of OWNER in --github OWNER/NAME" });
    }
    throw classifyError(e, `looking up ${owner}`);
  }
  const scopes = scopesOf(found.headers);
  if (found.data.type === "Organization") return { kind: "org", login: found.data.login, scopes };
  let me;
  try {
    me = await users.getAuthenticated();
  } catch (e) {
    throw classifyError(e, "identifying the token's account");
  }
  if (me.data.login.toLowerCase() !== owner.toLowerCase()) {
    throw new PublishError("missing-permission", `${owner} is another person's account: this token belongs to ${me.data.login}, and a token can only create repositories in its own account or in an organization`, {
      hint: `publish to ${me.data.login}/NAME or to an organization you may create repositories in`,
    });
  }
  return { kind: "user", login: me.data.login, scopes: scopesOf(me.headers) ?? scopes };
}

export function scopesOf(headers: Record<string, unknown>): string[] | null {
  const raw = headers["x-oauth-scopes"];
  if (typeof raw !== "string") return null;
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

export function missingScopes(scopes: string[] | null, needs: { private: boolean; workflows: boolean }): string[] {
  if (scopes === null) return []; // fine-grained and app tokens: GitHub answers with 403 instead
  const has = new Set(scopes);
  const missing: string[] = [];
  if (!has.has("repo") && (needs.private || !has.has("public_repo"))) missing.push(needs.private ? "repo" : "public_repo");
  if (needs.workflows && !has.has("workflow")) missing.push("workflow");
  return missing;
}

/** Whether OWNER/NAME names a repository the token can see (a rename redirect does not count). */
async function repositoryExists(client: GitHubClient, owner: string, name: string): Promise<boolean> {
  try {
    const { data } = await client.octokit.rest.repos.get({ owner, repo: name });
    return data.full_name.toLowerCase() === `${owner}/${name}`.toLowerCase();
  } catch (e) {
    if (isHttpError(e) && e.status === 404) return false;
    throw classifyError(e, `checking whether ${owner}/${name} exists`);
  }
}

async function nameTaken(client: GitHubClient, owner: string, name: string): Promise<PublishError> {
  const free: string[] = [];
  for (const candidate of alternativeNames(name, 5)) {
    if (free.length === 3) break;
    try {
      if (!(await repositoryExists(client, owner, candidate))) free.push(candidate);
    } catch {
      break; // suggestions are a courtesy: never let them hide the real error
    }
  }
  return new PublishError("name-taken", `${owner}/${name} already exists`, {
    suggestions: free,
    status: 422,
    hint: free.length ? `free names: ${free.map((n) => `${owner}/${n}`).join(", ")}` : "choose another name",
  });
}

function isNameExistsError(e: unknown): boolean {
  if (!isHttpError(e) || e.status !== 422) return false;
  const errors = (e.response?.data as { errors?: Array<{ field?: string; message?: string }> } | undefined)?.errors;
  return Array.isArray(errors) && errors.some((x) => x.field === "name" && /already exists/i.test(x.message ?? ""));
}

/** A failure after which the repository may or may not exist. */
function mayHaveCreated(e: unknown): boolean {
  if (!isHttpError(e)) {
    const name = (e as { name?: unknown })?.name;
    return name === "AbortError" || name === "TimeoutError";
  }
  return e.status >= 500;
}

async function createRepository(
  client: GitHubClient,
  req: { owner: string; name: string; isPrivate: boolean; org: boolean; description: string | undefined; web: string },
  progress: (line: string) => void,
): Promise<{ repo: Repo; recovered: boolean }> {
  const { repos } = client.octokit.rest;
  const body = { name: req.name, private: req.isPrivate, auto_init: true, ...(req.description ? { description: req.description } : {}) };
  try {
    // retries: 0 — a retried POST after a 5xx could create the repository twice (or fail as "exists").
    const { data } = req.org ? await repos.createInOrg({ org: req.owner, ...body, request: { retries: 0 } }) : await repos.createForAuthenticatedUser({ ...body, request: { retries: 0 } });
    return { repo: toRepo(data), recovered: false };
  } catch (e) {
    if (isNameExistsError(e)) throw await nameTaken(client, req.owner, req.name);
    if (isHttpError(e) && e.status === 404) {
      throw new PublishError(
        req.org ? "owner-not-found" : "missing-permission",
        req.org ? `GitHub does not let this token create repositories in ${req.owner} (404): the organization is not visible to it` : "GitHub does not let this token create repositories (404)",
        { status: 404, hint: TOKEN_ADVICE },
      );
    }
    if (!mayHaveCreated(e)) throw classifyError(e, `creating ${req.owner}/${req.name}`);
    const status = isHttpError(e) ? String(e.status) : "no answer";
    progress(`GitHub failed while creating ${req.owner}/${req.name} (${status}); checking whether it was created anyway, rather than creating it twice`);
    for (const delay of CREATE_CHECK_DELAYS_MS) {
      await client.sleep(delay * client.scale);
      let data;
      try {
        data = (await repos.get({ owner: req.owner, repo: req.name })).data;
      } catch (again) {
        if (isHttpError(again) && again.status === 404) continue;
        break;
      }
      if (data.full_name.toLowerCase() !== `${req.owner}/${req.name}`.toLowerCase()) continue;
      const repo = toRepo(data);
      if (await isUntouched(client, repo)) {
        progress(`${repo.fullName} was created; using it`);
        return { repo, recovered: true };
      }
      break;
    }
    throw new PublishError(
      "create-uncertain",
      `GitHub failed while creating ${req.owner}/${req.name} (${status}), and whether the repository now exists cannot be told; it was not created again, so as not to create it twice`,
      { ...(isHttpError(e) ? { status: e.status } : {}), hint: `look at ${req.web}/${req.owner}/${req.name}: if it exists and is empty, delete it; then publish again` },
    );
  }
}

function toRepo(data: { name: string; full_name: string; html_url: string; clone_url: string; private: boolean; default_branch?: string; owner: { login: string } }): Repo {
  return {
    owner: data.owner.login,
    name: data.name,
    fullName: data.full_name,
    url: data.html_url,
    cloneUrl: data.clone_url,
    private: data.private,
    defaultBranch: data.default_branch || "main",
  };
}

/** Empty, or holding only the one parentless commit GitHub's auto_init writes. */
async function isUntouched(client: GitHubClient, repo: Repo): Promise<boolean> {
  const { git } = client.octokit.rest;
  const at = { owner: repo.owner, repo: repo.name };
  try {
    const ref = await git.getRef({ ...at, ref: `heads/${repo.defaultBranch}`, request: { retries: 0 } });
    const commit = await git.getCommit({ ...at, commit_sha: ref.data.object.sha });
    return commit.data.parents.length === 0;
  } catch (e) {
    return isHttpError(e) && (e.status === 404 || e.status === 409);
  }
}

async function waitForBranch(client: GitHubClient, repo: Repo, delays: number[], left: LeftRepository): Promise<void> {
  const { git } = client.octokit.rest;
  for (let attempt = 0; ; attempt++) {
    try {
      await git.getRef({ owner: repo.owner, repo: repo.name, ref: `heads/${repo.defaultBranch}` });
      return;
    } catch (e) {
      const notYet = isHttpError(e) && (e.status === 404 || e.status === 409);
      if (!notYet) throw classifyError(e, "waiting for the new repository", left);
      const delay = delays[attempt];
      if (delay === undefined) {
        const waited = delays.reduce((a, b) => a + b, 0) * client.scale;
        throw new PublishError("github-unavailable", `GitHub had not finished setting up ${repo.fullName} after ${Math.round(waited / 1000)} s (it still answers ${e.status}). ${leftBehind(left)}`, {
          repository: left,
          status: e.status,
          hint: "GitHub may be slow right now; try again in a few minutes",
        });
      }
      await client.sleep(delay * client.scale);
    }
  }
}

export type { UploadPlan };
