// The commands, each loaded only when it runs: a cold `envelope --version` or `validate` must
// not pay for the HTTP server (Fastify), the GitHub client (Octokit) or the export templates.
// Module loading was a sixth of a cold export's CPU when main.ts imported them all (issue 18).
import type { runExport as RunExport } from "./export-command.js";
import type { runInspect as RunInspect } from "./inspect-command.js";
import type { runPublish as RunPublish } from "./publish-command.js";
import type { runServe as RunServe } from "./serve-command.js";
import type { runValidate as RunValidate } from "./validate-command.js";
import { baselineWasmOnly } from "./wasm-flags.js";

// Set before the formatter is first loaded (see wasm-flags.ts).
export const runExport: typeof RunExport = async (...args) => {
  baselineWasmOnly();
  return (await import("./export-command.js")).runExport(...args);
};
export const runInspect: typeof RunInspect = async (...args) => (await import("./inspect-command.js")).runInspect(...args);
export const runPublish: typeof RunPublish = async (...args) => (await import("./publish-command.js")).runPublish(...args);
export const runServe: typeof RunServe = async (...args) => (await import("./serve-command.js")).runServe(...args);
export const runValidate: typeof RunValidate = async (...args) => (await import("./validate-command.js")).runValidate(...args);
