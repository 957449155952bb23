// Every way a publish can fail, injected into the fake GitHub: each ends in a PublishError
// of its own kind with a message that says what to do — or, where GitHub only needs
// patience (5xx, secondary limits, a repository still being set up), in success.
import { afterEach, describe, expect, it } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import { PublishError, type PublishErrorKind } from "../../src/publish/errors.js";
import { publishToGitHub } from "../../src/publish/publish.js";
import {
  connectionReset,
  notFoundYet,
  primaryRateLimit,
  repositoryEmpty,
  secondaryRateLimit,
  serverError,
  start,
  TOKEN,
  type FakeGitHub,
} from "./fake/index.js";
import { expectCleanContract, expectRepositoryEquals, FAST, publishTo, trickyFiles } from "./helpers.js";

let gh: FakeGitHub | undefined;
afterEach(async () => {
  if (gh) expectCleanContract(gh);
  await gh?.close();
  gh = undefined;
});

async function failure(promise: Promise<unknown>, kind: PublishErrorKind): Promise<PublishError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the publish should have failed").toBeInstanceOf(PublishError);
  expect((error as PublishError).kind, (error as PublishError).message).toBe(kind);
  return error as PublishError;
}

const creates = (fake: FakeGitHub) => fake.requests.filter((r) => r.operationId?.startsWith("repos/create")).length;
const withWorkflow = () => {
  const files = trickyFiles();
  files.add(".github/workflows/scheduled-run.yml", "on:\n  schedule:\n    - cron: '0 9 * * 1'\n");
  return files;
};

describe("the name is taken", () => {
  it("is found before creating: exists → name-taken with free names, nothing created", async () => {
    gh = await start({ existing: ["me/team", "me/team-2"] });
    const e = await failure(publishTo(gh, trickyFiles()), "name-taken");
    expect(e.message).toBe("me/team already exists");
    expect(e.details.suggestions).toEqual(["team-3", "team-4", "team-5"]);
    expect(e.hint).toBe("free names: me/team-3, me/team-4, me/team-5");
    expect(creates(gh)).toBe(0);
  });

  it("and when another creates it between the check and the create, GitHub's 422 (errors[].field = name) says so", async () => {
    // The check answers 404 (say a private repository, or a race); the create then meets the name.
    gh = await start({ existing: ["me/team"], faults: [notFoundYet("repos/get", 1)] });
    const e = await failure(publishTo(gh, trickyFiles()), "name-taken");
    expect(e.details.suggestions).toEqual(["team-2", "team-3", "team-4"]);
    expect(creates(gh)).toBe(1);
    expect(gh.requests.find((r) => r.operationId === "repos/create-for-authenticated-user")!.status).toBe(422);
  });
});

describe("the token", () => {
  it("wrong, expired or revoked → bad-credentials (401) before anything is created", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: ["repo"], expired: true } } });
    const e = await failure(publishTo(gh, trickyFiles()), "bad-credentials");
    expect(e.message).toMatch(/^GitHub rejected the token \(401: Bad credentials\) while looking up me: it is wrong, expired or revoked\.$/);
    expect(e.hint).toMatch(/^create a new token; a classic token needs/); // no CLI flags: the HTTP API shows it too
    expect(gh.requests).toHaveLength(1);
  });

  it("a classic token without workflow, for a project with .github/workflows/ → missing-permission naming workflow and the file; nothing created", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: ["public_repo"] } } });
    const e = await failure(publishTo(gh, withWorkflow()), "missing-permission");
    expect(e.message).toBe("the token lacks the scope workflow (the project contains .github/workflows/scheduled-run.yml); nothing was created");
    expect(creates(gh)).toBe(0);
  });

  it("a classic token with public_repo only, for a private repository → names repo", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: ["public_repo", "workflow"] } } });
    const e = await failure(publishTo(gh, trickyFiles(), { private: true }), "missing-permission");
    expect(e.message).toBe("the token lacks the scope repo; nothing was created");
  });

  it("a fine-grained token without Administration → GitHub's 403, explained with the permission it accepts", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: null, permissions: { contents: true, workflows: true } } } });
    const e = await failure(publishTo(gh, trickyFiles()), "missing-permission");
    expect(e.message).toContain("the token is not allowed to do this (403: Resource not accessible by personal access token) while creating me/team; GitHub accepts the permissions administration=write");
    expect(e.details.status).toBe(403);
  });

  it("a fine-grained token without Workflows: GitHub refuses the branch update → missing-permission, and the repository left behind is named", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: null, permissions: { administration: true, contents: true } } } });
    const e = await failure(publishTo(gh, withWorkflow()), "missing-permission");
    expect(e.message).toMatch(/^the token may not write GitHub Actions workflows \(422: refusing to allow .* `\.github\/workflows\/scheduled-run\.yml` without `workflow` scope\)\. The repository me\/team was created but does not hold the project/);
    expect(e.details.repository).toEqual({ fullName: "me/team", url: `${gh.url}/me/team` });
    expect(e.hint).toMatch(/Workflows: read and write/);
  });
});

describe("the owner", () => {
  it("does not exist → owner-not-found, nothing created", async () => {
    gh = await start();
    const e = await failure(publishTo(gh, trickyFiles(), { repository: "nobody-here/team" }), "owner-not-found");
    expect(e.message).toBe("there is no GitHub user or organization called nobody-here");
    expect(creates(gh)).toBe(0);
  });

  it("is another person's account → missing-permission, instead of silently creating in the token's own account", async () => {
    gh = await start();
    const e = await failure(publishTo(gh, trickyFiles(), { repository: "someone-else/team" }), "missing-permission");
    expect(e.message).toContain("someone-else is another person's account: this token belongs to me");
    expect(creates(gh)).toBe(0);
  });

  it("is an organization that does not let the token's account create repositories → missing-permission", async () => {
    gh = await start({ accounts: [{ login: "me", type: "User" }, { login: "acme", type: "Organization", members: [] }] });
    const e = await failure(publishTo(gh, trickyFiles(), { repository: "acme/team" }), "missing-permission");
    expect(e.message).toContain("You need admin access to the organization");
  });
});

describe("rate limits", () => {
  it("a secondary rate limit (403 + retry-after) is waited out as GitHub asks, retried, and writes are spaced from then on", async () => {
    gh = await start({ faults: [secondaryRateLimit("repos/create-for-authenticated-user", { retryAfter: 7 })] });
    const waits: number[] = [];
    const progress: string[] = [];
    const files = trickyFiles();
    const result = await publishTo(gh, files, { timing: { sleep: async (ms) => void waits.push(ms) }, onProgress: (l) => progress.push(l) });
    expectRepositoryEquals(gh, "me", "team", files);
    expect(waits[0]).toBe(7000);
    expect(progress).toContain("GitHub asked to slow down (rate limit); waiting 7 s before retrying POST /user/repos");
    expect(creates(gh)).toBe(2); // the refused one, and the one that created
    expect(result.recovered).toBe(false);
    // Later writes wait about a second each (measured against the clock, so not asserted exactly).
    expect(waits.slice(1).every((ms) => ms > 0 && ms <= 1000)).toBe(true);
  });

  it("429 works the same", async () => {
    gh = await start({ faults: [secondaryRateLimit("git/create-tree", { retryAfter: 0, status: 429 })] });
    const files = trickyFiles();
    await publishTo(gh, files);
    expectRepositoryEquals(gh, "me", "team", files);
  });

  it("a secondary limit that does not lift → rate-limited after a bounded number of retries", async () => {
    gh = await start({ faults: [secondaryRateLimit("repos/get", { retryAfter: 0, times: 100 })] });
    const e = await failure(publishTo(gh, trickyFiles()), "rate-limited");
    expect(e.message).toMatch(/^GitHub's rate limit stopped the publish while checking whether me\/team exists, even after waiting and retrying \(403: You have exceeded a secondary rate limit/);
    expect(gh.requests.filter((r) => r.operationId === "repos/get")).toHaveLength(4);
  });

  it("the hourly limit, an hour from resetting → rate-limited at once, saying when it resets", async () => {
    gh = await start({ faults: [primaryRateLimit("users/get-by-username", 3600)] });
    const e = await failure(publishTo(gh, trickyFiles()), "rate-limited");
    expect(e.message).toMatch(/The limit resets at \d{4}-\d\d-\d\dT/);
    expect(gh.requests).toHaveLength(1);
  });
});

describe("GitHub failing", () => {
  it("5xx on a write is retried with backoff", async () => {
    gh = await start({ faults: [serverError("git/create-tree", { status: 502, times: 2 }), serverError("git/create-commit", { status: 500 })] });
    const files = trickyFiles();
    const progress: string[] = [];
    await publishTo(gh, files, { onProgress: (l) => progress.push(l) });
    expectRepositoryEquals(gh, "me", "team", files);
    expect(gh.requests.filter((r) => r.operationId === "git/create-tree").map((r) => r.status)).toEqual([502, 502, 201]);
    // Retries are visible, so a backoff never looks like a hang.
    expect(progress.filter((l) => l.startsWith("GitHub answered"))).toEqual([
      "GitHub answered 502 to POST /repos/me/team/git/trees",
      "GitHub answered 502 to POST /repos/me/team/git/trees",
      "GitHub answered 500 to POST /repos/me/team/git/commits",
    ]);
  });

  it("5xx that does not stop → github-unavailable, naming the repository it left behind", async () => {
    gh = await start({ faults: [serverError("git/create-tree", { status: 503, times: 100 })] });
    const e = await failure(publishTo(gh, trickyFiles()), "github-unavailable");
    expect(e.message).toMatch(/^GitHub failed \(503: Server Error\) while writing the files, even after retrying\. The repository me\/team was created but does not hold the project/);
    expect(e.details.repository?.fullName).toBe("me/team");
    expect(gh.requests.filter((r) => r.operationId === "git/create-tree")).toHaveLength(4); // 1 + 3 retries
  });

  it("a create that succeeded but whose answer was lost (502) is found and used, not created twice", async () => {
    gh = await start({ faults: [serverError("repos/create-for-authenticated-user", { when: "after" })] });
    const files = trickyFiles();
    const progress: string[] = [];
    const result = await publishTo(gh, files, { onProgress: (l) => progress.push(l) });
    expectRepositoryEquals(gh, "me", "team", files);
    expect(result.recovered).toBe(true);
    expect(creates(gh)).toBe(1);
    expect(progress).toContain("GitHub failed while creating me/team (502); checking whether it was created anyway, rather than creating it twice");
    expect(progress).toContain("me/team was created; using it");
  });

  it("the same when the connection drops after the create", async () => {
    gh = await start({ faults: [connectionReset("repos/create-for-authenticated-user", "after")] });
    const files = trickyFiles();
    const result = await publishTo(gh, files);
    expectRepositoryEquals(gh, "me", "team", files);
    expect(result.recovered).toBe(true);
    expect(creates(gh)).toBe(1);
  });

  it("a create that failed and left nothing → create-uncertain: not retried, so never created twice", async () => {
    gh = await start({ faults: [serverError("repos/create-for-authenticated-user", { status: 500 })] });
    const e = await failure(publishTo(gh, trickyFiles()), "create-uncertain");
    expect(e.message).toBe(
      "GitHub failed while creating me/team (500), and whether the repository now exists cannot be told; it was not created again, so as not to create it twice",
    );
    expect(e.hint).toBe(`look at ${gh.url}/me/team: if it exists and is empty, delete it; then publish again`);
    expect(creates(gh)).toBe(1);
  });

  it("a repository that appears after a failed create but already holds work is not taken over", async () => {
    // The create fails after creating; then, while we wait before looking, someone pushes to it.
    gh = await start({ faults: [serverError("repos/create-for-authenticated-user", { when: "after" })] });
    const files = trickyFiles();
    const original = publishTo(gh, files, {
      timing: {
        ...FAST,
        sleep: async () => {
          const { execFileSync } = await import("node:child_process");
          const bare = gh!.repoDir("me", "team");
          const run = (...args: string[]) => execFileSync("git", args, { cwd: bare, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "x", GIT_AUTHOR_EMAIL: "x@x", GIT_COMMITTER_NAME: "x", GIT_COMMITTER_EMAIL: "x@x" } }).trim();
          const head = run("rev-parse", "main");
          if (run("rev-list", "--count", "main") === "1") run("update-ref", "refs/heads/main", run("commit-tree", `${head}^{tree}`, "-p", head, "-m", "someone's work"));
        },
      },
    });
    const e = await failure(original, "create-uncertain");
    expect(e.message).toContain("it was not created again");
    expect(gh.requests.some((r) => r.operationId === "git/create-tree")).toBe(false);
  });
});

describe("a repository GitHub has not finished creating", () => {
  it("409 'Git Repository is empty.' on the branch is waited out", async () => {
    gh = await start({ faults: [repositoryEmpty("git/get-ref", 3)] });
    const files = trickyFiles();
    await publishTo(gh, files);
    expectRepositoryEquals(gh, "me", "team", files);
    expect(gh.requests.filter((r) => r.operationId === "git/get-ref").map((r) => r.status)).toEqual([409, 409, 409, 200]);
  });

  it("404 right after creation is waited out, on the branch and on a later write", async () => {
    gh = await start({ faults: [notFoundYet("git/get-ref", 3), notFoundYet("git/create-blob", 1), repositoryEmpty("git/create-tree", 1)] });
    const files = trickyFiles();
    await publishTo(gh, files);
    expectRepositoryEquals(gh, "me", "team", files);
  });

  it("a branch that never appears → github-unavailable after the bounded wait, naming the repository", async () => {
    gh = await start({ faults: [repositoryEmpty("git/get-ref", 1000)] });
    const waits: number[] = [];
    const e = await failure(publishTo(gh, trickyFiles(), { timing: { sleep: async (ms) => void waits.push(ms) } }), "github-unavailable");
    expect(e.message).toMatch(/^GitHub had not finished setting up me\/team after 32 s \(it still answers 409\)\./);
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(gh.requests.filter((r) => r.operationId === "git/get-ref")).toHaveLength(8);
  });
});

describe("input refused before any request", () => {
  it.each([
    ["not OWNER/NAME", { repository: "just-a-name" }, /expected OWNER\/NAME/],
    ["a name GitHub would rewrite", { repository: "me/my team!" }, /is not a valid repository name/],
    ["a .git suffix", { repository: "me/team.git" }, /\.git suffix/],
    ["plain http to another machine", { apiUrl: "http://github.example.com/api/v3" }, /refusing to send the token to http:\/\/github\.example\.com/],
    ["no token", { token: "" }, /a GitHub token is needed/],
  ])("%s", async (_label, options, message) => {
    gh = await start();
    const e = await failure(publishTo(gh, trickyFiles(), options), "invalid-input");
    expect(e.message).toMatch(message);
    expect(gh.requests).toEqual([]);
  });

  it("no files", async () => {
    gh = await start();
    const e = await failure(publishTo(gh, new FileSet()), "invalid-input");
    expect(e.message).toBe("there are no files to publish");
  });

  it("a file GitHub's API cannot take → rejected, naming it", async () => {
    gh = await start();
    const files = new FileSet();
    files.add("data.bin", new Uint8Array(2048));
    const e = await failure(publishTo(gh, files, { limits: { maxFileBytes: 1024 } }), "rejected");
    expect(e.message).toContain("data.bin (2048 bytes)");
    expect(gh.requests).toEqual([]);
  });

  it("an unreachable API → github-unavailable", async () => {
    const closed = await start(); // a port that was just free again: nothing listens there
    await closed.close();
    const e = await failure(publishToGitHub(trickyFiles(), { repository: "me/team", token: TOKEN, apiUrl: closed.url, timing: FAST }), "github-unavailable");
    expect(e.message).toMatch(/^GitHub could not be reached \(.*ECONNREFUSED.*\) while looking up me, even after retrying\.$/);
  });
});
