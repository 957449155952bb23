// `npm ci` on the Node versions package.json's `engines` and the README name prints no
// EBADENGINE: every package in the lock, dev ones included (a clone installs them), admits
// the lowest version of each line they name (content-type 3 and cookie 2, pulled in by
// @octokit/request and light-my-request, want Node >= 22, so package.json `overrides` keeps
// Node 20 versions; Vite 7, under vitest, wants ^20.19.0 || >=22.12.0, so engines says so).
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
const nodeRange = (e: LockEntry) => (e.engines as { node: string }).node;

/** The lowest version of each release line a range admits: `^20.19.0 || >=22.12.0` → 20.19.0, 22.12.0. */
const floors = (range: string) => range.split("||").map((part) => part.trim().replace(/^(\^|>=)\s*/, ""));
const full = (v: string) => parse(v).join(".");

const readme = readFileSync(new URL("README.md", ROOT), "utf8");
/** The versions in the README's "Requires Node.js …" sentence (up to a full stop and a space). */
const readmeVersions = (/Requires Node\.js (.*?)\.\s/s.exec(readme)?.[1] ?? "").match(/\b\d+\.\d+(?:\.\d+)?\b/g) ?? [];
const named = [...new Set([...floors(pkg.engines.node), ...readmeVersions].map(full))];

describe("engines", () => {
  it("the README names the Node versions engines admits at the lowest", () => {
    expect(readmeVersions.map(full)).toEqual(floors(pkg.engines.node).map(full));
    expect(named.length).toBeGreaterThan(0);
  });
  it.each(named)("our engines admit Node %s", (version) => {
    expect(satisfies(version, pkg.engines.node)).toBe(true);
  });
  it.each(named)("every package in the lock, dev ones included, admits Node %s (no EBADENGINE from npm ci)", (version) => {
    const refusing = entries.filter(([, e]) => !satisfies(version, nodeRange(e)));
    expect(refusing.map(([path, e]) => `${path}@${e.version}: node ${nodeRange(e)}`)).toEqual([]);
  });
  it("every package admits the Node running the tests", () => {
    const refusing = entries.filter(([, e]) => !satisfies(process.versions.node, nodeRange(e)));
    expect(refusing.map(([path, e]) => `${path}@${e.version}: node ${nodeRange(e)}`)).toEqual([]);
  });
  it("the lock's root entry carries the same engines as package.json", () => {
    expect(lock.packages[""]?.engines).toEqual(pkg.engines);
  });
});
