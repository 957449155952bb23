// The .gitignore matcher publish uses, checked against git itself: for each case, the files
// `git ls-files --others --exclude-standard` would add are exactly the files publish takes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { globToRegex, parseGitignore } from "../../src/publish/gitignore.js";
import { readDirectory } from "../../src/publish/read-directory.js";

// Git reads only the project's own files here: no global or system config, no excludesFile
// (also not the XDG default, ~/.config/git/ignore).
const GIT_HOME = mkdtempSync(join(tmpdir(), "envelope-ignore-home-"));
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", HOME: GIT_HOME, XDG_CONFIG_HOME: GIT_HOME };
const made: string[] = [GIT_HOME];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function gitAdds(dir: string): string[] {
  const r = spawnSync("git", ["ls-files", "--others", "--exclude-standard", "-z"], { cwd: dir, env: GIT_ENV, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.split("\0").filter(Boolean).sort();
}

/** A git repository holding `files` (path → content; `.gitignore` files among them). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "envelope-ignore-"));
  made.push(dir);
  const init = spawnSync("git", ["init", "-q"], { cwd: dir, env: GIT_ENV });
  if (init.status !== 0) throw new Error(String(init.stderr));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function publishTakes(dir: string): Promise<string[]> {
  try {
    return (await readDirectory(dir)).files.paths().sort();
  } catch (e) {
    if (/holds nothing to publish/.test(String(e))) return [];
    throw e;
  }
}

const PATHS = ["a", "b.txt", "x.py", "dir/a", "dir/b.txt", "dir/sub/a", "dir/sub/c.log", "other/dir/a", "other/x.py", "deep/a/b/c/d.txt", "[x]", "sp ace", "#hash", "!bang", "a.b/c"];
const files = (ignores: Record<string, string>) => ({ ...Object.fromEntries(PATHS.map((p) => [p, p])), ...ignores });

const CASES: Array<[string, Record<string, string>]> = [
  ["a name matches at every level", { ".gitignore": "a\n" }],
  ["directory only", { ".gitignore": "dir/\nb.txt/\n" }],
  ["anchored with a leading slash", { ".gitignore": "/a\n/dir/sub\n" }],
  ["a middle slash anchors", { ".gitignore": "dir/a\nsub/c.log\n" }],
  ["negation re-includes", { ".gitignore": "*.txt\n!dir/b.txt\n" }],
  ["a file in an ignored directory cannot be re-included", { ".gitignore": "dir/\n!dir/a\n" }],
  ["dir/* then a negation re-includes", { ".gitignore": "dir/*\n!dir/sub\n" }],
  ["leading **/", { ".gitignore": "**/a\n**/sub/c.log\n" }],
  ["trailing /**", { ".gitignore": "deep/**\ndir/**/*.log\n" }],
  ["middle /**/", { ".gitignore": "deep/**/d.txt\nother/**/a\n" }],
  ["** elsewhere is *", { ".gitignore": "d**.txt\nx**\n" }],
  ["character classes", { ".gitignore": "[ab]\n[!x].py\n*.[lt][ox][gt]\n[[:digit:][:upper:]]*\n" }],
  ["escapes, comments, spaces", { ".gitignore": "# a comment\n\\#hash\n\\!bang\nsp\\ ace\nb.txt   \n\n\\[x\\]\n" }],
  ["? does not match a slash", { ".gitignore": "dir?a\na?b/c\n" }],
  ["nested .gitignore is relative to its directory", { ".gitignore": "*.log\n", "dir/.gitignore": "a\n!c.log\n/b.txt\n", "dir/sub/.gitignore": "!/a\n" }],
  ["a deeper file overrides a higher one", { ".gitignore": "!a\nx.py\n", "other/.gitignore": "*\n!x.py\n!.gitignore\n" }],
  ["an ignored directory's .gitignore is never read", { ".gitignore": "dir/\n", "dir/.gitignore": "!*\n" }],
  ["CRLF lines and a byte order mark", { ".gitignore": "\uFEFFa\r\nb.txt\r\n" }],
  ["an unclosed bracket or unknown class matches nothing", { ".gitignore": "[ab\n[[:nope:]]\nx.py\n" }],
  ["* at the top ignores everything but the negated", { ".gitignore": "*\n!*.py\n!*/\n" }],
];

describe("publish leaves out what git would (git check as the reference)", () => {
  it.each(CASES)("%s", async (_label, ignores) => {
    const dir = tree(files(ignores));
    expect(await publishTakes(dir)).toEqual(gitAdds(dir));
  });

  it("random patterns agree with git", async () => {
    const token = fc.constantFrom("a", "b", "dir", "sub", "x", "*", "**", "?", "/", ".", "[ab]", "[!a]", "[a-c]", "txt", "py", "log");
    const pattern = fc.tuple(fc.boolean(), fc.array(token, { minLength: 1, maxLength: 5 })).map(([neg, parts]) => (neg ? "!" : "") + parts.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(pattern, { minLength: 1, maxLength: 4 }), fc.array(pattern, { maxLength: 2 }), async (top, nested) => {
        const ignores: Record<string, string> = { ".gitignore": top.join("\n") + "\n" };
        if (nested.length) ignores["dir/.gitignore"] = nested.join("\n") + "\n";
        const dir = tree(files(ignores));
        expect(await publishTakes(dir)).toEqual(gitAdds(dir));
      }),
      { numRuns: 400, seed: 13 },
    );
  }, 120_000); // 400 git processes and trees: 5 s idle, past 20 s on a loaded 2-core machine
});

describe("the matcher's pieces", () => {
  it("globs", () => {
    expect(globToRegex("*.py")!.test("a.py")).toBe(true);
    expect(globToRegex("*.py")!.test("a/b.py")).toBe(false);
    expect(globToRegex("a/**/b")!.test("a/b")).toBe(true);
    expect(globToRegex("a/**/b")!.test("a/x/y/b")).toBe(true);
    expect(globToRegex("[!a]")!.test("/")).toBe(false);
    expect(globToRegex("[a")).toBeUndefined();
  });
  it("rules keep their place for messages", () => {
    expect(parseGitignore("# c\n\n.venv/\n!keep\n", "sub").map((r) => [r.source, r.line, r.text, r.negated, r.directoryOnly])).toEqual([
      ["sub/.gitignore", 3, ".venv/", false, true],
      ["sub/.gitignore", 4, "!keep", true, false],
    ]);
  });
});
