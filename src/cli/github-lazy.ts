// `export`'s view of the GitHub side, loaded on first use: only `export --github` needs
// Octokit, and importing it costs a cold `export --out` tens of milliseconds (issue 18).
// prepareGitHub() runs first on every --github path (it checks the flags and the token), so
// it loads the modules; the synchronous helpers are only called after it, and say so if not.
import type * as GitHubPublish from "./github-publish.js";
import type * as Publish from "../publish/publish.js";

export type { GitHubFlags, GitHubOutcome, GitHubRequest } from "./github-publish.js";

let modules: { cli: typeof GitHubPublish; publish: typeof Publish } | undefined;

async function load(): Promise<NonNullable<typeof modules>> {
  if (!modules) {
    const [cli, publish] = await Promise.all([import("./github-publish.js"), import("../publish/publish.js")]);
    modules = { cli, publish };
  }
  return modules;
}

function loaded(): NonNullable<typeof modules> {
  if (!modules) throw new Error("internal: a GitHub helper was called before prepareGitHub()");
  return modules;
}

export const prepareGitHub: typeof GitHubPublish.prepareGitHub = async (...args) => (await load()).cli.prepareGitHub(...args);
export const publishWithProgress: typeof GitHubPublish.publishWithProgress = async (...args) => (await load()).cli.publishWithProgress(...args);
export const githubJson: typeof GitHubPublish.githubJson = (...args) => loaded().cli.githubJson(...args);
export const publishedLine: typeof GitHubPublish.publishedLine = (...args) => loaded().cli.publishedLine(...args);
export const dryRunLine: typeof GitHubPublish.dryRunLine = (...args) => loaded().cli.dryRunLine(...args);
export const exportCommitMessage: typeof Publish.exportCommitMessage = (...args) => loaded().publish.exportCommitMessage(...args);
