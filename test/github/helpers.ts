// Shared by the GitHub tests: a fast publish against the fake, and the one check that
// matters — clone the bare repository the fake wrote and compare it with the file set.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import { publishToGitHub, type PublishOptions, type PublishResult } from "../../src/publish/index.js";
import { TOKEN, type FakeGitHub } from "./fake/index.js";

/** Every wait scaled to nothing: tests never sleep, and no assertion depends on time. */
export const FAST = { delayScale: 0 } as const;

export function publishTo(gh: FakeGitHub, files: FileSet, options: Partial<PublishOptions> = {}): Promise<PublishResult> {
  return publishToGitHub(files, { repository: "me/team", token: TOKEN, apiUrl: gh.url, timing: FAST, onWarning: () => {}, ...options });
}

export function git(cwd: string, ...args: string[]): string {
  // maxBuffer: an export's uv.lock and its pristine copy are over a megabyte.
  return execFileSync("git", args, { cwd, encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
}

/**
 * Clones what the fake wrote and checks: one branch, exactly one commit with no parent, the
 * object store sound (fsck), and a tree equal to the file set — same paths, bytes and modes.
 */
export function expectRepositoryEquals(gh: FakeGitHub, owner: string, name: string, files: FileSet, branch = "main"): void {
  const bare = gh.repoDir(owner, name);
  git(bare, "fsck", "--strict", "--no-progress");
  expect(git(bare, "for-each-ref", "--format=%(refname)").trim().split("\n")).toEqual([`refs/heads/${branch}`]);
  expect(git(bare, "rev-list", "--all", "--parents").trim().split("\n")).toHaveLength(1);
  expect(git(bare, "rev-list", "--all", "--parents").trim().split(" ")).toHaveLength(1); // a root commit: no parent
  const work = mkdtempSync(join(tmpdir(), "fake-github-clone-"));
  try {
    git(work, "clone", "--quiet", bare, "clone");
    const dir = join(work, "clone");
    const listed = git(dir, "ls-tree", "-r", "-z", "HEAD")
      .split("\0")
      .filter(Boolean)
      .map((line) => {
        const [meta, path] = line.split("\t") as [string, string];
        return { path, mode: meta.split(" ")[0] };
      });
    expect(listed.map((e) => e.path)).toEqual(files.paths());
    for (const { path, mode } of listed) {
      const entry = files.get(path)!;
      expect(mode, path).toBe(entry.mode & 0o111 ? "100755" : "100644");
      expect(Buffer.compare(readFileSync(join(dir, path)), Buffer.from(entry.bytes)), `${path}: bytes differ`).toBe(0);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function expectCleanContract(gh: FakeGitHub): void {
  expect(gh.violations, "requests that break GitHub's OpenAPI description").toEqual([]);
  expect(gh.responseViolations, "answers of the fake that break the description").toEqual([]);
}

/** A small project with what makes publishing hard: binary, executable, empty, nested, BOM, CRLF, non-ASCII. */
export function trickyFiles(): FileSet {
  const files = new FileSet();
  files.add("README.md", "# Team\n\nÜnïcødé ✓ — 日本語\n");
  files.add("scripts/run.sh", "#!/bin/sh\necho hi\n", 0o755);
  files.add("src/pkg/__init__.py", "");
  files.add("src/pkg/deep/er/module.py", "x = 1\r\ny = 2\r\n");
  files.add("bom.txt", "\uFEFFstarts with a byte order mark\n");
  files.add("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe, 0x00, 0x01]));
  files.add("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1: not UTF-8
  files.add("tool/bin/exec-binary", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]), 0o755);
  return files;
}

export function manyFiles(count: number): FileSet {
  const files = new FileSet();
  for (let i = 0; i < count; i++) files.add(`pkg/group_${i % 10}/file_${String(i).padStart(4, "0")}.py`, `# file ${i}\nVALUE = ${i}\n`);
  return files;
}

/**
 * A stand-in for the GitHub CLI: a `gh` script in a fresh directory, to put first on PATH.
 * Signed in, `gh auth token` prints `token`; signed out, it exits 1 with gh's own message.
 * Each call's arguments are logged, one line each.
 */
export function fakeGhCli(state: { token: string } | "signed-out"): { dir: string; calls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), "fake-gh-"));
  const log = join(dir, "calls.log");
  const body =
    state === "signed-out"
      ? `echo "no oauth token found for $4" >&2\nexit 1\n`
      : `printf '%s\\n' '${state.token}'\n`;
  writeFileSync(join(dir, "gh"), `#!/bin/sh\necho "$*" >> '${log}'\n${body}`, { mode: 0o755 });
  return { dir, calls: () => (existsSync(log) ? readFileSync(log, "utf8").trimEnd().split("\n") : []) };
}
