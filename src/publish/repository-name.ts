// OWNER/NAME as typed by a person, checked before any request. GitHub silently rewrites a
// name it does not like (other characters become `-`, a `.git` suffix is dropped); we refuse
// instead and suggest the rewritten name, so the repository is called what was asked for.
import { PublishError } from "./errors.js";

export interface RepositoryName {
  owner: string;
  name: string;
}

/** GitHub logins and organization names: letters, digits and single inner hyphens, ≤ 39. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** Repository names: ASCII letters, digits, `.`, `-`, `_`; at most 100 characters. */
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
export const MAX_NAME_LENGTH = 100;

export function parseRepositoryName(spec: string): RepositoryName {
  const parts = spec.split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new PublishError("invalid-input", `expected OWNER/NAME (such as octocat/my-team), not ${JSON.stringify(spec)}`);
  }
  const [owner, name] = parts as [string, string];
  if (!OWNER.test(owner)) {
    throw new PublishError("invalid-input", `${JSON.stringify(owner)} is not a GitHub account name: use letters, digits and single hyphens (at most 39 characters)`);
  }
  const problem = nameProblem(name);
  if (problem) {
    const fixed = suggestName(name);
    throw new PublishError("invalid-input", `${JSON.stringify(name)} is not a valid repository name: ${problem}`, fixed ? { hint: `try ${owner}/${fixed}` } : {});
  }
  return { owner, name };
}

function nameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return `it is longer than ${MAX_NAME_LENGTH} characters`;
  if (!NAME.test(name)) return "use only ASCII letters, digits, '.', '-' and '_'";
  if (name === "." || name === "..") return "it cannot be . or ..";
  if (/\.git$/i.test(name)) return "GitHub drops a .git suffix";
  if (/\.wiki$/i.test(name)) return "names ending in .wiki are reserved for wikis";
  return undefined;
}

/** The name GitHub would make of it, if that is a valid name. */
function suggestName(name: string): string | undefined {
  const fixed = name
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/(\.git|\.wiki)+$/i, "")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_NAME_LENGTH);
  return fixed && !nameProblem(fixed) ? fixed : undefined;
}

/** `name-2`, `name-3`, … each within the length limit: candidates when a name is taken. */
export function alternativeNames(name: string, count: number): string[] {
  const out: string[] = [];
  for (let n = 2; out.length < count; n++) {
    const suffix = `-${n}`;
    out.push(name.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix);
  }
  return out;
}
