// The commands, each loaded only when it runs: a cold `envelope --version` or `validate` must
// not pay for the HTTP server (Fastify), the GitHub client (Octokit) or the export templates.
// Module loading was a sixth of a cold export's CPU when main.ts imported them all (issue 18).
import { setFlagsFromString } from "node:v8";
import type { runExport as RunExport } from "./export-command.js";
import type { runInspect as RunInspect } from "./inspect-command.js";
import type { runPublish as RunPublish } from "./publish-command.js";
import type { runServe as RunServe } from "./serve-command.js";
import type { runValidate as RunValidate } from "./validate-command.js";

/**
 * V8 flags of a one-shot export, set before the formatter is first loaded, and by the bundle
 * loader (bundle.ts) before it compiles the CLI: V8 takes a code cache only under the flags it
 * was made with. An export formats a handful of modules once, so V8's baseline WebAssembly
 * compiler is all ruff's formatter needs: optimizing it on background threads only takes CPU
 * from the export (about 15 ms of a cold export on 2 cores; bench/RESULTS.md). And each
 * function is validated when first compiled rather than all 1.2 MB up front (about 3 ms): an
 * export calls a fraction of it. Never for `serve`, whose workers format all day. Here rather
 * than in a module of its own: one more module to load costs `--version` more than its share.
 */
export function baselineWasmOnly(): void {
  setFlagsFromString("--liftoff-only");
  setFlagsFromString("--wasm-lazy-validation");
}

export const runExport: typeof RunExport = async (...args) => {
  baselineWasmOnly();
  return (await import("./export-command.js")).runExport(...args);
};
export const runInspect: typeof RunInspect = async (...args) => (await import("./inspect-command.js")).runInspect(...args);
export const runPublish: typeof RunPublish = async (...args) => (await import("./publish-command.js")).runPublish(...args);
export const runServe: typeof RunServe = async (...args) => (await import("./serve-command.js")).runServe(...args);
export const runValidate: typeof RunValidate = async (...args) => (await import("./validate-command.js")).runValidate(...args);
