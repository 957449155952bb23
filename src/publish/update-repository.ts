// updateGitHubRepository(files, options): a new export of a repository this tool created,
// offered as a pull request. The repository's default branch is what the developer has
// now; .envelope/pristine.json on it is the last export (the base of the merge); the plan
// is exactly the one `export --out` makes for a local copy (src/update/plan.ts). The flow:
//  1. GET the repository (its default branch, and the token's scopes), the branch's head
//     commit and its whole tree (recursive), the record's two blobs, and the blobs of the
//     paths the plan looks at that neither export wrote as they are (the developer's edits:
//     a blob named as one of the exports' contents is not fetched).
//  2. Nothing to change → "up to date": no branch, no pull request.
//  3. One tree on top of the head's tree (written files; removed ones with sha null), one
//     commit whose parent is the head, and a NEW branch envelope/update-<definition hash>
//     (a taken name gets a suffix: an existing ref is never moved, nothing is forced, and
//     the default branch is never written); then the pull request into the default branch.
//     The same update proposed before (a branch with this tree on this head, its pull
//     request open) is reported, not proposed twice.
// Conflicting files are committed with their markers, so they are resolved in the pull request.
import { FileSet } from "../export/file-set.js";
import { LEDGER_PATH, parseLedger, type Ledger } from "../export/ledger.js";
import { lossChanges, type LossChanges } from "../update/loss-changes.js";
import { changes, IGNORE_FILE, planUpdate, type Current, type PlanEntry } from "../update/plan.js";
import { VERSION } from "../version.js";
import { classifyError, TOKEN_ADVICE } from "./classify-error.js";
import { PublishError } from "./errors.js";
import { isHttpError, type GitHubClient } from "./github-client.js";
import { connect, missingScopes, redacting, type ConnectionOptions } from "./publish.js";
import { blobSha, isRegularFile, read, readExportedRepository } from "./read-exported-repository.js";
import { definitionIdentity, pullRequestBody, pullRequestTitle, shortHash } from "./pull-request-text.js";
import { parseRepositoryName } from "./repository-name.js";
import { chunkTree, DEFAULT_LIMITS, planUpload, type TreeEntry, type UploadLimits } from "./upload-plan.js";
import { writeTree } from "./write-tree.js";

export interface UpdateRepositoryOptions extends ConnectionOptions {
  /** OWNER/NAME of a repository an earlier export was published to. */
  repository: string;
  /** The pull request's title; by default it names the team and the two definitions' versions. */
  title?: string;
  /** Read the repository and plan, write nothing. */
  dryRun?: boolean;
  author?: { name: string; email: string };
  limits?: Partial<UploadLimits>;
}

export interface UpdateRepositoryResult {
  /** up-to-date: nothing to change; planned: --dry-run; opened: a pull request was opened; already-proposed: the same update's pull request is open. */
  status: "up-to-date" | "planned" | "opened" | "already-proposed";
  fullName: string;
  url: string;
  defaultBranch: string;
  /** The default branch's head commit the update was planned against (and is the parent of its commit). */
  base: string;
  plan: PlanEntry[];
  /** The ledger of the last export, as the repository holds it. */
  lastExport: Ledger;
  /** The team's name and version in the last export (its provenance copy of the definition). */
  lastTeam: { name?: string; version?: string };
  loss?: LossChanges;
  pullRequest?: { url: string; number: number; title: string };
  branch?: string;
  commit?: string;
  requests: { total: number; writes: number };
}

/** How many suffixed branch names to try before giving up (each taken one costs a request). */
const BRANCH_ATTEMPTS = 20;

export function updateGitHubRepository(files: FileSet, options: UpdateRepositoryOptions): Promise<UpdateRepositoryResult> {
  return redacting(options, (progress) => run(files, options, progress));
}

async function run(files: FileSet, options: UpdateRepositoryOptions, progress: (line: string) => void): Promise<UpdateRepositoryResult> {
  const { client } = connect(options, progress);
  const { owner, name } = parseRepositoryName(options.repository);
  const recorded = files.text(LEDGER_PATH);
  if (recorded === undefined) throw new PublishError("invalid-input", `the files carry no ${LEDGER_PATH}: pass an export's files as exportDefinition gives them`);
  const next = parseLedger(recorded);
  const at = { owner, repo: name };
  const { git } = client.octokit.rest;

  progress(`reading ${owner}/${name}`);
  const repo = await readExportedRepository(client, at);
  const { fullName, branch, head, last, base } = repo;
  if (last.target !== next.target) {
    throw new PublishError("invalid-input", `${fullName} was exported for ${last.target}; an update to ${next.target} would replace every file`, { hint: `export with --target ${last.target}, or publish the ${next.target} project as a new repository` });
  }

  progress(`planning the update against ${branch} (${head.slice(0, 7)})`);
  const current = new Map<string, Current>();
  for (const path of new Set([...files.paths(), ...base.paths()])) {
    const item = repo.files.get(path);
    if (!item) current.set(path, "missing");
    else if (!isRegularFile(item)) current.set(path, "other");
    else {
      // A file still as one of the exports wrote it is known by its blob's name: no request for it.
      // A base entry known by its hash alone (a lock file) has no bytes to compare.
      const known = [base.get(path), files.get(path)].find((f) => f !== undefined && f.digest === undefined && blobSha(f.bytes) === item.sha);
      current.set(path, { bytes: known ? known.bytes : await repo.blob(path), mode: item.mode === "100755" ? 0o755 : 0o644 });
    }
  }
  const ignore = isRegularFile(repo.files.get(IGNORE_FILE)) ? Buffer.from(await repo.blob(IGNORE_FILE)).toString("utf8") : undefined;
  const plan = planUpdate({ next: files, base, current: (p) => current.get(p) ?? "missing", ...(ignore !== undefined ? { ignore } : {}) });
  const loss = lossChanges(base, files);
  const result = { fullName, url: repo.url, defaultBranch: branch, base: head, plan, lastExport: last, lastTeam: definitionIdentity(base), ...(loss ? { loss } : {}) };
  if (!changes(plan)) return { ...result, status: "up-to-date", requests: { ...client.counts } };
  if (options.dryRun) return { ...result, status: "planned", requests: { ...client.counts } };

  const touched = plan.filter((e) => e.write !== undefined || e.action === "remove").map((e) => e.path);
  const workflows = touched.filter((p) => p.startsWith(".github/workflows/"));
  const missing = missingScopes(repo.scopes, { private: repo.private, workflows: workflows.length > 0 });
  if (missing.length) {
    throw new PublishError("missing-permission", `the token lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}${workflows.length ? ` (the update changes ${workflows[0]})` : ""}; nothing was written`, {
      hint: `add ${missing.join(" and ")} to the token's scopes (github.com/settings/tokens), or use a fine-grained token; ${TOKEN_ADVICE}`,
    });
  }

  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const entries = await treeEntries(client, at, plan, limits, progress);
  progress(`writing ${touched.length} changed file${touched.length === 1 ? "" : "s"} on top of ${branch}`);
  const written = await writeTree(client, at, chunkTree(entries, limits), undefined, repo.tree);
  progress("committing");
  const message = `Update from the Envelope definition\n\nExported by envelope-export ${VERSION} (target ${next.target}) and merged with ${branch} at ${head.slice(0, 7)}; the base of the merge is the last export recorded in .envelope/.\n`;
  const commit = await read("creating the commit", async () =>
    (await git.createCommit({ ...at, message, tree: written.sha, parents: [head], ...(options.author ? { author: options.author } : {}) })).data.sha,
  );
  const { name: newBranch, reused } = await createBranch(client, at, `envelope/update-${shortHash(next)}`, { commit, tree: written.sha, parent: head }, progress);
  const title = options.title ?? pullRequestTitle({ ledger: last, files: base }, { ledger: next, files });
  const done = { ...result, branch: newBranch, commit };
  if (reused) {
    // The same update was proposed before (the command run twice): its open pull request is the answer.
    const open = await read("looking for the pull request of the same update", async () => (await client.octokit.rest.pulls.list({ ...at, head: `${at.owner}:${newBranch}`, state: "open" })).data);
    if (open[0]) return { ...done, status: "already-proposed", pullRequest: { url: open[0].html_url, number: open[0].number, title: open[0].title }, requests: { ...client.counts } };
  }

  progress(`opening a pull request from ${newBranch} into ${branch}`);
  const body = pullRequestBody({ plan, last, next, defaultBranch: branch, base: head, loss });
  let pull;
  try {
    pull = (await client.octokit.rest.pulls.create({ ...at, title, head: newBranch, base: branch, body })).data;
  } catch (e) {
    const failed = classifyError(e, "opening the pull request");
    throw new PublishError(failed.kind, `${failed.message} The update is on the branch ${newBranch}.`, { ...failed.details, hint: `open a pull request from ${newBranch} into ${branch} on GitHub` });
  }
  return { ...done, status: "opened", pullRequest: { url: pull.html_url, number: pull.number, title }, requests: { ...client.counts } };
}

/** The tree entries of the plan: written files (text inline, binary as blobs first) and removed ones (sha null). */
async function treeEntries(client: GitHubClient, at: { owner: string; repo: string }, plan: readonly PlanEntry[], limits: UploadLimits, progress: (line: string) => void): Promise<TreeEntry[]> {
  const writes = new FileSet();
  for (const e of plan) if (e.write) writes.add(e.path, e.write.bytes, e.write.mode);
  const entries: TreeEntry[] = [];
  if (writes.size) {
    const upload = planUpload(writes, limits);
    const shas = new Map<string, string>();
    if (upload.blobs.length) progress(`uploading ${upload.blobs.length} binary or large file${upload.blobs.length === 1 ? "" : "s"} as blobs`);
    for (const file of upload.blobs) {
      shas.set(file.path, await read(`uploading ${file.path}`, async () => (await client.octokit.rest.git.createBlob({ ...at, content: Buffer.from(file.bytes).toString("base64"), encoding: "base64" })).data.sha));
    }
    for (const f of upload.files) entries.push(f.text !== undefined ? { path: f.path, mode: f.mode, type: "blob", content: f.text } : { path: f.path, mode: f.mode, type: "blob", sha: shas.get(f.path)! });
  }
  for (const e of plan) if (e.action === "remove") entries.push({ path: e.path, mode: "100644", type: "blob", sha: null });
  return entries;
}

/**
 * Creates refs/heads/NAME, or NAME-2, NAME-3… when taken: never moves a ref that exists. A
 * taken one that already holds this very update (same tree, same parent) is used instead
 * (`reused`), so running the command twice proposes the update once; the commit made for it
 * is then left unreferenced, as any unused object written through the Git Data API.
 */
async function createBranch(client: GitHubClient, at: { owner: string; repo: string }, wanted: string, update: { commit: string; tree: string; parent: string }, progress: (line: string) => void): Promise<{ name: string; reused: boolean }> {
  const { git } = client.octokit.rest;
  for (let i = 1; i <= BRANCH_ATTEMPTS; i++) {
    const name = i === 1 ? wanted : `${wanted}-${i}`;
    try {
      await git.createRef({ ...at, ref: `refs/heads/${name}`, sha: update.commit });
      progress(`created the branch ${name}`);
      return { name, reused: false };
    } catch (e) {
      if (!(isHttpError(e) && e.status === 422 && /already exists/i.test(JSON.stringify(e.response?.data ?? "")))) throw classifyError(e, `creating the branch ${name}`);
    }
    const there = await read(`reading the branch ${name}`, async () => (await git.getCommit({ ...at, commit_sha: (await git.getRef({ ...at, ref: `heads/${name}` })).data.object.sha })).data);
    if (there.tree.sha === update.tree && there.parents.length === 1 && there.parents[0]!.sha === update.parent) {
      progress(`the branch ${name} holds this update already`);
      return { name, reused: true };
    }
  }
  throw new PublishError("rejected", `the branches ${wanted} to ${wanted}-${BRANCH_ATTEMPTS} all exist already`, { hint: `delete the update branches already merged or closed, then try again` });
}
