// prettier for the langgraph-js target, synchronously: export targets generate synchronously,
// and prettier 3 formats asynchronously, so one worker thread formats every file of an export
// while this thread waits on a shared flag (Atomics.wait). prettier is loaded there alone, and
// only for this target.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

export interface FormatJob {
  path: string;
  text: string;
  parser: "typescript" | "json" | "json-stringify";
}

/** The project's prettier options (its .prettierrc.json says the same). */
export const PRETTIER_OPTIONS = { printWidth: 100 } as const;

// One worker per process, started on the first export to this target and kept (unref'd, so
// it never holds the process open): prettier is loaded once, not at every export. It is
// prettier's standalone build and the three plugins this target formats with (CommonJS, the
// same code as prettier's Node API, which reads them as ES modules V8 compiles at every
// export), each compiled through a vm.Script with the V8 code cache the build recorded
// (scripts/ts-morph-cache.mjs, beside ts-morph's; a cache that does not fit is rejected by V8).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const Module = require("node:module");
const { Script } = require("node:vm");
const scripts = [];
const states = {};
function load(file) {
  const path = join(workerData.prettierDir, file);
  const source = readFileSync(path, "utf8");
  const name = file.replace(/[^a-z]+/g, "-").replace(/-js$/, "");
  const cacheFile = join(workerData.cacheDir, "prettier-" + workerData.version + "-" + name + "-" + source.length + "-v8-" + process.versions.v8 + ".cache");
  const cachedData = workerData.useCache && existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new Script(Module.wrap(source), { filename: path, ...(cachedData ? { cachedData } : {}) });
  states[name] = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, path, dirname(path));
  scripts.push({ script, cacheFile });
  return module.exports;
}
// A prettier that cannot be loaded is every export's answer at once: the exporting thread
// waits blocked, and would see no error event before its 120 s limit.
let prettier, plugins, warm, unloaded;
try {
  prettier = load("standalone.js");
  plugins = ["plugins/estree.js", "plugins/typescript.js", "plugins/babel.js"].map(load);
  // The TypeScript parser and printer warm now, while the exporting thread loads ts-morph.
  warm = prettier.format("", { parser: "typescript", plugins }).catch(() => undefined);
} catch (error) {
  unloaded = "prettier could not be loaded: " + String((error && error.message) || error);
}
let written = false;
parentPort.on("message", async ({ jobs, options, flag, port }) => {
  let out;
  try {
    if (unloaded) throw new Error(unloaded);
    await warm;
    out = { results: await Promise.all(jobs.map((j) => prettier.format(j.text, { ...options, parser: j.parser, filepath: j.path, plugins }))), cache: states };
  } catch (error) {
    out = { error: String((error && error.message) || error) };
  }
  if (workerData.writeCache && !written && !unloaded) {
    written = true;
    mkdirSync(workerData.cacheDir, { recursive: true });
    for (const s of scripts) writeFileSync(s.cacheFile, s.script.createCachedData());
  }
  port.postMessage(out);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/** Where the build keeps the code caches (dist/targets/langgraph-js/code-cache/ once compiled). */
const CACHE_DIR = fileURLToPath(new URL("./code-cache/", import.meta.url));

let worker: Worker | undefined;
let lastCacheStates: Readonly<Record<string, string>> = {};

/** What became of prettier's code caches in the worker (the build's test checks they are accepted). */
export function prettierCacheStates(): Readonly<Record<string, string>> {
  return lastCacheStates;
}

/** Starts the formatter's worker (prettier and its TypeScript plugins load there meanwhile); formatAll starts it too. */
export function startFormatter(): Worker {
  if (!worker) {
    const main = createRequire(import.meta.url).resolve("prettier");
    const prettierDir = dirname(main);
    const { version } = JSON.parse(readFileSync(join(prettierDir, "package.json"), "utf8")) as { version: string };
    const workerData = {
      prettierDir,
      version,
      cacheDir: CACHE_DIR,
      useCache: process.env.ENVELOPE_TS_MORPH_CACHE !== "off",
      writeCache: Boolean(process.env.ENVELOPE_TS_MORPH_CACHE_WRITE),
    };
    // The worker's code is CommonJS: a parent's --input-type=module (or a default module type)
    // would make it an ES module, which cannot start, and this thread would wait 120 s for it.
    const execArgv = process.execArgv.filter((flag) => !/^--(input-type|experimental-default-type)\b/.test(flag));
    worker = new Worker(WORKER, { eval: true, workerData, execArgv });
    worker.unref();
    worker.on("error", () => (worker = undefined));
  }
  return worker;
}

/** Each job's text formatted by prettier (throws with prettier's message, e.g. a syntax error). */
export function formatAll(jobs: readonly FormatJob[]): string[] {
  if (jobs.length === 0) return [];
  const worker = startFormatter();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ jobs, options: PRETTIER_OPTIONS, flag, port: port2 }, [port2]);
  try {
    if (Atomics.wait(flag, 0, 0, 120_000) === "timed-out") throw new Error("prettier did not answer within 120 s");
    const message = receiveMessageOnPort(port1)?.message as { results?: string[]; error?: string; cache?: Record<string, string> } | undefined;
    if (!message?.results) throw new Error(`prettier failed: ${message?.error ?? "no answer"}`);
    lastCacheStates = message.cache ?? {};
    return message.results;
  } finally {
    port1.close();
  }
}
