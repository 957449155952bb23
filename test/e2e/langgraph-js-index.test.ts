// langgraph-js `--runtime index` against a real registry: envelope-runtime-js packed with
// `npm pack` (its integrity must be js/project-lock/envelope-runtime-js.json's, which every
// such export's package-lock.json carries) and served by a registry of our own on 127.0.0.1;
// a team exported with `--runtime index --runtime-index <that registry>` by the CLI, then its
// README's commands exactly: `npm ci` (the project's .npmrc names the registry), `npm test`,
// `npm run typecheck`, `npm run format:check`. The registry is the project's for every package
// (.npmrc): it serves the runtime (packument and tarball), and every other package the lock
// names (packuments from the lock's entries, tarballs from the npm cache the shared install
// filled, by integrity); npm runs with an empty cache of its own, so everything it installs
// came from the registry.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runBin } from "../helpers/cli.js";
import { type Lockfile, npmCacheContent, type NpmRegistry, type PackedTarball, startNpmRegistry } from "../helpers/npm-registry.js";
import { PROJECT_LOCK, RUNTIME_SOURCE, sharedModules } from "./langgraph-js-env.js";

const ENTRY = JSON.parse(readFileSync(join(ROOT, "js/project-lock/envelope-runtime-js.json"), "utf8")) as { name: string; version: string; filename: string; integrity: string };
const DEFINITION = join(ROOT, "test/fixtures/valid/content-studio.envelope.json");

/**
 * A command run without blocking this process's event loop (the registry answers from it:
 * spawnSync would leave npm waiting for a server that cannot answer).
 */
function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), 600_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** npm's environment for the project: its own .npmrc decides the registry, a scratch cache. */
function npmEnv(cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_cache: cache, CI: "true", NO_COLOR: "1" };
  for (const key of Object.keys(env)) if (/^npm_config_(registry|offline|prefer_offline|userconfig)$/i.test(key)) delete env[key];
  return env;
}

describe("langgraph-js --runtime index: an export installs envelope-runtime-js from a registry and passes its tests", () => {
  const work = mkdtempSync(join(tmpdir(), "envelope-lgjs-index-"));
  let registry: NpmRegistry;
  let cache = "";

  beforeAll(async () => {
    // The shared install fills npm's cache with every package the lock names (once per lock).
    sharedModules();
    const pack = spawnSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: RUNTIME_SOURCE, encoding: "utf8" });
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; integrity: string }>;
    expect(packed!.integrity, "js/project-lock/envelope-runtime-js.json is stale: node js/project-lock/runtime-entry.mjs").toBe(ENTRY.integrity);
    // The other packages as the project's lock names them (.npmrc makes the registry every
    // package's), their tarballs from the npm cache the shared install filled.
    const userCache = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout.trim();
    const runtimePackage = JSON.parse(readFileSync(join(RUNTIME_SOURCE, "package.json"), "utf8")) as PackedTarball["manifest"];
    registry = await startNpmRegistry([{ path: join(work, packed!.filename), manifest: runtimePackage }], JSON.parse(readFileSync(PROJECT_LOCK, "utf8")) as Lockfile, npmCacheContent(userCache));
    // An empty npm cache: every package comes from the registry.
    cache = join(work, "npm-cache");
  }, 900_000);

  afterAll(async () => {
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
  }, 300_000);

  it("export, then the README's npm ci, npm test, npm run typecheck, npm run format:check", async () => {
    const dir = join(work, "project");
    const exported = runBin(["export", DEFINITION, "--target", "langgraph-js", "--runtime", "index", "--runtime-index", registry.url, "--out", dir]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(join(dir, ".npmrc"), "utf8")).toBe(`registry=${registry.url}\n`);
    expect(existsSync(join(dir, "vendor"))).toBe(false);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const command of ["npm ci", "npm test", "npm run typecheck", "npm run format:check"]) expect(readme).toContain(`\n${command} `);

    const env = npmEnv(cache);
    const ci = await run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, env });
    expect(ci.status, `npm ci\n${ci.output}\nregistry requests: ${registry.requests.join(", ")}`).toBe(0);
    // The runtime came from the registry, as the lock says: its tarball, and nothing missing.
    expect(registry.requests).toContain(`GET /${ENTRY.name}/-/${ENTRY.filename} (200)`);
    expect(registry.requests.filter((r) => !r.endsWith("(200)"))).toEqual([]);
    const installed = join(dir, "node_modules", ENTRY.name);
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version).toBe(ENTRY.version);
    // What was installed is what this checkout builds: the same dist/ files.
    const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    for (const f of ["dist/index.js", "dist/graph.js", "dist/testing.js"]) expect(digest(join(installed, f)), f).toBe(digest(join(RUNTIME_SOURCE, f)));

    for (const script of ["test", "run typecheck", "run format:check"]) {
      const done = await run("npm", script.split(" "), { cwd: dir, env });
      expect(done.status, `npm ${script}\n${done.output}`).toBe(0);
    }
  }, 1_200_000);
});
