// The token never appears in any output: a sentinel token goes through every scenario —
// success, each failure, verbose, JSON, the library's callbacks and errors — and every byte
// printed, logged (console and process streams included) or thrown is scanned for it, plain
// and base64-encoded.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { publishToGitHub } from "../../src/publish/publish.js";
import { ROOT } from "../helpers/cli.js";
import { Capture } from "./capture.js";
import { connectionReset, notFoundYet, primaryRateLimit, repositoryEmpty, secondaryRateLimit, serverError, start, type FakeGitHubOptions } from "./fake/index.js";
import { fakeGhCli, FAST, trickyFiles } from "./helpers.js";

const SENTINEL = "ghp_SENTINEL0000TOKEN1111never2222printed";
const FORMS = [SENTINEL, Buffer.from(SENTINEL).toString("base64"), Buffer.from(`x-access-token:${SENTINEL}`).toString("base64"), SENTINEL.slice(4, 24)];
const EXAMPLE = ROOT + "examples/support-tier.envelope.json";

const grant = (over: object = {}) => ({ tokens: { [SENTINEL]: { login: "me", scopes: ["repo", "workflow"], ...over } } });
const SCENARIOS: Array<[string, FakeGitHubOptions]> = [
  ["success", grant()],
  ["name taken", { ...grant(), existing: ["me/team"] }],
  ["bad token", { tokens: { "some-other-token": { login: "me", scopes: ["repo"] } } }],
  ["expired token", grant({ expired: true })],
  ["missing scope", grant({ scopes: ["public_repo"] })],
  ["fine-grained, no administration", grant({ scopes: null, permissions: {} })],
  ["fine-grained, no workflows", grant({ scopes: null, permissions: { administration: true, contents: true } })],
  ["owner not found", { ...grant(), accounts: [{ login: "someone", type: "User" }] }],
  ["secondary rate limit", { ...grant(), faults: [secondaryRateLimit("git/create-tree", { retryAfter: 0 })] }],
  ["secondary rate limit that lasts", { ...grant(), faults: [secondaryRateLimit("repos/get", { retryAfter: 0, times: 50 })] }],
  ["primary rate limit", { ...grant(), faults: [primaryRateLimit("users/get-by-username")] }],
  ["5xx retried", { ...grant(), faults: [serverError("git/create-commit", { times: 2 })] }],
  ["5xx for good", { ...grant(), faults: [serverError("git/update-ref", { times: 50 })] }],
  ["create answer lost", { ...grant(), faults: [serverError("repos/create-for-authenticated-user", { when: "after" })] }],
  ["create connection dropped", { ...grant(), faults: [connectionReset("repos/create-for-authenticated-user")] }],
  ["create failed", { ...grant(), faults: [serverError("repos/create-for-authenticated-user", { status: 500 })] }],
  ["409 while setting up", { ...grant(), faults: [repositoryEmpty("git/get-ref", 3)] }],
  ["404 while setting up", { ...grant(), faults: [notFoundYet("git/get-ref", 2), notFoundYet("git/create-tree", 1)] }],
  ["never set up", { ...grant(), faults: [repositoryEmpty("git/get-ref", 100)] }],
];

const seen: string[] = [];
const spies: Array<{ mockRestore(): void }> = [];
beforeAll(() => {
  // Anything written to the real console or process streams during these tests is kept too.
  for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    spies.push(vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void seen.push(args.map((a) => inspect(a)).join(" "))));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    spies.push(
      vi.spyOn(stream, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
        seen.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write),
    );
  }
});
afterAll(() => spies.forEach((s) => s.mockRestore()));

function expectNoToken(texts: string[], scenario: string): void {
  const all = texts.join("\n");
  for (const form of FORMS) expect(all.includes(form), `${scenario}: the token (${form === SENTINEL ? "plain" : "encoded or part"}) was printed`).toBe(false);
}

describe("the token never appears in any output", () => {
  it.each(SCENARIOS)("CLI, text and --verbose: %s", async (name, options) => {
    const gh = await start(options);
    try {
      const stdout = new Capture();
      const stderr = new Capture();
      await main(["export", EXAMPLE, "--target", "crewai", "--github", "me/team", "--github-api-url", gh.url, "--verbose"], { stdout, stderr, env: { GITHUB_TOKEN: SENTINEL, ENVELOPE_GITHUB_DELAY_SCALE: "0" } });
      expect(stderr.text).toContain("github: ");
      expectNoToken([stdout.text, stderr.text], name);
    } finally {
      await gh.close();
    }
  });

  it.each(SCENARIOS)("CLI, --json and --token-stdin: %s", async (name, options) => {
    const gh = await start(options);
    try {
      const stdout = new Capture();
      const stderr = new Capture();
      const { Readable } = await import("node:stream");
      await main(["export", EXAMPLE, "--target", "crewai", "--github", "me/team", "--github-api-url", gh.url, "--json", "--token-stdin", "--verbose"], {
        stdout,
        stderr,
        env: { ENVELOPE_GITHUB_DELAY_SCALE: "0" },
        stdin: Readable.from([Buffer.from(SENTINEL + "\n")]),
      });
      expect(JSON.parse(stdout.text)).toHaveProperty("github");
      expectNoToken([stdout.text, stderr.text], name);
    } finally {
      await gh.close();
    }
  });

  it.each(SCENARIOS)("CLI, token from `gh auth token`, --json and --verbose: %s", async (name, options) => {
    const gh = await start(options);
    try {
      const stdout = new Capture();
      const stderr = new Capture();
      const cli = fakeGhCli({ token: SENTINEL });
      await main(["export", EXAMPLE, "--target", "crewai", "--github", "me/team", "--github-api-url", gh.url, "--json", "--verbose"], { stdout, stderr, env: { PATH: cli.dir, ENVELOPE_GITHUB_DELAY_SCALE: "0" } });
      expect(stderr.text).toContain("github: token from gh auth token");
      expectNoToken([stdout.text, stderr.text], name);
    } finally {
      await gh.close();
    }
  });

  it("CLI: a gh that prints the token yet fails does not get it into the usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fake-gh-"));
    writeFileSync(join(dir, "gh"), `#!/bin/sh\necho '${SENTINEL}'\necho 'error: token ${SENTINEL} is not valid' >&2\nexit 1\n`, { mode: 0o755 });
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await main(["export", EXAMPLE, "--target", "crewai", "--github", "me/team", "--github-api-url", "https://ghe.example.com/api/v3"], { stdout, stderr, env: { PATH: dir } });
    expect(code).toBe(2);
    expect(stderr.text).toContain("gh gave no token for ghe.example.com: error: token [REDACTED] is not valid");
    expectNoToken([stdout.text, stderr.text], "gh failing");
  });

  it.each(SCENARIOS)("library: callbacks, error message, hint, details and inspect(): %s", async (name, options) => {
    const gh = await start(options);
    const lines: string[] = [];
    try {
      const result = await publishToGitHub(trickyFiles(), {
        repository: "me/team",
        token: SENTINEL,
        apiUrl: gh.url,
        timing: FAST,
        onProgress: (l) => lines.push(l),
        onRequest: (l) => lines.push(l),
        onWarning: (l) => lines.push(l),
      }).catch((e: unknown) => e);
      lines.push(inspect(result, { depth: 10 }), JSON.stringify(result), String(result), (result as Error).stack ?? "");
      expect(lines.length).toBeGreaterThan(4);
      expectNoToken(lines, name);
    } finally {
      await gh.close();
    }
  });

  it("nothing reached the real console or process streams either", () => {
    expectNoToken(seen, "console/process streams");
  });
});
