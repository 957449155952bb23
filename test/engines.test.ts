// `npm ci` on the Node versions package.json's `engines` admits prints no EBADENGINE: every
// package in the lock admits them (content-type 3 and cookie 2, pulled in by @octokit/request
// and light-my-request, want Node >= 22; package.json `overrides` keeps Node 20 versions).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const ROOT = new URL("../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL("package-lock.json", ROOT), "utf8")) as { packages: Record<string, LockEntry> };

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v.replace(/^v/, "").split(".").map((n) => (n === "x" || n === "*" ? 0 : Number(n)));
  return [a, b, c];
};
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The node-semver range forms the lock uses: `>=X`, `^X.Y.Z`, `X.*`, `X || Y`. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split("||").some((part) => {
    const p = part.trim().replace(/\s+/g, "");
    if (p.startsWith(">=")) return cmp(v, parse(p.slice(2))) >= 0;
    if (p.startsWith("^")) {
      const low = parse(p.slice(1));
      return cmp(v, low) >= 0 && v[0] === low[0];
    }
    if (/^\d+(\.(\d+|x|\*))*$/.test(p)) {
      const parts = p.split(".");
      return parts.every((n, i) => n === "x" || n === "*" || Number(n) === v[i]);
    }
    throw new Error(`range form not understood: ${range}`);
  });
}

const entries = Object.entries(lock.packages).filter(([path, e]) => path !== "" && !Array.isArray(e.engines) && e.engines?.node);
const lowest = pkg.engines.node.replace(/^>=\s*/, "");

describe("engines", () => {
  it("package.json says Node >= 20", () => {
    expect(pkg.engines.node).toBe(">=20");
  });
  it("every runtime dependency admits the lowest Node that engines admits", () => {
    const refusing = entries.filter(([, e]) => !e.dev && !satisfies(lowest, (e.engines as { node: string }).node));
    expect(refusing.map(([path, e]) => `${path}@${e.version}: node ${(e.engines as { node: string }).node}`)).toEqual([]);
  });
  it("every package, dev ones included, admits the Node running the tests", () => {
    const refusing = entries.filter(([, e]) => !satisfies(process.versions.node, (e.engines as { node: string }).node));
    expect(refusing.map(([path, e]) => `${path}@${e.version}: node ${(e.engines as { node: string }).node}`)).toEqual([]);
  });
});
