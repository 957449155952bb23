// `envelope export … --github` and `envelope publish DIR --github` against the fake GitHub:
// the repository equals the export, progress goes to stderr, the URL is the last line of
// stdout, --json carries the result or the error, and each failure has its exit code.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { exportDefinition } from "../../src/export/export.js";
import { FileSet } from "../../src/export/file-set.js";
import { readDirectoryFiles } from "../../src/publish/read-directory.js";
import { TARGETS } from "../../src/targets/index.js";
import { ROOT } from "../helpers/cli.js";
import { primaryRateLimit, secondaryRateLimit, serverError, start, TOKEN, type FakeGitHub, type FakeGitHubOptions } from "./fake/index.js";
import { ghHostname } from "../../src/cli/github-publish.js";
import { expectCleanContract, expectRepositoryEquals, fakeGhCli, git } from "./helpers.js";
import { Capture } from "./capture.js";

const EXAMPLE = ROOT + "examples/support-tier.envelope.json";
const exported = () => exportDefinition(readFileSync(EXAMPLE), TARGETS.crewai!).files!;
const ENV = { GITHUB_TOKEN: TOKEN, ENVELOPE_GITHUB_DELAY_SCALE: "0" };

export async function envelope(args: string[], env: NodeJS.ProcessEnv = ENV, stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, env, stdin: Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

let gh: FakeGitHub | undefined;
afterEach(async () => {
  if (gh) expectCleanContract(gh);
  await gh?.close();
  gh = undefined;
});

describe("envelope export --github", () => {
  it("creates the repository with the export in one commit; progress on stderr, the URL last on stdout", async () => {
    gh = await start();
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--github", "me/support-tier", "--github-api-url", gh.url]);
    expect(r.code, r.stderr).toBe(0);
    expectRepositoryEquals(gh, "me", "support-tier", exported());
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(new RegExp(`^published \\d+ files \\(\\d+ bytes\\) to ${gh.url}/me/support-tier$`));
    expect(lines[0]).toMatch(/^loss report: /);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      "github: token from GITHUB_TOKEN",
      expect.stringMatching(/^github: checking me on 127\.0\.0\.1:\d+$/),
      "github: creating me/support-tier (public)",
      "github: waiting for GitHub to set up main",
      // .envelope/pristine.json (holding the vendored envelope-runtime since issue 36) and
      // uv.lock (issue 39) are over maxInlineBytes (512 KB): they go as blobs; every other file
      // (the vendored ones included) is small text and travels inline, in as many tree requests
      // as maxTreeEntries (100) and maxTreeBytes (1 MiB) take: the export has just over 100 files.
      "github: uploading 2 binary or large files as blobs",
      expect.stringMatching(/^github: writing \d+ files \(\d+ bytes\) in (one tree request|[2-9] tree requests)$/),
      "github: committing",
      "github: pointing main at the commit",
    ]);
    expect(git(gh.repoDir("me", "support-tier"), "log", "-1", "--format=%B").trim()).toMatch(/^Initial commit\n\nExported from an Envelope team definition by envelope-export \S+ \(target crewai\)\.$/);
  });

  it("--out and --github together: the directory is written and published; --json carries the result; GITHUB_API_URL is honoured", async () => {
    gh = await start();
    const out = join(mkdtempSync(join(tmpdir(), "envelope-gh-")), "project");
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--out", out, "--github", "acme/support-tier", "--private", "--description", "Support", "--json"], { ...ENV, GITHUB_API_URL: gh.url });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.out).toBe(out);
    // Two blobs, two more writes: .envelope/pristine.json (holding the vendored runtime since
    // issue 36) and uv.lock (issue 39) are over the 512 KB inline limit; the rest is inline in
    // one tree request per 100 files or 1 MiB. Writes: the repository, the blobs, the trees, the
    // commit, the ref.
    expect(json.github).toMatchObject({ url: `${gh.url}/acme/support-tier`, fullName: "acme/support-tier", private: true, defaultBranch: "main", blobs: 2, recovered: false });
    const trees = json.github.trees as number;
    expect(trees).toBeGreaterThanOrEqual(1);
    const writes = 1 + 2 + trees + 2;
    expect(json.github.requests).toEqual({ total: writes + 3, writes }); // and 3 reads
    expect(json.github.commit).toMatch(/^[0-9a-f]{40}$/);
    expectRepositoryEquals(gh, "acme", "support-tier", await readDirectoryFiles(out));
  });

  it("--dry-run --github says what would be published and sends nothing (no token needed)", async () => {
    gh = await start();
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--dry-run", "--github", "me/x", "--github-api-url", gh.url], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/would publish \d+ files to me\/x \(public\) on 127\.0\.0\.1:\d+/);
    expect(gh.requests).toEqual([]);
  });

  it("reads the token from standard input with --token-stdin", async () => {
    gh = await start();
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--github", "me/from-stdin", "--github-api-url", gh.url, "--token-stdin"], { ENVELOPE_GITHUB_DELAY_SCALE: "0" }, `${TOKEN}\n`);
    expect(r.code, r.stderr).toBe(0);
    expectRepositoryEquals(gh, "me", "from-stdin", exported());
  });

  it("--verbose adds one line per request", async () => {
    gh = await start();
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--github", "me/v", "--github-api-url", gh.url, "--verbose"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^github: GET \/users\/me - 200 with id FAKE:1 in \d+ms$/m);
    expect(r.stderr).toMatch(/^github: PATCH \/repos\/me\/v\/git\/refs\/heads%2Fmain - 200 with id FAKE:\d+ in \d+ms$/m);
  });

  it("runs as a real process (the source through tsx), pointed at the fake with --github-api-url", async () => {
    gh = await start();
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "export", EXAMPLE, "--target", "crewai", "--github", "me/process", "--github-api-url", gh.url], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, GITHUB_TOKEN: TOKEN, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(stdout.trimEnd().split("\n").at(-1)).toContain(`${gh.url}/me/process`);
    expectRepositoryEquals(gh, "me", "process", exported());
  });
});

describe("where the token comes from: --token-stdin, else GITHUB_TOKEN, else `gh auth token`", () => {
  const FAST_ENV = { ENVELOPE_GITHUB_DELAY_SCALE: "0" };
  const exportTo = (repository: string, ...more: string[]) => ["export", EXAMPLE, "--target", "crewai", "--github", repository, "--github-api-url", gh!.url, ...more];

  it("with neither flag nor GITHUB_TOKEN, a signed-in gh gives it, asked for the API URL's host; the source is said", async () => {
    gh = await start();
    const cli = fakeGhCli({ token: TOKEN });
    const r = await envelope(exportTo("me/via-gh", "--json"), { ...FAST_ENV, PATH: cli.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe("github: token from gh auth token");
    expect(cli.calls()).toEqual([`auth token --hostname ${new URL(gh.url).host}`]);
    expect(JSON.parse(r.stdout).github).toMatchObject({ fullName: "me/via-gh", tokenSource: "gh auth token" });
    expectRepositoryEquals(gh, "me", "via-gh", exported());
  });

  it("GITHUB_TOKEN comes before gh, which is then not run", async () => {
    gh = await start();
    const cli = fakeGhCli({ token: "gho_not-this-one" });
    const r = await envelope(exportTo("me/env-first"), { ...ENV, PATH: cli.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe("github: token from GITHUB_TOKEN");
    expect(cli.calls()).toEqual([]);
  });

  it("--token-stdin, asked for explicitly, comes before GITHUB_TOKEN", async () => {
    gh = await start();
    const r = await envelope(exportTo("me/stdin-first", "--token-stdin", "--json"), { ...FAST_ENV, GITHUB_TOKEN: "ghp_not-this-one" }, `${TOKEN}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe("github: token from --token-stdin");
    expect(JSON.parse(r.stdout).github.tokenSource).toBe("--token-stdin");
  });

  it("a rejected token from gh is answered with gh's way to a new one", async () => {
    gh = await start({ tokens: { other: { login: "me", scopes: ["repo"] } } });
    const cli = fakeGhCli({ token: "gho_expired" });
    const r = await envelope(exportTo("me/x"), { ...FAST_ENV, PATH: cli.dir });
    expect(r.code).toBe(21);
    expect(r.stderr).toMatch(/^ {2}hint: .*; or sign the GitHub CLI in again with `gh auth login`$/m);
  });

  it.each([
    ["gh signed out", "signed-out" as const, /\(gh gave no token for 127\.0\.0\.1:\d+: no oauth token found for 127\.0\.0\.1:\d+\)$/m],
    ["gh not installed", undefined, /\(gh, the GitHub CLI, is not installed\)$/m],
  ])("%s: the usage error names all three ways, and why gh gave none; nothing sent", async (_label, state, why) => {
    gh = await start();
    const dir = state ? fakeGhCli(state).dir : mkdtempSync(join(tmpdir(), "no-gh-"));
    const r = await envelope(exportTo("me/x"), { ...FAST_ENV, PATH: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^envelope: publishing to GitHub needs a token: set GITHUB_TOKEN, pipe it in with --token-stdin, or sign the GitHub CLI in with `gh auth login` /);
    expect(r.stderr).toMatch(why);
    expect(gh.requests).toEqual([]);
  });

  it("gh is asked about the host it knows the API URL's server by", () => {
    expect(ghHostname("https://api.github.com")).toBe("github.com");
    expect(ghHostname("https://ghe.example.com/api/v3")).toBe("ghe.example.com");
    expect(ghHostname("https://api.acme.ghe.com")).toBe("acme.ghe.com");
  });
});

describe("envelope publish DIR --github", () => {
  it("publishes an exported directory, executable bits included", async () => {
    gh = await start();
    const out = join(mkdtempSync(join(tmpdir(), "envelope-gh-")), "project");
    expect((await envelope(["export", EXAMPLE, "--target", "crewai", "--out", out])).code).toBe(0);
    chmodSync(join(out, "pyproject.toml"), 0o755);
    const r = await envelope(["publish", out, "--github", "me/from-dir", "--github-api-url", gh.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`published ${exported().size} files (${exported().totalBytes()} bytes) to ${gh.url}/me/from-dir\n`);
    const files = await readDirectoryFiles(out);
    expect(files.get("pyproject.toml")!.mode).toBe(0o755);
    expectRepositoryEquals(gh, "me", "from-dir", files);
    expect(git(gh.repoDir("me", "from-dir"), "log", "-1", "--format=%B").trim()).toMatch(/^Initial commit\n\nPublished by envelope-export/);
  });

  it("--json prints the files and the result", async () => {
    gh = await start();
    const out = join(mkdtempSync(join(tmpdir(), "envelope-gh-")), "project");
    await envelope(["export", EXAMPLE, "--target", "crewai", "--out", out]);
    const r = await envelope(["publish", out, "--github", "me/j", "--github-api-url", gh.url, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.source).toBe(out);
    expect(json.files.length).toBe(exported().size);
    expect(json.github.fullName).toBe("me/j");
  });
});

describe("envelope publish DIR: what .gitignore and the .env rule leave out", () => {
  /** An exported project after the README's `uv sync && uv run pytest`, plus a user's .env files. */
  async function usedProject(): Promise<string> {
    const out = join(mkdtempSync(join(tmpdir(), "envelope-gh-")), "project");
    expect((await envelope(["export", EXAMPLE, "--target", "crewai", "--out", out])).code).toBe(0);
    const put = (path: string, text: string) => {
      mkdirSync(join(out, path, ".."), { recursive: true });
      writeFileSync(join(out, path), text);
    };
    put(".env", "OPENAI_API_KEY=sk-live-secret\n");
    put(".env.local", "ANTHROPIC_API_KEY=sk-ant-secret\n");
    put("src/support_tier/.env.production", "X=1\n"); // any depth
    put(".venv/pyvenv.cfg", "home = /usr/bin\n");
    mkdirSync(join(out, ".venv/bin"));
    symlinkSync("/usr/bin/python3", join(out, ".venv/bin/python"));
    put(".pytest_cache/v/cache/lastfailed", "{}\n");
    put("src/support_tier/__pycache__/crew.cpython-312.pyc", "\0");
    put("tests/__pycache__/test_x.cpython-312.pyc", "\0");
    // A nested .gitignore: relative to its folder, with a negation.
    put("tests/.gitignore", "*.log\n!keep.log\n");
    put("tests/run.log", "noise\n");
    put("tests/keep.log", "kept\n");
    // An .env rule beats a negation in .gitignore.
    writeFileSync(join(out, ".gitignore"), readFileSync(join(out, ".gitignore"), "utf8") + "!.env.local\n");
    return out;
  }

  it("the pushed tree leaves them all out, keeps .env.example and .gitignore, and says what it left out", async () => {
    gh = await start();
    const out = await usedProject();
    const r = await envelope(["publish", out, "--github", "me/used", "--github-api-url", gh.url]);
    expect(r.code, r.stderr).toBe(0);
    const expected = new FileSet();
    for (const [path, f] of exported().entries()) if (path !== ".gitignore") expected.add(path, f.bytes, f.mode);
    expected.add("tests/.gitignore", new TextEncoder().encode("*.log\n!keep.log\n"), 0o644);
    expected.add("tests/keep.log", new TextEncoder().encode("kept\n"), 0o644);
    expected.add(".gitignore", new Uint8Array(readFileSync(join(out, ".gitignore"))), 0o644);
    expectRepositoryEquals(gh, "me", "used", expected);
    expect(expected.paths()).toContain(".env.example");
    const leftOut = r.stderr.slice(r.stderr.indexOf("left out"), r.stderr.indexOf("github: "));
    expect(leftOut).toBe(
      [
        "left out 8 paths:",
        "  .env  (.env files are never published)",
        "  .env.local  (.env files are never published)",
        "  .pytest_cache/  (.gitignore:7: .pytest_cache/)",
        "  .venv/  (.gitignore:4: .venv/)",
        "  src/support_tier/.env.production  (.env files are never published)",
        "  src/support_tier/__pycache__/  (.gitignore:5: __pycache__/)",
        "  tests/__pycache__/  (.gitignore:5: __pycache__/)",
        "  tests/run.log  (tests/.gitignore:1: *.log)",
        "",
      ].join("\n"),
    );
    expect(r.stdout).toMatch(/^published \d+ files/);
  });

  it("--json lists what was left out as a field", async () => {
    gh = await start();
    const out = await usedProject();
    const r = await envelope(["publish", out, "--github", "me/used-json", "--github-api-url", gh.url, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.leftOut).toContainEqual({ path: ".env", reason: "env-file" });
    expect(json.leftOut).toContainEqual({ path: ".venv/", reason: "gitignore", rule: ".gitignore:4: .venv/" });
    expect(json.leftOut).toHaveLength(8);
    expect(json.files.map((f: { path: string }) => f.path)).not.toContain(".env");
  });

  it("a symbolic link .gitignore does not exclude is refused, saying what to do; nothing is sent", async () => {
    gh = await start();
    const out = await usedProject();
    symlinkSync("../README.md", join(out, "docs-link.md"));
    const r = await envelope(["publish", out, "--github", "me/linked", "--github-api-url", gh.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`envelope: ${join(out, "docs-link.md")} is a symbolic link, which cannot be published (only regular files are): add docs-link.md to .gitignore, or replace it with the file itself\n`);
    expect(gh.requests).toEqual([]);
  });
});

describe("usage errors: exit 2, nothing sent", () => {
  const cases: Array<[string, string[], NodeJS.ProcessEnv, RegExp]> = [
    ["no token", ["export", EXAMPLE, "--target", "crewai", "--github", "me/x"], {}, /needs a token: set GITHUB_TOKEN, pipe it in with --token-stdin, or sign the GitHub CLI in with `gh auth login` \(no PATH to find gh on\)/],
    ["a token on the command line", ["export", EXAMPLE, "--target", "crewai", "--github", "me/x", "--token", "abc"], ENV, /a token is never taken on the command line/],
    ["a bad OWNER/NAME", ["export", EXAMPLE, "--target", "crewai", "--github", "me/bad name"], ENV, /--github: "bad name" is not a valid repository name: .* \(try me\/bad-name\)/],
    ["no slash", ["export", EXAMPLE, "--target", "crewai", "--github", "x"], ENV, /expected OWNER\/NAME/],
    ["--private without --github", ["export", EXAMPLE, "--target", "crewai", "--dry-run", "--private"], ENV, /--private only goes with --github OWNER\/NAME/],
    ["plain http elsewhere", ["export", EXAMPLE, "--target", "crewai", "--github", "me/x", "--github-api-url", "http://example.com/api/v3"], ENV, /--github-api-url: refusing to send the token to http:\/\/example\.com/],
    ["a bad GITHUB_API_URL", ["export", EXAMPLE, "--target", "crewai", "--github", "me/x"], { ...ENV, GITHUB_API_URL: "not a url" }, /GITHUB_API_URL: the GitHub API URL "not a url" is not a URL/],
    ["--token-stdin with the definition on stdin", ["export", "-", "--target", "crewai", "--github", "me/x", "--token-stdin"], ENV, /--token-stdin cannot be used when the definition is read from standard input/],
    ["publish without --github", ["publish", "somewhere"], ENV, /publish needs --github OWNER\/NAME/],
    ["publish with --target", ["publish", "somewhere", "--github", "me/x", "--target", "crewai"], ENV, /publish does not take --target/],
    ["publish of a missing directory", ["publish", "/nonexistent/dir", "--github", "me/x"], ENV, /cannot read \/nonexistent\/dir: no such directory/],
    ["--github on validate", ["validate", EXAMPLE, "--github", "me/x"], ENV, /--github goes with export or publish, not validate/],
  ];
  it.each(cases)("%s", async (_label, args, env, message) => {
    gh = await start();
    const withUrl = args.includes("--github-api-url") || env.GITHUB_API_URL || !args.includes("--github") ? args : [...args, "--github-api-url", gh.url];
    const r = await envelope(withUrl, env);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(gh.requests).toEqual([]);
  });
});

describe("each failure has its own exit code and a clear message", () => {
  const cases: Array<[string, number, FakeGitHubOptions, string, RegExp]> = [
    ["name taken", 20, { existing: ["me/x"] }, "me/x", /^envelope: github: me\/x already exists\n {2}hint: free names: me\/x-2, me\/x-3, me\/x-4$/m],
    ["bad token", 21, { tokens: { other: { login: "me", scopes: ["repo"] } } }, "me/x", /^envelope: github: GitHub rejected the token \(401: Bad credentials\)[^\n]*\n {2}hint: create a new token; .*; give the new one in GITHUB_TOKEN or with --token-stdin$/m],
    ["missing scope", 22, { tokens: { [TOKEN]: { login: "me", scopes: [] } } }, "me/x", /^envelope: github: the token lacks the scope public_repo; nothing was created$/m],
    ["owner not found", 23, {}, "ghost/x", /^envelope: github: there is no GitHub user or organization called ghost$/m],
    ["rate limited", 24, { faults: [primaryRateLimit("users/get-by-username")] }, "me/x", /^envelope: github: GitHub's rate limit stopped the publish/m],
    ["GitHub unavailable", 25, { faults: [serverError("git/create-commit", { times: 10 })] }, "me/x", /^envelope: github: GitHub failed \(502\) while creating the commit, even after retrying\. The repository me\/x was created/m],
    ["create may have happened", 26, { faults: [serverError("repos/create-for-authenticated-user")] }, "me/x", /^envelope: github: GitHub failed while creating me\/x \(502\), and whether the repository now exists cannot be told/m],
    ["GitHub refuses the request", 27, { faults: [{ operation: "git/create-commit", status: 422, body: { message: "Validation Failed", documentation_url: "https://docs.github.com/rest" } }] }, "me/x", /^envelope: github: GitHub refused the request \(422: Validation Failed\) while creating the commit\./m],
  ];
  it.each(cases)("%s → %i", async (_label, code, options, repository, message) => {
    gh = await start(options);
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--github", repository, "--github-api-url", gh.url]);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(code);
    expect(r.stdout).not.toMatch(/^published/m);
  });

  it("with --json the error is in the summary: kind, exit code, message, hint, suggestions", async () => {
    gh = await start({ existing: ["me/x"] });
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--github", "me/x", "--github-api-url", gh.url, "--json"]);
    expect(r.code).toBe(20);
    expect(JSON.parse(r.stdout).github).toEqual({
      error: { kind: "name-taken", exitCode: 20, message: "me/x already exists", hint: "free names: me/x-2, me/x-3, me/x-4", suggestions: ["x-2", "x-3", "x-4"], repository: null, status: 422 },
      tokenSource: "GITHUB_TOKEN",
    });
  });

  it("a secondary rate limit is waited out and the export still succeeds", async () => {
    gh = await start({ faults: [secondaryRateLimit("git/create-tree", { retryAfter: 3 })] });
    const r = await envelope(["export", EXAMPLE, "--target", "crewai", "--github", "me/x", "--github-api-url", gh.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("github: GitHub asked to slow down (rate limit); waiting 3 s before retrying POST /repos/{owner}/{repo}/git/trees");
  });
});

describe("envelope publish DIR as a process: what it refuses and says before a token or a byte is read", () => {
  /** The CLI as the user runs it, with its peak memory (KiB) read at exit by a preloaded hook. */
  async function bin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string; maxRssKiB: number }> {
    const dir = mkdtempSync(join(tmpdir(), "envelope-rss-"));
    const hook = join(dir, "rss.cjs");
    writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(join(dir, "rss"))}, String(process.resourceUsage().maxRSS)));\n`);
    const child = spawn(process.execPath, ["--require", hook, join(ROOT, "bin/envelope.js"), ...args], { cwd: ROOT, env: { NO_COLOR: "1", ENVELOPE_GITHUB_DELAY_SCALE: "0", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, stdout, stderr, maxRssKiB: Number(readFileSync(join(dir, "rss"), "utf8")) };
  }
  const project = async () => {
    const out = join(mkdtempSync(join(tmpdir(), "envelope-gh-")), "project");
    expect((await envelope(["export", EXAMPLE, "--target", "crewai", "--out", out])).code).toBe(0);
    return out;
  };

  it("a missing directory is said first, with no token at hand (and none asked for)", async () => {
    gh = await start();
    const r = await bin(["publish", "/nonexistent/dir", "--github", "me/x", "--github-api-url", gh.url], { PATH: "/nonexistent" });
    expect(r.stderr).toBe("envelope: cannot read /nonexistent/dir: no such directory\n");
    expect(r.code).toBe(2);
    expect(gh.requests).toEqual([]);
  });

  it("a file over GitHub's 25 MB is refused by its size, unread (exit 27), before the token", async () => {
    gh = await start();
    const out = await project();
    const big = await open(join(out, "data.bin"), "w");
    await big.truncate(200 * 1024 * 1024); // sparse: 200 MB long, no disk used
    await big.close();
    const r = await bin(["publish", out, "--github", "me/big", "--github-api-url", gh.url], { PATH: "/nonexistent" });
    expect(r.stderr).toBe(
      `envelope: GitHub cannot take files over 25 MB through its API: data.bin (${200 * 1024 * 1024} bytes)\n  hint: add them to .gitignore, or push the project with git and Git LFS\n`,
    );
    expect(r.code).toBe(27);
    expect(r.maxRssKiB).toBeLessThan(160 * 1024); // reading it whole took 450 MB
    expect(gh.requests).toEqual([]);
  }, 60_000);

  it("node_modules/ that no rule excludes is pushed, as git add . would, and named with its size first", async () => {
    gh = await start();
    const out = await project();
    mkdirSync(join(out, "node_modules/left-pad"), { recursive: true });
    writeFileSync(join(out, "node_modules/left-pad/index.js"), "module.exports = (s) => s;\n");
    writeFileSync(join(out, "node_modules/left-pad/package.json"), '{"name":"left-pad"}\n');
    writeFileSync(join(out, "package.json"), '{"private":true}\n');
    const r = await bin(["publish", out, "--github", "me/with-node", "--github-api-url", gh.url], { PATH: "/nonexistent", GITHUB_TOKEN: TOKEN });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("publishing a folder a Python project does not usually hold (add it to .gitignore to leave it out):\n  node_modules/  (2 files, 47 bytes)\ngithub: ");
    expectRepositoryEquals(gh, "me", "with-node", await readDirectoryFiles(out));
    const json = await bin(["publish", out, "--github", "me/with-node-json", "--github-api-url", gh.url, "--json"], { PATH: "/nonexistent", GITHUB_TOKEN: TOKEN });
    expect(JSON.parse(json.stdout).unexpected).toEqual([{ path: "node_modules/", files: 2, bytes: 47 }]);
    // Ignored, it is left out like any other path, and not named as pushed.
    writeFileSync(join(out, ".gitignore"), readFileSync(join(out, ".gitignore"), "utf8") + "node_modules/\n");
    const ignored = await bin(["publish", out, "--github", "me/without-node", "--github-api-url", gh.url, "--json"], { PATH: "/nonexistent", GITHUB_TOKEN: TOKEN });
    expect(JSON.parse(ignored.stdout)).toMatchObject({ unexpected: [], leftOut: [{ path: "node_modules/", reason: "gitignore" }] });
  }, 120_000);
});
