// An update of an exported project in place: read what the last export recorded
// (.envelope/), read the project's current files at the paths either export wrote, plan
// (plan.ts) and, unless only asked for the plan, apply it all or nothing (apply.ts).
import { lstat, readFile, realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { FileSet } from "../export/file-set.js";
import { LEDGER_PATH, parseLedger, parsePristine, PRISTINE_PATH, RecordError, type Ledger } from "../export/ledger.js";
import { applyPlan, recoverInterrupted, safeTarget, type ApplyHooks } from "./apply.js";
import { IGNORE_FILE, planUpdate, type Current, type PlanEntry } from "./plan.js";

export interface ProjectRecord {
  ledger: Ledger;
  base: FileSet;
}

/** The last export's record in DIR, undefined when DIR holds none (not a project of ours). */
export async function readRecord(dir: string): Promise<ProjectRecord | undefined> {
  const ledgerText = await readFile(join(dir, LEDGER_PATH), "utf8").catch(() => undefined);
  if (ledgerText === undefined) return undefined;
  const ledger = parseLedger(ledgerText);
  const pristineText = await readFile(join(dir, PRISTINE_PATH), "utf8").catch(() => undefined);
  if (pristineText === undefined) throw new RecordError(`${PRISTINE_PATH} is missing: the base of the merge is gone (restore it from version control, or export afresh with --force)`);
  return { ledger, base: parsePristine(pristineText) };
}

async function readCurrent(root: string, path: string): Promise<Current> {
  // A folder on the way that is a link (or a file) makes the path not the project's to write.
  const full = await safeTarget(root, path).catch(() => undefined);
  if (full === undefined) return "other";
  const st = await lstat(full).catch(() => undefined);
  if (!st) return "missing";
  if (!st.isFile()) return "other";
  return { bytes: await readFile(full), mode: st.mode & 0o111 ? 0o755 : 0o644 };
}

export interface UpdateResult {
  plan: PlanEntry[];
  record: ProjectRecord;
  /** Work folders of killed updates that were rolled back first. */
  recovered: number;
  /** Work folders in the project that no update on this machine made: left alone. */
  left: string[];
}

/** Plans the update of DIR to `next`; writes it too unless `planOnly`. */
export async function updateProject(dir: string, next: FileSet, options: { planOnly?: boolean; hooks?: ApplyHooks } = {}): Promise<UpdateResult> {
  const root = await realpath(resolve(dir));
  const { recovered, left } = options.planOnly ? { recovered: 0, left: [] } : await recoverInterrupted(root);
  const record = await readRecord(root);
  if (!record) throw new RecordError(`${dir} holds no ${LEDGER_PATH}: not a project exported by envelope-export`);
  const paths = new Set([...next.paths(), ...record.base.paths()]);
  const current = new Map<string, Current>();
  for (const path of paths) current.set(path, await readCurrent(root, path));
  const ignore = await readFile(join(root, IGNORE_FILE), "utf8").catch(() => undefined);
  const plan = planUpdate({ next, base: record.base, current: (p) => current.get(p) ?? "missing", ...(ignore !== undefined ? { ignore } : {}) });
  if (!options.planOnly) await applyPlan(root, plan, options.hooks);
  return { plan, record, recovered, left };
}

