// `export`'s view of the GitHub side, loaded on first use: only `export --github` needs
// Octokit, and importing it costs a cold `export --out` tens of milliseconds (issue 18).
// prepareGitHub() runs first on every --github path (it checks the flags and the token), so
// it loads the modules; the synchronous helpers are only called after it, and say so if not.
import type * as GitHubPublish from "./github-publish.js";
import type * as GitHubUpdate from "./github-update.js";
import type * as Publish from "../publish/publish.js";

export type { GitHubFlags, GitHubOutcome, GitHubRequest } from "./github-publish.js";
export type { UpdateOutcome } from "./github-update.js";

let modules: { cli: typeof GitHubPublish; update: typeof GitHubUpdate; publish: typeof Publish } | undefined;

async function load(): Promise<NonNullable<typeof modules>> {
  if (!modules) {
    const [cli, update, publish] = await Promise.all([import("./github-publish.js"), import("./github-update.js"), import("../publish/publish.js")]);
    modules = { cli, update, publish };
  }
  return modules;
}

function loaded(): NonNullable<typeof modules> {
  if (!modules) throw new Error("internal: a GitHub helper was called before prepareGitHub()");
  return modules;
}

export const prepareGitHub: typeof GitHubPublish.prepareGitHub = async (...args) => (await load()).cli.prepareGitHub(...args);
export const publishOrUpdate: typeof GitHubUpdate.publishOrUpdate = async (...args) => (await load()).update.publishOrUpdate(...args);
export const planRepositoryUpdate: typeof GitHubUpdate.planRepositoryUpdate = async (...args) => (await load()).update.planRepositoryUpdate(...args);
export const updateText: typeof GitHubUpdate.updateText = (...args) => loaded().update.updateText(...args);
export const updateJson: typeof GitHubUpdate.updateJson = (...args) => loaded().update.updateJson(...args);
export const githubJson: typeof GitHubPublish.githubJson = (...args) => loaded().cli.githubJson(...args);
export const publishedLine: typeof GitHubPublish.publishedLine = (...args) => loaded().cli.publishedLine(...args);
export const dryRunLine: typeof GitHubPublish.dryRunLine = (...args) => loaded().cli.dryRunLine(...args);
export const exportCommitMessage: typeof Publish.exportCommitMessage = (...args) => loaded().publish.exportCommitMessage(...args);
