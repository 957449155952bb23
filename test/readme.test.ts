// The README is the CLI and diagnostics reference: keep it complete.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CODES } from "../src/diagnostics/codes.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("README", () => {
  it("documents every diagnostic code", () => {
    const missing = Object.keys(CODES).filter((code) => !readme.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
  it("has the two set-up commands, and .ci/run runs the test one", () => {
    const blocks = [...readme.matchAll(/```sh\n(.*)\n```/g)].map((m) => m[1]);
    expect(blocks.slice(0, 2)).toEqual([expect.stringMatching(/^npm ci && npx envelope /), "npm ci && npm test"]);
    const ci = readFileSync(new URL("../.ci/run", import.meta.url), "utf8");
    expect(ci).toMatch(/npm ci[^\n]*\nnpm test\n/);
  });
});
