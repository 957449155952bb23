// Writing a tree through the Git Data API, shared by a new repository's publish and an
// update's branch: chunks written in order, each on top of the last (the first on `base`,
// when given), a chunk GitHub finds too large halved, and the 404/409 of replication lag
// right after a repository is created retried a little.
import { classifyError } from "./classify-error.js";
import type { LeftRepository } from "./errors.js";
import { isHttpError, type GitHubClient } from "./github-client.js";
import type { TreeEntry } from "./upload-plan.js";

const LAG_DELAYS_MS = [1000, 2000];

/** Replication lag right after creation can still show as a 404/409 on a write: retry those a little. */
export async function tolerateLag<T>(client: GitHubClient, doing: string, left: LeftRepository | undefined, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      if (e instanceof TreeTooLarge) throw e;
      const delay = LAG_DELAYS_MS[attempt];
      if (delay === undefined || !isHttpError(e) || (e.status !== 404 && e.status !== 409)) throw classifyError(e, doing, left);
      await client.sleep(delay * client.scale);
    }
  }
}

/** GitHub times out building a tree from a payload it finds too large; the message says so. */
function isTreeTooLarge(e: unknown): boolean {
  return isHttpError(e) && e.status === 422 && /timed out|too large/i.test(JSON.stringify(e.response?.data ?? ""));
}

/** Writes the chunks in order, each on top of the last (the first on baseTree); a chunk GitHub finds too large is halved. */
export async function writeTree(client: GitHubClient, at: { owner: string; repo: string }, chunks: TreeEntry[][], left: LeftRepository | undefined, baseTree?: string): Promise<{ sha: string; requests: number }> {
  const queue = [...chunks];
  let base: string | undefined = baseTree;
  let requests = 0;
  while (queue.length) {
    const chunk = queue.shift()!;
    try {
      requests++;
      const { data } = await tolerateLag(client, "writing the files", left, async () => {
        try {
          return await client.octokit.rest.git.createTree({ ...at, tree: chunk, ...(base ? { base_tree: base } : {}) });
        } catch (e) {
          if (isTreeTooLarge(e)) throw new TreeTooLarge(e);
          throw e;
        }
      });
      base = data.sha;
    } catch (e) {
      if (!(e instanceof TreeTooLarge)) throw e;
      if (chunk.length === 1) throw classifyError(e.cause, `writing ${chunk[0]!.path}`, left);
      const half = Math.ceil(chunk.length / 2);
      queue.unshift(chunk.slice(0, half), chunk.slice(half));
    }
  }
  return { sha: base!, requests };
}

class TreeTooLarge extends Error {
  constructor(override readonly cause: unknown) {
    super("tree too large");
  }
}
