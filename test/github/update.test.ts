// A re-export to a repository this tool created opens a pull request whose diff is exactly
// the update, against the contract-checked fake: v1 is published, the developer commits
// edits on main (a conflicting prompt, a merged README and module, a tool of their own),
// then v2 goes to the repository. The pull request's head is the plan applied to main;
// main itself, and every other ref, is never moved; nothing is forced.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import type { FileSet } from "../../src/export/file-set.js";
import { PublishError, updateGitHubRepository, type UpdateRepositoryOptions } from "../../src/publish/index.js";
import { MARKERS } from "../../src/update/merge.js";
import { TARGETS } from "../../src/targets/index.js";
import { definition, PKG } from "../helpers/reexport-desk.js";
import { start, TOKEN, type FakeGitHub } from "./fake/index.js";
import { expectCleanContract, FAST, git, publishTo } from "./helpers.js";

let gh: FakeGitHub | undefined;
afterEach(async () => {
  if (gh) expectCleanContract(gh);
  await gh?.close();
  gh = undefined;
});

const exportOf = (version: 1 | 2, target = "langgraph"): FileSet => exportDefinition(definition(version), TARGETS[target]!).files!;
const update = (fake: FakeGitHub, files: FileSet, options: Partial<UpdateRepositoryOptions> = {}) =>
  updateGitHubRepository(files, { repository: "me/desk", token: TOKEN, apiUrl: fake.url, timing: FAST, onWarning: () => {}, ...options });

const WRITER = `src/${PKG}/prompts/writer.txt`;
const GRAPH = `src/${PKG}/graph.py`;
const TOOL = `src/${PKG}/lookup_tool.py`;

/** The developer's work, committed and pushed to main as a clone would: returns main's new head. */
function developerCommits(fake: FakeGitHub): string {
  const work = mkdtempSync(join(tmpdir(), "fake-github-dev-"));
  try {
    const bare = fake.repoDir("me", "desk");
    git(work, "clone", "--quiet", bare, "clone");
    const dir = join(work, "clone");
    const edit = (path: string, change: (s: string) => string) => writeFileSync(join(dir, path), change(readFileSync(join(dir, path), "utf8")));
    edit(WRITER, (s) => s.replace("Keep it under 300 words.", "Keep it under 300 words, with a one-line summary first."));
    edit(GRAPH, (s) => s.replace(/\n\n\n/, "\n\n\n# The developer's note: the desk runs on weekdays only.\nWEEKDAYS_ONLY = True\n\n\n"));
    edit("README.md", (s) => `${s}\n## Our deployment\n\nRuns on the desk's shared server.\n`);
    writeFileSync(join(dir, TOOL), '"""The developer\'s own tool."""\n');
    git(dir, "add", WRITER, GRAPH, "README.md", TOOL);
    git(dir, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "--quiet", "-m", "Our edits");
    git(dir, "push", "--quiet", "origin", "HEAD:main");
    return git(bare, "rev-parse", "main").trim();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** path → "mode sha" of a commit's files. */
function filesAt(bare: string, rev: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(bare, "ls-tree", "-r", "-z", rev).split("\0").filter(Boolean)) {
    const [meta, path] = line.split("\t") as [string, string];
    const [mode, , sha] = meta.split(" ") as [string, string, string];
    out.set(path, `${mode} ${sha}`);
  }
  return out;
}

async function failure(promise: Promise<unknown>): Promise<PublishError> {
  const e = await promise.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(PublishError);
  return e as PublishError;
}

const show = (bare: string, rev: string, path: string) => git(bare, "show", `${rev}:${path}`);
const refs = (bare: string) => git(bare, "for-each-ref", "--format=%(refname) %(objectname)").trim().split("\n");

describe("updateGitHubRepository", () => {
  it("opens a pull request whose diff is exactly the update; main and the developer's work are untouched", async () => {
    gh = await start();
    await publishTo(gh, exportOf(1), { repository: "me/desk" });
    const main = developerCommits(gh);
    const bare = gh.repoDir("me", "desk");
    const refsBefore = refs(bare);
    const progress: string[] = [];
    const result = await update(gh, exportOf(2), { onProgress: (l) => progress.push(l) });

    expect(result.status).toBe("opened");
    expect(result.base).toBe(main);
    expect(result.branch).toMatch(/^envelope\/update-[0-9a-f]{12}$/);
    expect(result.pullRequest).toEqual({ url: `${gh.url}/me/desk/pull/1`, number: 1, title: expect.stringMatching(/^Update from the Envelope definition \([0-9a-f]{12} → [0-9a-f]{12}\)$/) });
    // main never moves; the only new ref is the update's branch, on one commit whose parent is main.
    expect(git(bare, "rev-parse", "main").trim()).toBe(main);
    expect(refs(bare)).toEqual([...refsBefore, `refs/heads/${result.branch} ${result.commit}`].sort());
    expect(git(bare, "rev-list", "--parents", "-n", "1", result.branch!).trim()).toBe(`${result.commit} ${main}`);
    expect(gh.requests.filter((r) => r.operationId === "git/update-ref").length).toBe(1); // the first publish's only
    git(bare, "fsck", "--strict", "--no-progress");

    // The diff main..branch is exactly the plan's writes and removals.
    const byPath = new Map(result.plan.map((e) => [e.path, e]));
    const diff = git(bare, "diff", "--no-renames", "--name-status", "main", result.branch!).trim().split("\n").map((l) => l.split("\t") as [string, string]);
    const expected = result.plan.filter((e) => e.write !== undefined || e.action === "remove").map((e) => [e.action === "remove" ? "D" : e.action === "create" ? "A" : "M", e.path]);
    expect(diff.sort()).toEqual(expected.sort());
    const [before, after] = [filesAt(bare, "main"), filesAt(bare, result.branch!)];
    for (const [path] of after) {
      const e = byPath.get(path);
      if (e?.write) expect(Buffer.compare(Buffer.from(show(bare, result.branch!, path)), Buffer.from(e.write.bytes)), path).toBe(0);
      else expect(after.get(path), path).toBe(before.get(path));
    }

    // What the plan did: the developer's edits kept or merged, the conflict committed with markers, the removed agent's prompt gone.
    const action = (path: string) => byPath.get(path)?.action;
    expect(action(WRITER)).toBe("conflict");
    expect(action("README.md")).toBe("merge");
    expect(action(GRAPH)).toBe("merge");
    expect(action(`src/${PKG}/prompts/checker.txt`)).toBe("remove");
    expect(action(`src/${PKG}/prompts/editor.txt`)).toBe("create");
    expect(byPath.has(TOOL)).toBe(false);
    const writer = show(bare, result.branch!, WRITER);
    expect(writer).toContain(MARKERS.yours);
    expect(writer).toContain("with a one-line summary first.");
    expect(writer).toContain("Keep it under 200 words, in plain English.");
    expect(show(bare, result.branch!, GRAPH)).toContain("WEEKDAYS_ONLY = True");
    expect(show(bare, result.branch!, "README.md")).toContain("## Our deployment");
    expect(show(bare, result.branch!, TOOL)).toContain("The developer's own tool.");
    expect(after.has(`src/${PKG}/prompts/checker.txt`)).toBe(false);
    // The record on the branch is the new export's: the next update merges against v2.
    expect(show(bare, result.branch!, ".envelope/pristine.json")).toBe(new TextDecoder().decode(exportOf(2).get(".envelope/pristine.json")!.bytes));

    // The pull request: into main, from the branch, conflicts announced first, the plan and the loss report in its body.
    const [pull] = gh.pullRequests("me", "desk");
    expect(pull).toMatchObject({ number: 1, base: "main", head: result.branch, headSha: result.commit, baseSha: main });
    const body = pull!.body!;
    expect(body.split("\n")[0]).toBe("> [!WARNING]");
    expect(body).toContain("committed **with conflict markers**");
    expect(body).toMatch(new RegExp(`\\| ⚠️ \\*\\*conflict\\*\\* \\| \`${WRITER.replace(/\./g, "\\.")}\` \\|`));
    expect(body).toMatch(new RegExp(`\\| remove \\| \`src/${PKG}/prompts/checker\\.txt\` \\|`));
    expect(body).toMatch(/### Loss report\n\nLast export: \d+ carried, \d+ approximated, \d+ not carried\. This export: \d+ carried/);
    expect(body).not.toContain("lookup_tool");
    expect(progress).toEqual([
      "reading me/desk",
      `planning the update against main (${main.slice(0, 7)})`,
      expect.stringMatching(/^writing \d+ changed files on top of main$/),
      "committing",
      `created the branch ${result.branch}`,
      `opening a pull request from ${result.branch} into main`,
    ]);
  });

  it("a repository already in step opens nothing; after the pull request is merged, the same export is in step", async () => {
    gh = await start();
    await publishTo(gh, exportOf(1), { repository: "me/desk" });
    const same = await update(gh, exportOf(1));
    expect(same.status).toBe("up-to-date");
    expect(same.pullRequest).toBeUndefined();
    const writes = () => gh!.requests.filter((r) => r.method !== "GET").map((r) => r.operationId);
    expect(writes()).not.toContain("git/create-ref");
    expect(writes()).not.toContain("pulls/create");

    developerCommits(gh);
    const opened = await update(gh, exportOf(2));
    // The developer merges the pull request (a fast-forward of main, here).
    git(gh.repoDir("me", "desk"), "update-ref", "refs/heads/main", opened.commit!);
    const count = gh.requests.length;
    const again = await update(gh, exportOf(2));
    expect(again.status).toBe("up-to-date");
    expect(gh.requests.slice(count).every((r) => r.method === "GET")).toBe(true);
    expect(gh.pullRequests("me", "desk")).toHaveLength(1);
  });

  it("an update whose branch name is taken gets a free one: the existing branch is never moved", async () => {
    gh = await start();
    await publishTo(gh, exportOf(1), { repository: "me/desk" });
    const first = await update(gh, exportOf(2));
    const second = await update(gh, exportOf(2));
    expect(second.branch).toBe(`${first.branch}-2`);
    expect(git(gh.repoDir("me", "desk"), "rev-parse", first.branch!).trim()).toBe(first.commit);
    const refused = gh.requests.filter((r) => r.operationId === "git/create-ref" && r.status === 422);
    expect(refused).toHaveLength(1);
    expect(gh.pullRequests("me", "desk").map((p) => p.head)).toEqual([first.branch, second.branch]);
  });

  it("--dry-run plans against the repository and writes nothing", async () => {
    gh = await start();
    await publishTo(gh, exportOf(1), { repository: "me/desk" });
    const count = gh.requests.length;
    const planned = await update(gh, exportOf(2), { dryRun: true });
    expect(planned.status).toBe("planned");
    expect(planned.plan.some((e) => e.action === "create")).toBe(true);
    expect(gh.requests.slice(count).every((r) => r.method === "GET")).toBe(true);
  });

  it("refuses a repository that holds no envelope-export ledger, one that does not exist, and another target", async () => {
    gh = await start({ existing: ["me/desk"] });
    const notOurs = await failure(update(gh, exportOf(2)));
    expect(notOurs.kind).toBe("not-an-export");
    expect(notOurs.message).toBe("me/desk holds no .envelope/export.json on main: it is not a repository exported by envelope-export (or its record was removed)");
    expect((await failure(update(gh, exportOf(2), { repository: "me/nothing" }))).message).toMatch(/^me\/nothing does not exist/);
    await publishTo(gh, exportOf(1), { repository: "me/crew" });
    const other = await failure(update(gh, exportOf(2, "crewai"), { repository: "me/crew" }));
    expect(other.kind).toBe("invalid-input");
    expect(other.message).toBe("me/crew was exported for langgraph; an update to crewai would replace every file");
    expect(gh.requests.filter((r) => r.method !== "GET" && r.operationId !== "repos/create-for-authenticated-user").map((r) => r.operationId)).toEqual(["git/create-tree", "git/create-commit", "git/update-ref"]);
  });

  it("names the workflow scope before writing when the update changes a workflow", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: ["repo", "workflow"] }, narrow: { login: "me", scopes: ["repo"] } } });
    const scheduled = (version: 1 | 2) => {
      const def = JSON.parse(definition(version)) as Record<string, unknown>;
      def.schedule = { type: "cron", cron: version === 1 ? "0 9 * * 1" : "0 8 * * 1-5" };
      return exportDefinition(JSON.stringify(def, null, 2), TARGETS.langgraph!).files!;
    };
    await publishTo(gh, scheduled(1), { repository: "me/desk" });
    const count = gh.requests.length;
    const e = await failure(update(gh, scheduled(2), { token: "narrow" }));
    expect(e.kind).toBe("missing-permission");
    expect(e.message).toMatch(/^the token lacks the scope workflow \(the update changes \.github\/workflows\/[^)]+\); nothing was written$/);
    expect(gh.requests.slice(count).every((r) => r.method === "GET")).toBe(true);
  });
});
