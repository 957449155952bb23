// The pure parts of publishing: names, text-or-blob, chunking, rate-limit waits, and reading
// an exported directory.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import { PublishError } from "../../src/publish/errors.js";
import { rateLimitWait } from "../../src/publish/github-client.js";
import { readDirectoryFiles } from "../../src/publish/read-directory.js";
import { alternativeNames, parseRepositoryName } from "../../src/publish/repository-name.js";
import { chunkTree, inlineText, planUpload, type TreeEntry } from "../../src/publish/upload-plan.js";

describe("OWNER/NAME", () => {
  it("accepts GitHub's names", () => {
    expect(parseRepositoryName("octo-cat/my_team.v2")).toEqual({ owner: "octo-cat", name: "my_team.v2" });
  });
  it.each([
    ["team", /expected OWNER\/NAME/],
    ["a/b/c", /expected OWNER\/NAME/],
    ["-bad/x", /not a GitHub account name/],
    ["me/", /expected OWNER\/NAME/],
    ["me/" + "x".repeat(101), /longer than 100/],
    ["me/..", /cannot be \. or \.\./],
    ["me/x.wiki", /reserved for wikis/],
  ])("refuses %s", (spec, message) => {
    expect(() => parseRepositoryName(spec)).toThrow(message);
  });
  it("suggests the name GitHub would make of an invalid one", () => {
    const e = (() => {
      try {
        parseRepositoryName("me/Support Team!");
      } catch (error) {
        return error as PublishError;
      }
    })();
    expect(e?.hint).toBe("try me/Support-Team");
  });
  it("alternatives stay within 100 characters", () => {
    expect(alternativeNames("x".repeat(100), 2).map((n) => n.length)).toEqual([100, 100]);
    expect(alternativeNames("team", 3)).toEqual(["team-2", "team-3", "team-4"]);
  });
});

describe("text inline, the rest as blobs", () => {
  it("inline text is exactly the bytes: a BOM is kept; NUL or invalid UTF-8 make a blob", () => {
    expect(inlineText(new TextEncoder().encode("\uFEFFx"))).toBe("\uFEFFx");
    expect(inlineText(new Uint8Array([0x61, 0x00]))).toBeUndefined();
    expect(inlineText(new Uint8Array([0xe9]))).toBeUndefined();
    expect(inlineText(new Uint8Array([]))).toBe("");
  });
  it("keeps modes and finds workflows", () => {
    const files = new FileSet();
    files.add("run.sh", "#!/bin/sh\n", 0o755);
    files.add(".github/workflows/x.yml", "on: push\n");
    const plan = planUpload(files);
    expect(plan.files.map((f) => [f.path, f.mode])).toEqual([
      [".github/workflows/x.yml", "100644"],
      ["run.sh", "100755"],
    ]);
    expect(plan.workflows).toEqual([".github/workflows/x.yml"]);
    expect(plan.blobs).toEqual([]);
  });
  it("chunks by entries and by bytes; one large entry gets a chunk of its own", () => {
    const entry = (path: string, size: number): TreeEntry => ({ path, mode: "100644", type: "blob", content: "x".repeat(size) });
    const byCount = chunkTree(Array.from({ length: 5 }, (_, i) => entry(`f${i}`, 1)), { maxTreeEntries: 2, maxTreeBytes: 100 });
    expect(byCount.map((c) => c.length)).toEqual([2, 2, 1]);
    const bySize = chunkTree([entry("a", 40), entry("b", 40), entry("c", 500), entry("d", 10)], { maxTreeEntries: 100, maxTreeBytes: 100 });
    expect(bySize.map((c) => c.map((e) => e.path))).toEqual([["a", "b"], ["c"], ["d"]]);
    expect(chunkTree([{ path: "bin", mode: "100644", type: "blob", sha: "0".repeat(40) }], { maxTreeEntries: 1, maxTreeBytes: 0 })).toHaveLength(1);
  });
});

describe("rate-limit waits", () => {
  const error = (status: number, message: string, headers: Record<string, string>) => ({ status, message, response: { headers, data: { message } } });
  it("secondary: retry-after seconds, or a minute without it", () => {
    expect(rateLimitWait(error(403, "x", { "retry-after": "30" }))).toBeUndefined(); // no "secondary rate limit": a plain 403
    expect(rateLimitWait(error(403, "You have exceeded a secondary rate limit.", { "retry-after": "30" }))).toBe(30_000);
    expect(rateLimitWait(error(403, "You have exceeded a secondary rate limit.", {}))).toBe(60_000);
    expect(rateLimitWait(error(429, "Too many", { "retry-after": "2" }))).toBe(2000);
  });
  it("primary: until the reset, plus a second", () => {
    const now = 1_700_000_000_000;
    expect(rateLimitWait(error(403, "API rate limit exceeded", { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(now / 1000 + 10) }), now)).toBe(11_000);
  });
});

describe("reading an exported directory", () => {
  it("takes regular files with their executable bit, skips .git, refuses symbolic links", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-read-"));
    mkdirSync(join(dir, "src"));
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(dir, "src", "a.py"), "a = 1\n");
    writeFileSync(join(dir, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const files = await readDirectoryFiles(dir);
    expect(files.paths()).toEqual(["run.sh", "src/a.py"]);
    expect(files.get("run.sh")!.mode).toBe(0o755);
    expect(files.get("src/a.py")!.mode).toBe(0o644);
    symlinkSync("/etc/passwd", join(dir, "link"));
    await expect(readDirectoryFiles(dir)).rejects.toThrow(/link is a symbolic link, which cannot be published \(only regular files are\): add link to \.gitignore, or replace it with the file itself/);
  });
  it("refuses an empty directory and a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-read-"));
    await expect(readDirectoryFiles(dir)).rejects.toThrow(/is empty: there is nothing to publish/);
    writeFileSync(join(dir, "f"), "x");
    await expect(readDirectoryFiles(join(dir, "f"))).rejects.toThrow(/is not a directory/);
  });
});
