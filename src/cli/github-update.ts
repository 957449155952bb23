// The CLI side of `export --github OWNER/NAME` on a repository an earlier export was
// published to: the update as a pull request (src/publish/update-repository.ts), its
// progress on stderr, the plan on stdout with the pull request's URL as the last line, and
// the `github` member of --json. A repository that holds no earlier export is no update:
// the caller then reports it as taken (exit 20), or a dry run as one it would create.
import type { FileSet } from "../export/file-set.js";
import { PublishError } from "../publish/errors.js";
import { updateGitHubRepository, type UpdateRepositoryResult } from "../publish/update-repository.js";
import { connection, echoPublishError, exitCodeFor, progressLine, publishWithProgress, type GitHubOutcome, type GitHubRequest } from "./github-publish.js";
import { EXIT, type Io } from "./main.js";
import { counts, planJson, planText } from "./update-report.js";

export type UpdateOutcome = { ok: true; result: UpdateRepositoryResult; code: number } | { ok: false; error: PublishError; code: number };

/**
 * The update of OWNER/NAME. A "not-an-export" error (no such repository, or no earlier
 * export in it) is returned without a word: the caller decides what it means.
 */
async function updateWithProgress(files: FileSet, request: GitHubRequest, io: Io, options: { dryRun: boolean; echoErrors: boolean }): Promise<UpdateOutcome> {
  const line = progressLine(request, io);
  // A publish said where the token came from already; a dry run goes here first.
  if (options.dryRun && request.tokenSource) line(`token from ${request.tokenSource}`);
  try {
    const result = await updateGitHubRepository(files, { ...connection(request, line), dryRun: options.dryRun });
    // Conflicts are committed with their markers: exit 4, as an update of --out with conflicts.
    const conflicts = (result.status === "opened" || result.status === "already-proposed") && counts(result.plan).conflict > 0;
    return { ok: true, result, code: conflicts ? EXIT.conflicts : EXIT.ok };
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    if (options.echoErrors && e.kind !== "not-an-export") echoPublishError(e, request, io);
    return { ok: false, error: e, code: exitCodeFor(e) };
  }
}

/**
 * export --github: a new repository; or, when OWNER/NAME is taken by a repository that holds
 * an earlier export, the update as a pull request (`updated`). A taken name that is not an
 * export stays the publish's error (exit 20).
 */
export async function publishOrUpdate(files: FileSet, request: GitHubRequest, io: Io, message: string, echoErrors: boolean): Promise<{ published: GitHubOutcome; updated?: UpdateOutcome }> {
  const published = await publishWithProgress(files, request, io, message, false);
  if (!published.ok && published.error.kind === "name-taken") {
    progressLine(request, io)(`${request.repository} exists: looking in it for an earlier export to update`);
    const updated = await updateWithProgress(files, request, io, { dryRun: false, echoErrors });
    if (updated.ok && (request.private || request.description !== undefined)) progressLine(request, io)("--private and --description are for a new repository: this one is left as it is");
    if (updated.ok || updated.error.kind !== "not-an-export") return { published, updated };
  }
  if (!published.ok && echoErrors) echoPublishError(published.error, request, io);
  return { published };
}

/**
 * export --dry-run --github with a token at hand: reads the repository (GETs only) and plans
 * the update there; undefined when OWNER/NAME does not exist (a publish would create it).
 */
export async function planRepositoryUpdate(files: FileSet, request: GitHubRequest, io: Io, echoErrors: boolean): Promise<UpdateOutcome | undefined> {
  const planned = await updateWithProgress(files, request, io, { dryRun: true, echoErrors });
  if (planned.ok || planned.error.kind !== "not-an-export") return planned;
  if (planned.error.details.status === 404) return undefined;
  if (echoErrors) echoPublishError(planned.error, request, io);
  return planned;
}

/** The plan, then what became of it: the pull request's URL is the last line. */
export function updateText(result: UpdateRepositoryResult): string {
  const where = `${result.fullName}, branch ${result.defaultBranch}`;
  const plan = planText(where, result.plan, result.lastExport, result.status === "planned" ? "plan" : "pull-request");
  if (result.status === "up-to-date") return `${plan}${result.fullName} is in step with the definition: no pull request opened\n`;
  if (result.status === "planned") return `${plan}would open a pull request into ${result.defaultBranch} of ${result.url}\n`;
  const pull = result.pullRequest!;
  if (result.status === "already-proposed") return `${plan}this update is already proposed: pull request #${pull.number}: ${pull.url}\n`;
  return `${plan}opened pull request #${pull.number}: ${pull.url}\n`;
}

/** The `github` member of --json for an update (a failure is reported as a publish's: githubJson). */
export function updateJson(r: UpdateRepositoryResult, request: GitHubRequest): unknown {
  return {
    status: r.status,
    fullName: r.fullName,
    url: r.url,
    defaultBranch: r.defaultBranch,
    base: r.base,
    pullRequest: r.pullRequest ?? null,
    branch: r.branch ?? null,
    commit: r.commit ?? null,
    update: planJson(r.plan, r.lastExport, r.status === "opened" || r.status === "already-proposed"),
    lossChanges: r.loss ?? null,
    requests: r.requests,
    tokenSource: request.tokenSource ?? null,
  };
}
