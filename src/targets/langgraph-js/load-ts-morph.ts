// ts-morph, loaded with a V8 code cache (issue 40's speed goal). ts-morph is three large
// CommonJS files (the TypeScript compiler, 9 MB; @ts-morph/common, 3 MB; ts-morph itself, 1 MB)
// that V8 compiles at every export; Node 20 has no module.enableCompileCache. So each is
// compiled here as Node would (Module.wrap, in this context) through a vm.Script with the
// cached data `npm run build` recorded (scripts/ts-morph-cache.mjs: one export with
// ENVELOPE_TS_MORPH_CACHE_WRITE set writes each script's cache at exit), and put into
// require's cache, so ts-morph's own requires find it. A cache that does not fit (another
// Node, another ts-morph) is rejected by V8 or not found by name: the files compile as usual.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

type TsMorph = typeof import("ts-morph");

/** Where the build keeps the caches (dist/targets/langgraph-js/code-cache/ once compiled). */
const CACHE_DIR = fileURLToPath(new URL("./code-cache/", import.meta.url));

const writing: Array<{ file: string; script: Script }> = [];
const states: Record<string, "accepted" | "rejected" | "none"> = {};

/** What became of each file's code cache in this process (the build's test checks they are accepted). */
export function tsMorphCacheStates(): Readonly<Record<string, "accepted" | "rejected" | "none">> {
  return states;
}

/** The cache's file name for a script: its package version and size, and V8's version. */
function cacheFile(name: string, version: string, size: number): string {
  return join(CACHE_DIR, `${name}-${version}-${size}-v8-${process.versions.v8}.cache`);
}

function load(path: string, name: string, version: string): void {
  const require = createRequire(path);
  if (require.cache[path]) return;
  const source = readFileSync(path, "utf8");
  const file = cacheFile(name, version, source.length);
  // ENVELOPE_TS_MORPH_CACHE=off: compiled without it (bench/langgraph-js.bench.ts compares).
  const cachedData = process.env.ENVELOPE_TS_MORPH_CACHE !== "off" && existsSync(file) ? readFileSync(file) : undefined;
  const script = new Script(Module.wrap(source), { filename: path, ...(cachedData ? { cachedData } : {}) });
  states[name] = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  const module = new Module(path, undefined) as Module & { filename: string; paths: string[]; loaded: boolean };
  module.filename = path;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  require.cache[path] = module;
  try {
    fn.call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  } catch (error) {
    delete require.cache[path];
    throw error;
  }
  module.loaded = true;
  if (process.env.ENVELOPE_TS_MORPH_CACHE_WRITE) writing.push({ file, script });
}

let loaded: TsMorph | undefined;

/** ts-morph as `from` (an import.meta.url) resolves it, its three big files from the code cache when there is one. */
export function loadTsMorph(from: string): TsMorph {
  if (loaded) return loaded;
  const require = createRequire(from);
  const main = require.resolve("ts-morph");
  const commonPackage = createRequire(main).resolve("@ts-morph/common/package.json");
  const common = JSON.parse(readFileSync(commonPackage, "utf8")) as { version: string; main: string };
  const own = JSON.parse(readFileSync(join(dirname(main), "../package.json"), "utf8")) as { version: string };
  const commonDir = dirname(commonPackage);
  try {
    load(join(commonDir, "dist/typescript.js"), "typescript", common.version);
    load(join(commonDir, common.main), "ts-morph-common", common.version);
    load(main, "ts-morph", own.version);
  } catch {
    // Whatever went wrong, ts-morph as Node loads it (the files not in require's cache yet).
  }
  if (process.env.ENVELOPE_TS_MORPH_CACHE_WRITE && writing.length) {
    process.once("exit", () => {
      mkdirSync(CACHE_DIR, { recursive: true });
      for (const w of writing) writeFileSync(w.file, w.script.createCachedData());
    });
  }
  return (loaded = require("ts-morph") as TsMorph);
}
