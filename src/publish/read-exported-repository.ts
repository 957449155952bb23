// The default branch of a repository an earlier export made, read through the Git Data API:
// its head commit, its whole tree (recursive), the export's record (.envelope/export.json,
// and pristine.json: the base of an update's merge), and any file's bytes on demand, each
// blob fetched once. A repository that does not exist or holds no record is "not-an-export".
import { createHash } from "node:crypto";
import type { FileSet } from "../export/file-set.js";
import { LEDGER_PATH, parseLedger, parsePristine, PRISTINE_PATH, RecordError, type Ledger } from "../export/ledger.js";
import { classifyError, TOKEN_ADVICE } from "./classify-error.js";
import { PublishError } from "./errors.js";
import { isHttpError, type GitHubClient } from "./github-client.js";
import { scopesOf } from "./publish.js";

export interface TreeFile {
  path: string;
  mode: string;
  type: string;
  sha: string;
}

export interface ExportedRepository {
  fullName: string;
  url: string;
  private: boolean;
  /** A classic token's scopes, as GitHub announced them. */
  scopes: string[] | null;
  branch: string;
  /** The default branch's head commit, and its tree. */
  head: string;
  tree: string;
  files: Map<string, TreeFile>;
  /** A file's bytes on the default branch (each fetched once). */
  blob: (path: string) => Promise<Uint8Array>;
  /** The last export recorded on the default branch: its ledger, and the files it wrote (the base of the merge). */
  last: Ledger;
  base: FileSet;
}

/** The default branch of a repository an earlier export made, with that export's record; "not-an-export" otherwise. */
export async function readExportedRepository(client: GitHubClient, at: { owner: string; repo: string }): Promise<ExportedRepository> {
  const { repos, git } = client.octokit.rest;
  let repo;
  try {
    repo = await repos.get(at);
  } catch (e) {
    if (isHttpError(e) && e.status === 404) throw notAnExport(`${at.owner}/${at.repo} does not exist (or this token cannot see it): there is no earlier export to update`, 404);
    throw classifyError(e, `reading ${at.owner}/${at.repo}`);
  }
  const { default_branch: branch = "main", html_url: url, full_name: fullName } = repo.data;
  if (repo.data.permissions && !repo.data.permissions.push) {
    throw new PublishError("missing-permission", `the token's account may not push to ${fullName}, so it cannot open a pull request from a branch there`, { hint: TOKEN_ADVICE });
  }
  const head = await read(`reading ${branch}`, async () => {
    try {
      return (await git.getRef({ ...at, ref: `heads/${branch}` })).data.object.sha;
    } catch (e) {
      if (isHttpError(e) && (e.status === 404 || e.status === 409)) throw notAnExport(`${fullName} has no ${branch} branch to update (it is empty): it holds no earlier export`);
      throw e;
    }
  });
  const tree = await read(`reading ${branch}`, async () => (await git.getCommit({ ...at, commit_sha: head })).data.tree.sha);
  const listing = await read(`reading the files of ${branch}`, async () => (await git.getTree({ ...at, tree_sha: tree, recursive: "1" })).data);
  if (listing.truncated) throw new PublishError("rejected", `${fullName} holds more files than GitHub lists in one tree, so it cannot be updated through the API`, { hint: "update a local clone with `envelope export --out` and push it" });
  const files = new Map<string, TreeFile>(listing.tree.filter((t) => t.path && t.sha && t.mode && t.type).map((t) => [t.path!, t as TreeFile]));
  const fetched = new Map<string, Promise<Uint8Array>>();
  const blob = (path: string) => fetched.get(path) ?? fetched.set(path, readBlob(client, at, files.get(path)!)).get(path)!;
  if (!isRegularFile(files.get(LEDGER_PATH))) throw notAnExport(`${fullName} holds no ${LEDGER_PATH} on ${branch}: it is not a repository exported by envelope-export (or its record was removed)`);
  try {
    const last = parseLedger(Buffer.from(await blob(LEDGER_PATH)).toString("utf8"));
    if (!isRegularFile(files.get(PRISTINE_PATH))) throw new RecordError(`${PRISTINE_PATH} is missing: the base of the merge is gone`);
    const base = parsePristine(Buffer.from(await blob(PRISTINE_PATH)).toString("utf8"));
    return { fullName, url, private: repo.data.private, scopes: scopesOf(repo.headers), branch, head, tree, files, blob, last, base };
  } catch (e) {
    if (e instanceof RecordError) throw notAnExport(`${fullName}: ${e.message}`);
    throw e;
  }
}

/** status 404: there is no such repository (a dry run then says it would be created). */
export function notAnExport(message: string, status?: number): PublishError {
  return new PublishError("not-an-export", message, { ...(status ? { status } : {}), hint: "publish a new repository with --github OWNER/ANOTHER-NAME, or export --out DIR into a local clone" });
}

/** Git's name for a blob with these bytes (what a tree entry's sha is). */
export function blobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** A file git tracks as a plain or executable file (not a link, folder or submodule). */
export function isRegularFile(item: TreeFile | undefined): item is TreeFile {
  return item !== undefined && item.type === "blob" && (item.mode === "100644" || item.mode === "100755");
}

export async function read<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw classifyError(e, doing);
  }
}

async function readBlob(client: GitHubClient, at: { owner: string; repo: string }, item: TreeFile): Promise<Uint8Array> {
  const data = await read(`reading ${item.path}`, async () => (await client.octokit.rest.git.getBlob({ ...at, file_sha: item.sha })).data);
  return data.encoding === "base64" ? Buffer.from(data.content, "base64") : Buffer.from(data.content, "utf8");
}
