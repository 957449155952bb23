// A re-export to a repository this tool created opens a pull request whose diff is exactly
// the update, against the contract-checked fake: v1 is published, the developer commits
// edits on main (a conflicting prompt, a merged README and module, a tool of their own),
// then v2 goes to the repository. The pull request's head is the plan applied to main;
// main itself, and every other ref, is never moved; nothing is forced.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { FileSet } from "../../src/export/file-set.js";
import { withRecord } from "../../src/export/ledger.js";
import { PublishError, updateGitHubRepository, type UpdateRepositoryOptions } from "../../src/publish/index.js";
import { MARKERS } from "../../src/update/merge.js";
import { TARGETS } from "../../src/targets/index.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { definition, PKG } from "../helpers/reexport-desk.js";
import { serverError, start, TOKEN, type FakeGitHub } from "./fake/index.js";
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
    expect(result.pullRequest).toEqual({ url: `${gh.url}/me/desk/pull/1`, number: 1, title: "Update Reexport Desk from its Envelope definition (1.1.0 → 1.2.0)" });
    // main never moves; the only new ref is the update's branch, on one commit whose parent is main.
    expect(git(bare, "rev-parse", "main").trim()).toBe(main);
    expect(refs(bare)).toEqual([...refsBefore, `refs/heads/${result.branch} ${result.commit}`].sort());
    expect(git(bare, "rev-list", "--parents", "-n", "1", result.branch!).trim()).toBe(`${result.commit} ${main}`);
    expect(gh.requests.filter((r) => r.operationId === "git/update-ref").length).toBe(1); // the first publish's only
    // Only the record, uv.lock and the three files the developer edited are fetched: the rest are
    // known by their blob's sha (the record keeps a lock file by its sha256, so its blob is fetched
    // to compare; the record it replaced held the same bytes again).
    expect(gh.requests.filter((r) => r.operationId === "git/get-blob")).toHaveLength(6);
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
      // The record .envelope/pristine.json changes with every update and, holding the vendored
      // envelope-runtime since issue 36, is over the 512 KB inline limit: it goes as a blob, and
      // so does uv.lock (issue 39; its project entry has the new version), over it too.
      // The vendored files are the same bytes in both exports, so they are not written at all.
      "uploading 2 binary or large files as blobs",
      expect.stringMatching(/^writing \d+ changed files on top of main$/),
      "committing",
      `created the branch ${result.branch}`,
      `opening a pull request from ${result.branch} into main`,
    ]);
    expect(result.plan.filter((e) => e.write !== undefined && e.path.startsWith("vendor/")).map((e) => e.path)).toEqual([]);
  }, 60_000);

  it("binary files travel as blobs and executable modes are kept; a developer's mode change is theirs", async () => {
    gh = await start();
    const project = (version: 1 | 2) => {
      const files = new FileSet();
      files.add("README.md", `# v${version}\n`);
      files.add("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, version]));
      files.add("scripts/run.sh", `#!/bin/sh\necho v${version}\n`, 0o755);
      files.add("tool.sh", "#!/bin/sh\n");
      if (version === 1) files.add("old/only.txt", "gone in v2\n");
      return withRecord(files, "langgraph", new TextEncoder().encode(`definition ${version}`));
    };
    await publishTo(gh, project(1), { repository: "me/desk" });
    const bare = gh.repoDir("me", "desk");
    // The developer makes tool.sh executable (a commit made with the Git Data API, as the web editor would).
    const work = mkdtempSync(join(tmpdir(), "fake-github-dev-"));
    git(work, "clone", "--quiet", bare, "clone");
    git(join(work, "clone"), "update-index", "--chmod=+x", "tool.sh");
    git(join(work, "clone"), "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "--quiet", "-m", "executable");
    git(join(work, "clone"), "push", "--quiet", "origin", "HEAD:main");
    rmSync(work, { recursive: true, force: true });
    const result = await update(gh, project(2));
    const after = filesAt(bare, result.branch!);
    expect(after.get("scripts/run.sh")).toMatch(/^100755 /);
    expect(after.get("tool.sh")).toMatch(/^100755 /);
    expect(after.has("old/only.txt")).toBe(false);
    const logo = project(2).get("logo.png")!.bytes;
    expect(after.get("logo.png")).toBe(`100644 ${createHash("sha1").update(`blob ${logo.length}\0`).update(logo).digest("hex")}`);
    expect(gh.requests.filter((r) => r.operationId === "git/create-blob").map((r) => (r.body as { encoding: string }).encoding)).toEqual(["base64", "base64"]); // v1's logo, then v2's
    expect(git(bare, "diff", "--no-renames", "--name-status", "main", result.branch!).trim().split("\n").sort()).toEqual(
      ["M\t.envelope/export.json", "M\t.envelope/pristine.json", "M\tREADME.md", "M\tlogo.png", "M\tscripts/run.sh", "D\told/only.txt"].sort(),
    );
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

  it("the same update twice is proposed once; a branch name taken by another update gets a free one, never moving it", async () => {
    gh = await start();
    await publishTo(gh, exportOf(1), { repository: "me/desk" });
    const bare = gh.repoDir("me", "desk");
    const first = await update(gh, exportOf(2));
    const refsAfterFirst = refs(bare);
    const again = await update(gh, exportOf(2));
    expect(again).toMatchObject({ status: "already-proposed", branch: first.branch, pullRequest: first.pullRequest });
    expect(refs(bare)).toEqual(refsAfterFirst);
    expect(gh.pullRequests("me", "desk")).toHaveLength(1);
    // main moves on: the same export is now another update, on a branch of its own.
    developerCommits(gh);
    const second = await update(gh, exportOf(2));
    expect(second.status).toBe("opened");
    expect(second.branch).toBe(`${first.branch}-2`);
    expect(git(bare, "rev-parse", first.branch!).trim()).toBe(first.commit);
    expect(gh.requests.filter((r) => r.operationId === "git/create-ref" && r.status === 422)).toHaveLength(2);
    expect(gh.pullRequests("me", "desk").map((p) => p.head)).toEqual([first.branch, second.branch]);
    // A closed pull request of the same update: a new one is opened from its branch.
    gh.pullRequests("me", "desk")[1]!.state = "closed";
    const reopened = await update(gh, exportOf(2));
    expect(reopened).toMatchObject({ status: "opened", branch: second.branch, pullRequest: { number: 3 } });
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

  it("a pull request GitHub refuses leaves the branch, and says where it is", async () => {
    gh = await start({ faults: [serverError("pulls/create", { times: 10 })] });
    await publishTo(gh, exportOf(1), { repository: "me/desk" });
    const e = await failure(update(gh, exportOf(2)));
    expect(e.kind).toBe("github-unavailable");
    expect(e.message).toMatch(/ The update is on the branch envelope\/update-[0-9a-f]{12}\.$/);
    expect(e.hint).toMatch(/^open a pull request from envelope\/update-[0-9a-f]{12} into main on GitHub$/);
    expect(git(gh.repoDir("me", "desk"), "branch", "--list", "envelope/*").trim()).toMatch(/^envelope\/update-/);
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
    const writes = gh.requests.filter((r) => r.method !== "GET" && r.operationId !== "repos/create-for-authenticated-user").map((r) => r.operationId);
    // Only the first publish's writes: its .envelope/pristine.json (with the vendored runtime
    // since issue 36) and uv.lock (issue 39) are over the 512 KB inline limit: two blobs; the
    // rest inline in as many trees as the upload plan's byte limit asks (two since the
    // runtime's growth on 2026-12-07); one commit, one ref.
    expect(writes.slice(0, 2)).toEqual(["git/create-blob", "git/create-blob"]);
    expect(writes.slice(-2)).toEqual(["git/create-commit", "git/update-ref"]);
    const trees = writes.slice(2, -2);
    expect(trees.length).toBeGreaterThanOrEqual(1);
    expect(new Set(trees)).toEqual(new Set(["git/create-tree"]));
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

describe("envelope export --github on a repository an earlier export made", () => {
  const ENV = { GITHUB_TOKEN: TOKEN, ENVELOPE_GITHUB_DELAY_SCALE: "0" };
  const work = mkdtempSync(join(tmpdir(), "envelope-gh-update-"));
  const v1 = join(work, "v1.envelope.json");
  const v2 = join(work, "v2.envelope.json");
  writeFileSync(v1, definition(1));
  writeFileSync(v2, definition(2));
  const exportTo = (file: string, fake: FakeGitHub, ...extra: string[]) => runCli(["export", file, "--target", "langgraph", "--github", "me/desk", "--github-api-url", fake.url, ...extra], ENV);

  it("opens the pull request: the plan on stdout and its URL as the last line; conflicts exit 4", async () => {
    gh = await start();
    expect((await exportTo(v1, gh)).code).toBe(0);
    const main = developerCommits(gh);
    const r = await exportTo(v2, gh);
    expect(r.code, r.stderr).toBe(4);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^loss report: /);
    expect(lines).toContain("pull request for me/desk, branch main (last exported by envelope-export 0.1.0, target langgraph):");
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ {2}conflict +${WRITER.replace(/\./g, "\\.")} {2}\\(`)));
    expect(lines).toContain("the conflicting files are committed with their markers (<<<<<<< yours … >>>>>>> new export): resolve them on the branch before merging.");
    expect(lines.at(-1)).toBe(`opened pull request #1: ${gh.url}/me/desk/pull/1`);
    expect(r.stderr).toContain("github: me/desk exists: looking in it for an earlier export to update\n");
    expect(r.stderr).not.toContain("already exists");
    const [pull] = gh.pullRequests("me", "desk");
    expect(pull!.title).toBe("Update Reexport Desk from its Envelope definition (1.1.0 → 1.2.0)");
    expect(git(gh.repoDir("me", "desk"), "rev-parse", "main").trim()).toBe(main);
    // Run again: the same update is already proposed, and said so.
    const twice = await exportTo(v2, gh);
    expect(twice.code).toBe(4);
    expect(twice.stdout.trimEnd().split("\n").at(-1)).toBe(`this update is already proposed: pull request #1: ${gh.url}/me/desk/pull/1`);
    expect(gh.pullRequests("me", "desk")).toHaveLength(1);
  });

  it("--json carries the plan and the pull request; the same export again opens nothing (exit 0)", async () => {
    gh = await start();
    expect((await exportTo(v1, gh)).code).toBe(0);
    const r = await exportTo(v2, gh, "--json");
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.github).toMatchObject({ status: "opened", fullName: "me/desk", defaultBranch: "main", pullRequest: { number: 1, url: `${gh.url}/me/desk/pull/1` }, branch: expect.stringMatching(/^envelope\/update-/), tokenSource: "GITHUB_TOKEN" });
    expect(json.github.update.files).toContainEqual({ path: `src/${PKG}/prompts/checker.txt`, action: "remove", reason: "no longer exported, and never edited" });
    const same = await exportTo(v1, gh);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout.trimEnd().split("\n").at(-1)).toBe("me/desk is in step with the definition: no pull request opened");
  });

  it("--dry-run shows the plan and writes nothing; without a token it looks at nothing", async () => {
    gh = await start();
    expect((await exportTo(v1, gh)).code).toBe(0);
    const count = gh.requests.length;
    const r = await exportTo(v2, gh, "--dry-run");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("update plan for me/desk, branch main");
    expect(r.stdout).toContain(`would open a pull request into main of ${gh.url}/me/desk`);
    expect(gh.requests.slice(count).every((x) => x.method === "GET")).toBe(true);
    const blind = await runCli(["export", v2, "--target", "langgraph", "--github", "me/desk", "--github-api-url", gh.url, "--dry-run"], {});
    expect(blind.code).toBe(0);
    expect(blind.stdout).toMatch(/would publish \d+ files to me\/desk/);
    expect(blind.stderr).toContain("github: no token at hand, so whether me/desk holds an earlier export to update was not looked at");
  });

  it("--dry-run as a process: the update's plan is the one answer, not a list of files to write first", async () => {
    gh = await start();
    expect((await exportTo(v1, gh)).code).toBe(0);
    const child = spawn(process.execPath, [join(ROOT, "bin/envelope.js"), "export", v2, "--target", "langgraph", "--github", "me/desk", "--github-api-url", gh.url, "--dry-run"], { cwd: ROOT, env: { PATH: "/nonexistent", NO_COLOR: "1", ...ENV } });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.resume();
    expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
    expect(stdout).toMatch(/^update plan for me\/desk, branch main/);
    expect(stdout).not.toContain("would write");
    expect(stdout).toContain(`would open a pull request into main of ${gh.url}/me/desk\n`);
    expect(stdout).toMatch(/\nloss report: [^\n]*\n(.*\n)*$/);
  });

  it("a token without the workflow scope updates a scheduled project when the update leaves its workflow alone", async () => {
    gh = await start({ tokens: { [TOKEN]: { login: "me", scopes: ["repo", "workflow"] }, narrow: { login: "me", scopes: ["repo"] } } });
    // v2 changes only the lead's prompt: the workflow file stays as it was.
    const scheduled = (version: 1 | 2) => {
      const def = JSON.parse(definition(1)) as { schedule?: unknown; agents: Array<{ prompt: string }> };
      def.schedule = { type: "cron", cron: "0 9 * * 1" };
      if (version === 2) def.agents[0]!.prompt += "\nBe brief.";
      const file = join(work, `scheduled-v${version}.json`);
      writeFileSync(file, JSON.stringify(def, null, 2));
      return file;
    };
    expect((await exportTo(scheduled(1), gh)).code).toBe(0);
    const r = await runCli(["export", scheduled(2), "--target", "langgraph", "--github", "me/desk", "--github-api-url", gh.url], { ...ENV, GITHUB_TOKEN: "narrow" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(`opened pull request #1: ${gh.url}/me/desk/pull/1`);
    expect(r.stdout).not.toContain(".github/workflows/");
  });

  it("--out on an earlier export with --github is refused: one update at a time", async () => {
    gh = await start();
    const out = join(work, "local");
    expect((await runCli(["export", v1, "--target", "langgraph", "--out", out])).code).toBe(0);
    const r = await exportTo(v2, gh, "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("holds an earlier export, which --out updates; update the repository (--github) in a separate export");
    expect(gh.requests).toEqual([]);
  });

  it("a taken repository that is not an export stays a taken name: exit 20, nothing written", async () => {
    gh = await start({ existing: ["me/desk"] });
    const r = await exportTo(v2, gh);
    expect(r.code).toBe(20);
    expect(r.stderr).toMatch(/^envelope: github: me\/desk already exists\n {2}hint: free names: me\/desk-2/m);
    expect(gh.requests.filter((x) => x.method !== "GET")).toEqual([]);
    const dry = await exportTo(v2, gh, "--dry-run");
    expect(dry.code).toBe(20);
    expect(dry.stderr).toContain("envelope: github: me/desk holds no .envelope/export.json on main: it is not a repository exported by envelope-export");
  });
});
