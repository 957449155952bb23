// `npm ci` prints no warning about dependencies' install scripts: npm 11 runs an install
// script that package.json's `allowScripts` does not cover with a warning on every install.
// esbuild's is the only one in the lock (a postinstall that checks, and may download, its
// platform binary); it is denied: the binary comes as an optional dependency (@esbuild/<os>-<cpu>)
// that esbuild's JS API and its `esbuild` command find without it. Checked on a fresh install
// of this package.json and lock, with npm's own policy, and esbuild then used both ways.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { scripts: Record<string, string>; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(new URL("package-lock.json", ROOT), "utf8")) as { packages: Record<string, { hasInstallScript?: boolean }> };
const npmVersion = Number(execFileSync("npm", ["--version"], { encoding: "utf8" }).split(".")[0]);

describe("install scripts", () => {
  it("every dependency with an install script is named in allowScripts (allowed or denied)", () => {
    const scripted = Object.entries(lock.packages)
      .filter(([path, e]) => path !== "" && e.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(scripted.length).toBeGreaterThan(0);
    for (const name of scripted) expect(Object.keys(pkg.allowScripts ?? {}), name).toContain(name);
  });

  // npm 11 is what warns; an older npm has no allowScripts and no warning to look for.
  it.skipIf(npmVersion < 11)("a fresh npm ci of the lock prints no warning, and esbuild works without its install script", () => {
    const dir = mkdtempSync(join(tmpdir(), "envelope-npm-ci-"));
    try {
      // The copy has no sources to build: the package's own prepare is not what is checked here.
      const { prepare: _prepare, ...scripts } = pkg.scripts;
      writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, scripts }, null, 2));
      writeFileSync(join(dir, "package-lock.json"), readFileSync(new URL("package-lock.json", ROOT)));
      const ci = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "warn" } });
      expect(ci.status, ci.stderr).toBe(0);
      expect(ci.stderr).not.toMatch(/npm warn/i);
      expect(execFileSync(join(dir, "node_modules/.bin/esbuild"), ["--version"], { encoding: "utf8" }).trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const api = execFileSync(process.execPath, ["-e", "process.stdout.write(require('esbuild').transformSync('let a: number = 1', { loader: 'ts' }).code)"], { cwd: dir, encoding: "utf8" });
      expect(api).toBe("let a = 1;\n");
    } finally {
      rmSync(dir, { recursive: true, force: true }); // a whole node_modules
    }
  }, 600_000);
});
