// The export's record (.envelope/) travels with the project through git, as its README says
// it must: an export with the run data its runner keeps is committed, cloned, and the clone
// is checked and updated by the CLI, run as a process the way a developer runs it. `publish
// DIR` takes the record too, so a later `export --github` on that repository opens a pull
// request. The run data (checkpoints, decisions, `langgraph dev`'s folder, the workspace
// store) is in none of them.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { start, TOKEN, type FakeGitHub } from "../github/fake/index.js";

const work = mkdtempSync(join(tmpdir(), "envelope-git-round-trip-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let gh: FakeGitHub | undefined;
afterEach(async () => {
  await gh?.close();
  gh = undefined;
});

/** The CLI as a process (asynchronous: the fake GitHub answers from this one). */
function envelope(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "bin/envelope.js"), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

// Only the repository's own configuration: no user's hooks, templates or excludesFile.
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Developer", "-c", "user.email=dev@example.org", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: work, XDG_CONFIG_HOME: work },
  });

const FIXTURE = join(ROOT, "test/fixtures/valid/engineering-hiring-loop.envelope.json"); // gates: decisions files too
const v1 = JSON.parse(readFileSync(FIXTURE, "utf8")) as { version: string; agents: Array<{ prompt: string }> };
const V1 = join(work, "v1.envelope.json");
const V2 = join(work, "v2.envelope.json");
writeFileSync(V1, JSON.stringify(v1, null, 2));
writeFileSync(V2, JSON.stringify({ ...v1, version: "1.5.0", agents: v1.agents.map((a, i) => (i ? a : { ...a, prompt: `${a.prompt}\nCite the job description.` })) }, null, 2));

/** The exported paths, as the ledger lists them (path → sha256). */
const ledger = (dir: string) => (JSON.parse(readFileSync(join(dir, ".envelope/export.json"), "utf8")) as { files: Record<string, string> }).files;

/** What a project's runs leave behind, for each target: in its runner's STATE_DIR, and beside it. */
function runData(dir: string, target: string): string[] {
  const runner = Object.keys(ledger(dir)).find((p) => p === `vendor/envelope-runtime/src/envelope_runtime/${target}/runner.py`)!;
  const state = /^STATE_DIR = (?:Path\()?"([^"]+)"/m.exec(readFileSync(join(dir, runner), "utf8"))![1]!;
  const paths = [`${state}/checkpoints.sqlite`, `${state}/checkpoints.sqlite-wal`, `${state}/20261206T070000Z-a1b2c3.decisions.json`, ".envelope-workspace.sqlite3"];
  // langgraph dev's own folder, and the runs an earlier export's runner kept in the record's folder.
  if (target === "langgraph") paths.push(".langgraph_api/.langgraph_checkpoint.1.pckl", ".envelope/checkpoints.sqlite", ".envelope/20261201T070000Z-d4e5f6.decisions.json");
  for (const path of paths) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), "run data: tool answers, reviewers' feedback\n");
  }
  return paths;
}

describe.each(["langgraph", "crewai"])("%s: the export's record through git", (target) => {
  const ENV = { GITHUB_TOKEN: TOKEN, ENVELOPE_GITHUB_DELAY_SCALE: "0" };

  it("is committed without the run data; a clone is in step (--check 0), sees a new definition (3) and takes the update", async () => {
    const dir = join(work, `${target}-project`);
    const exported = await envelope(["export", V1, "--target", target, "--out", dir]);
    expect(exported.code, exported.stderr).toBe(0);
    const exportedPaths = Object.keys(ledger(dir));
    const written = runData(dir, target);
    writeFileSync(join(dir, ".envelopeignore"), "notes/\n"); // the developer's own: committed too

    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "the export");
    const committed = git(dir, "ls-files").trim().split("\n");
    expect(committed).toEqual(expect.arrayContaining([".envelope/export.json", ".envelope/pristine.json", ".envelopeignore", ...exportedPaths]));
    expect(committed.filter((p) => written.includes(p))).toEqual([]);

    const clone = join(work, `${target}-clone`);
    git(work, "clone", "-q", dir, clone);
    const inStep = await envelope(["export", V1, "--target", target, "--out", clone, "--check"]);
    expect(inStep.code, inStep.stdout + inStep.stderr).toBe(0);
    const behind = await envelope(["export", V2, "--target", target, "--out", clone, "--check"]);
    expect(behind.code, behind.stdout + behind.stderr).toBe(3);
    const updated = await envelope(["export", V2, "--target", target, "--out", clone]);
    expect(updated.code, updated.stdout + updated.stderr).toBe(0);
    expect((await envelope(["export", V2, "--target", target, "--out", clone, "--check"])).code).toBe(0);
    // The update is left for the developer to review and commit, the record with it.
    expect(git(clone, "status", "--porcelain").split("\n")).toContain(" M .envelope/export.json");
  }, 180_000); // five CLI processes and git: slow on a loaded machine

  it("publish DIR takes the record and leaves the run data out, so a later export --github opens a pull request", async () => {
    const dir = join(work, `${target}-published`);
    expect((await envelope(["export", V1, "--target", target, "--out", dir])).code).toBe(0);
    const written = runData(dir, target);
    writeFileSync(join(dir, ".envelopeignore"), "notes/\n");
    gh = await start();
    const name = `me/${target}-team`;
    const published = await envelope(["publish", dir, "--github", name, "--github-api-url", gh.url], ENV);
    expect(published.code, published.stderr).toBe(0);
    const tree = git(gh.repoDir("me", `${target}-team`), "ls-tree", "-r", "--name-only", "main").trim().split("\n");
    expect(tree).toEqual(expect.arrayContaining([".envelope/export.json", ".envelope/pristine.json", ".envelopeignore"]));
    expect(tree.filter((p) => written.includes(p))).toEqual([]);

    const update = await envelope(["export", V2, "--target", target, "--github", name, "--github-api-url", gh.url], ENV);
    expect(update.code, update.stdout + update.stderr).toBe(0);
    expect(update.stdout.trimEnd().split("\n").at(-1)).toBe(`opened pull request #1: ${gh.url}/${name}/pull/1`);
  }, 180_000);
});
