// `envelope export` as one CommonJS file with a V8 code cache (issue 18). Loading ~80 ES
// modules and compiling each function at first call was the largest part of a cold export
// after Node's own start; `npm run build` (scripts/bundle-cli.mjs) bundles what an export loads
// into dist/envelope.cjs and exports the example to each target through it to record the
// compiled code, so a cold export deserializes what those runs compiled. The cache is tied to
// the bundle's exact bytes (its id, a hash written in its first line, names it) and V8 refuses
// one made by another Node version or under other flags: then the bundle is compiled as usual.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { baselineWasmOnly } from "./commands.js";

export const BUNDLE_FILE = fileURLToPath(new URL("../envelope.cjs", import.meta.url));

const ID_LINE = /^\/\/ envelope-export bundle ([0-9a-f]{16})\n/;
export const bundleIdLine = (id: string): string => `// envelope-export bundle ${id}\n`;
export const cacheFile = (id: string): string => join(dirname(BUNDLE_FILE), `envelope.${id}.cache`);

export interface LoadedBundle {
  script: Script;
  /** What became of the code cache: none found, or whether V8 took it. */
  cache: "none" | "accepted" | "rejected";
  /** Runs the CLI on process.argv, as dist/cli/run.js does. */
  run(): void;
}

/** Loads the bundle for an `export`: its flags are set first, as V8 accepts a cache only under the flags it was made with. */
export function loadBundle(): LoadedBundle {
  baselineWasmOnly();
  // ASCII only (scripts/bundle-cli.mjs makes it so), so latin1 reads it as UTF-8 would, faster.
  const source = readFileSync(BUNDLE_FILE, "latin1");
  const id = ID_LINE.exec(source)?.[1];
  let cachedData: Buffer | undefined;
  try {
    if (id) cachedData = readFileSync(cacheFile(id));
  } catch {
    // no cache for this build: compiled as usual
  }
  // The CommonJS wrapper on the bundle's first line keeps its line numbers in stack traces.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: BUNDLE_FILE, ...(cachedData ? { cachedData } : {}) });
  return {
    script,
    cache: cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted",
    run() {
      const module = { exports: {} };
      (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(BUNDLE_FILE), module, BUNDLE_FILE, dirname(BUNDLE_FILE));
    },
  };
}
