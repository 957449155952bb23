// publishToGitHub against the contract-checked fake: the repository it leaves has exactly one
// commit whose tree is the file set, byte for byte and mode for mode; every request it made
// is one GitHub's OpenAPI description allows.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { FileSet } from "../../src/export/file-set.js";
import { planUpload } from "../../src/publish/upload-plan.js";
import { TARGETS } from "../../src/targets/index.js";
import { start, type FakeGitHub } from "./fake/index.js";
import { expectCleanContract, expectRepositoryEquals, git, manyFiles, publishTo, trickyFiles } from "./helpers.js";
import { agent, team } from "../helpers/definitions.js";

let gh: FakeGitHub | undefined;
afterEach(async () => {
  if (gh) expectCleanContract(gh);
  await gh?.close();
  gh = undefined;
});

const ops = (fake: FakeGitHub) => fake.requests.map((r) => r.operationId);

describe("publishToGitHub", () => {
  it("creates a repository whose history is one commit equal to the file set (binary, executable, empty, BOM, CRLF)", async () => {
    gh = await start();
    const files = trickyFiles();
    const progress: string[] = [];
    const result = await publishTo(gh, files, { onProgress: (l) => progress.push(l) });
    expectRepositoryEquals(gh, "me", "team", files);
    expect(result).toMatchObject({ fullName: "me/team", owner: "me", name: "team", private: false, defaultBranch: "main", url: `${gh.url}/me/team`, files: 8, blobs: 3, trees: 1, recovered: false });
    expect(result.commit).toBe(git(gh.repoDir("me", "team"), "rev-parse", "main").trim());
    // Text travels inline in the tree; only the three files that are not UTF-8 text become blobs.
    const blobs = gh.requests.filter((r) => r.operationId === "git/create-blob");
    expect(blobs.map((r) => (r.body as { encoding: string }).encoding)).toEqual(["base64", "base64", "base64"]);
    expect(ops(gh)).toEqual([
      "users/get-by-username",
      "users/get-authenticated",
      "repos/get",
      "repos/create-for-authenticated-user",
      "git/get-ref",
      "git/create-blob",
      "git/create-blob",
      "git/create-blob",
      "git/create-tree",
      "git/create-commit",
      "git/update-ref",
    ]);
    expect(result.requests).toEqual({ total: 11, writes: 7 });
    expect(progress).toEqual([
      expect.stringMatching(/^checking me on 127\.0\.0\.1:\d+$/),
      "creating me/team (public)",
      "waiting for GitHub to set up main",
      "uploading 3 binary or large files as blobs",
      "writing 8 files (130 bytes) in one tree request",
      "committing",
      "pointing main at the commit",
    ]);
    // The tree request has no base_tree: GitHub's auto_init README is gone.
    const tree = gh.requests.find((r) => r.operationId === "git/create-tree")!.body as Record<string, unknown>;
    expect(tree).not.toHaveProperty("base_tree");
    expect(gh.requests.find((r) => r.operationId === "repos/create-for-authenticated-user")!.body).toEqual({ name: "team", private: false, auto_init: true });
  });

  it("publishes a real CrewAI export, scheduled workflow included, and keeps the commit message and author", async () => {
    gh = await start();
    const example = readFileSync(new URL("../../examples/support-tier.envelope.json", import.meta.url));
    const definition = JSON.parse(example.toString()) as Record<string, unknown>;
    definition.schedule = { type: "cron", cron: "0 9 * * 1" };
    const exported = exportDefinition(JSON.stringify(definition, null, 2), TARGETS.crewai!);
    expect(exported.ok).toBe(true);
    const files = exported.files!;
    expect(files.paths().some((p) => p.startsWith(".github/workflows/"))).toBe(true);
    const author = { name: "Builder", email: "builder@example.com" };
    const result = await publishTo(gh, files, { repository: "me/support-tier", message: "Initial commit\n\nExported.", author });
    expectRepositoryEquals(gh, "me", "support-tier", files);
    // Since issue 36 the pristine copy holds the vendored envelope-runtime too, which takes it
    // over the 512 KB inline limit, and since issue 39 uv.lock is over it too: they are the
    // blobs; the vendored files themselves are small text and travel inline.
    expect(planUpload(files).blobs.map((f) => f.path)).toEqual([".envelope/pristine.json", "uv.lock"]);
    expect(result.blobs).toBe(2);
    const bare = gh.repoDir("me", "support-tier");
    expect(git(bare, "log", "-1", "--format=%an <%ae>%n%B").trim()).toBe("Builder <builder@example.com>\nInitial commit\n\nExported.");
  });

  it("creates in an organization, privately, with a description, through a GitHub Enterprise Server style /api/v3 root", async () => {
    gh = await start();
    const files = trickyFiles();
    const result = await publishTo(gh, files, { repository: "acme/team", private: true, description: "Support team", apiUrl: `${gh.url}/api/v3` });
    expectRepositoryEquals(gh, "acme", "team", files);
    expect(result).toMatchObject({ fullName: "acme/team", private: true });
    expect(ops(gh).slice(0, 3)).toEqual(["users/get-by-username", "repos/get", "repos/create-in-org"]);
    expect(gh.requests.every((r) => r.path.startsWith("/api/v3/"))).toBe(true);
    expect(gh.requests.find((r) => r.operationId === "repos/create-in-org")!.body).toEqual({ name: "team", private: true, auto_init: true, description: "Support team" });
  });

  it("chunks a large tree into several tree requests, each on top of the last, and still makes one commit", async () => {
    gh = await start();
    const files = manyFiles(250);
    const result = await publishTo(gh, files);
    expectRepositoryEquals(gh, "me", "team", files);
    const trees = gh.requests.filter((r) => r.operationId === "git/create-tree").map((r) => r.body as { tree: unknown[]; base_tree?: string });
    expect(trees.map((t) => t.tree.length)).toEqual([100, 100, 50]);
    expect(trees[0]).not.toHaveProperty("base_tree");
    expect(trees[1]!.base_tree).toMatch(/^[0-9a-f]{40}$/);
    expect(result.trees).toBe(3);
    expect(result.requests.writes).toBe(6); // create, 3 trees, commit, ref
  });

  it("splits a tree request GitHub times out on (422 'Sorry, your request timed out') and goes on", async () => {
    gh = await start({ maxTreeEntries: 30 });
    const files = manyFiles(100);
    const result = await publishTo(gh, files);
    expectRepositoryEquals(gh, "me", "team", files);
    const sizes = gh.requests.filter((r) => r.operationId === "git/create-tree").map((r) => [(r.body as { tree: unknown[] }).tree.length, r.status]);
    expect(sizes.filter(([, status]) => status === 201).every(([n]) => (n as number) <= 30)).toBe(true);
    expect(result.trees).toBe(sizes.length);
  });

  it("sends text too large to inline as a blob", async () => {
    gh = await start();
    const files = new FileSet();
    files.add("big.txt", "x".repeat(5000) + "\n");
    files.add("small.txt", "y\n");
    const result = await publishTo(gh, files, { limits: { maxInlineBytes: 1000 } });
    expectRepositoryEquals(gh, "me", "team", files);
    expect(result.blobs).toBe(1);
  });

  it("takes the exported team from a definition with several agents and keeps every generated file", async () => {
    gh = await start();
    const exported = exportDefinition(JSON.stringify(team({ agents: [agent("lead", { prompt: "Lead." }), agent("helper", { prompt: "Help.", reportsToKey: "lead" })] })), TARGETS.crewai!);
    const files = exported.files!;
    await publishTo(gh, files, { repository: "me/two-agents" });
    expectRepositoryEquals(gh, "me", "two-agents", files);
  });
});
