// The CLI side of `export --github OWNER/NAME` on a repository an earlier export was
// published to: the update as a pull request (src/publish/update-repository.ts), its
// progress on stderr, the plan on stdout with the pull request's URL as the last line, and
// the `github` member of --json. A repository that holds no earlier export is no update:
// the caller then reports it as taken (exit 20), or a dry run as one it would create.
import type { FileSet } from "../export/file-set.js";
import { PublishError } from "../publish/errors.js";
import { updateGitHubRepository, type UpdateRepositoryResult } from "../publish/update-repository.js";
import { connection, echoPublishError, exitCodeFor, progressLine, type GitHubRequest } from "./github-publish.js";
import { EXIT, type Io } from "./main.js";
import { counts, planJson, planText } from "./update-report.js";

export type UpdateOutcome = { ok: true; result: UpdateRepositoryResult; code: number } | { ok: false; error: PublishError; code: number };

/**
 * The update of OWNER/NAME. A "not-an-export" error (no such repository, or no earlier
 * export in it) is returned without a word: the caller decides what it means.
 */
export async function updateWithProgress(files: FileSet, request: GitHubRequest, io: Io, options: { dryRun: boolean; echoErrors: boolean }): Promise<UpdateOutcome> {
  const line = progressLine(request, io);
  // A publish said where the token came from already; a dry run goes here first.
  if (options.dryRun && request.tokenSource) line(`token from ${request.tokenSource}`);
  try {
    const result = await updateGitHubRepository(files, { ...connection(request, line), dryRun: options.dryRun });
    // Conflicts are committed with their markers: exit 4, as an update of --out with conflicts.
    const conflicts = result.status === "opened" && counts(result.plan).conflict > 0;
    return { ok: true, result, code: conflicts ? EXIT.conflicts : EXIT.ok };
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    if (options.echoErrors && e.kind !== "not-an-export") echoPublishError(e, request, io);
    return { ok: false, error: e, code: exitCodeFor(e) };
  }
}

/** The plan, then what became of it: the pull request's URL is the last line. */
export function updateText(result: UpdateRepositoryResult): string {
  const where = `${result.fullName}, branch ${result.defaultBranch}`;
  const plan = planText(where, result.plan, result.lastExport, result.status === "planned" ? "plan" : "pull-request");
  if (result.status === "up-to-date") return `${plan}${result.fullName} is in step with the definition: no pull request opened\n`;
  if (result.status === "planned") return `${plan}would open a pull request into ${result.defaultBranch} of ${result.url}\n`;
  return `${plan}opened pull request #${result.pullRequest!.number}: ${result.pullRequest!.url}\n`;
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
    update: planJson(r.plan, r.lastExport, r.status === "opened"),
    lossChanges: r.loss ?? null,
    requests: r.requests,
    tokenSource: request.tokenSource ?? null,
  };
}
