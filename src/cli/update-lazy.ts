// `export --out`'s view of updating an earlier export, loaded only when there is one: a
// fresh directory needs none of the planning and merging code (node-diff3 and five modules,
// ~15 ms of a cold export, issue 18).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_PATH } from "../export/ledger.js";
import type * as Apply from "../update/apply.js";
import type * as Update from "../update/update.js";

let apply: typeof Apply | undefined;
const load = async () => {
  const [update, applied] = await Promise.all([import("../update/update.js"), import("../update/apply.js")]);
  apply = applied;
  return update;
};

/** As update.ts's readRecord; without a ledger there is no record, and nothing to load. */
export const readRecord: typeof Update.readRecord = async (dir) => (existsSync(join(dir, LEDGER_PATH)) ? (await load()).readRecord(dir) : undefined);

export const updateProject: typeof Update.updateProject = async (...args) => (await load()).updateProject(...args);

/** `e instanceof InterruptedError` / `RollbackError` as with apply.ts's classes: only updateProject() throws them, and it loads the module. */
export const InterruptedError = {
  [Symbol.hasInstance]: (value: unknown): boolean => apply !== undefined && value instanceof apply.InterruptedError,
};
export const RollbackError = {
  [Symbol.hasInstance]: (value: unknown): boolean => apply !== undefined && value instanceof apply.RollbackError,
};
