// An Octokit failure → a PublishError that says what happened in plain words and what to do.
// Only the status, GitHub's short `message` and two permission headers are read: never the
// request (its headers held the token before Octokit redacted them; its body holds files).
import { PublishError, type LeftRepository } from "./errors.js";
import { githubMessage, isHttpError, isPrimaryRateLimit, isSecondaryRateLimit } from "./github-client.js";

export const TOKEN_ADVICE =
  "a classic token needs the public_repo scope (repo for a private repository) and workflow when the project has .github/workflows/; a fine-grained token needs Administration, Contents and Workflows: read and write";

/** What the request was for, in words: "creating the repository", "writing the tree". */
export function classifyError(error: unknown, doing: string, repository?: LeftRepository): PublishError {
  const left = repository ? { repository } : {};
  const afterCreate = repository ? ` ${leftBehind(repository)}` : "";
  if (error instanceof PublishError) return error;
  if (!isHttpError(error)) {
    const name = (error as { name?: unknown })?.name;
    if (name === "AbortError" || name === "TimeoutError") {
      return new PublishError("github-unavailable", `GitHub did not answer in time while ${doing}.${afterCreate}`, { ...left, hint: "try again in a few minutes" });
    }
    throw error; // a bug of ours, not GitHub's: let it surface as an internal error
  }
  const message = githubMessage(error);
  const said = message ? `: ${oneLine(message)}` : "";
  const status = error.status;
  if (status === 401) {
    return new PublishError("bad-credentials", `GitHub rejected the token (401${said}) while ${doing}: it is wrong, expired or revoked.${afterCreate}`, {
      ...left,
      status,
      hint: `create a new token; ${TOKEN_ADVICE}`, // no CLI flags: the HTTP API shows hints too
    });
  }
  if (isSecondaryRateLimit(error) || isPrimaryRateLimit(error)) {
    const reset = Number(error.response?.headers["x-ratelimit-reset"]);
    const when = isPrimaryRateLimit(error) && Number.isFinite(reset) ? ` The limit resets at ${new Date(reset * 1000).toISOString()}.` : "";
    return new PublishError("rate-limited", `GitHub's rate limit stopped the publish while ${doing}, even after waiting and retrying (${status}${said}).${when}${afterCreate}`, {
      ...left,
      status,
      hint: "wait a while and publish again; a rate limit applies to every request made with this token",
    });
  }
  if (/workflow/i.test(message) && /scope|permission/i.test(message)) {
    return new PublishError("missing-permission", `the token may not write GitHub Actions workflows (${status}${said}).${afterCreate}`, {
      ...left,
      status,
      hint: "add the workflow scope to a classic token, or Workflows: read and write to a fine-grained token",
    });
  }
  if (status === 403 || (status === 404 && /permission|accessible/i.test(message))) {
    const needs = acceptedPermissions(error.response?.headers ?? {});
    return new PublishError("missing-permission", `the token is not allowed to do this (${status}${said}) while ${doing}${needs ? `; GitHub accepts ${needs}` : ""}.${afterCreate}`, {
      ...left,
      status,
      hint: TOKEN_ADVICE,
    });
  }
  if (!error.response) {
    // @octokit/request reports a failed connection as a 500 without a response.
    return new PublishError("github-unavailable", `GitHub could not be reached (${oneLine(error.message)}) while ${doing}, even after retrying.${afterCreate}`, {
      ...left,
      hint: "check the network, and the GitHub API URL in use (GITHUB_API_URL, or the CLI's --github-api-url)",
    });
  }
  if (status >= 500) {
    return new PublishError("github-unavailable", `GitHub failed (${status}${said}) while ${doing}, even after retrying.${afterCreate}`, {
      ...left,
      status,
      hint: "GitHub may be having trouble (https://www.githubstatus.com); try again in a few minutes",
    });
  }
  return new PublishError("rejected", `GitHub refused the request (${status}${said}) while ${doing}.${afterCreate}`, { ...left, status });
}

export function leftBehind(repository: LeftRepository): string {
  return `The repository ${repository.fullName} was created but does not hold the project (only GitHub's initial README): delete it (${repository.url}/settings) or publish under another name.`;
}

/** `x-accepted-oauth-scopes` / `x-accepted-github-permissions`, for a 403's explanation. */
function acceptedPermissions(headers: Record<string, string | number | undefined>): string {
  const parts: string[] = [];
  const scopes = headers["x-accepted-oauth-scopes"];
  if (scopes) parts.push(`the scopes ${String(scopes)}`);
  const permissions = headers["x-accepted-github-permissions"];
  if (permissions) parts.push(`the permissions ${String(permissions)}`);
  return parts.join(" or ");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? flat.slice(0, 300) + "…" : flat;
}
