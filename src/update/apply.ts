// Applies an update plan to a project directory all or nothing. Every new content is first
// written into a work folder inside the project (same file system, so renames are atomic);
// then each file is swapped in by rename, the old one moved aside. Any failure rolls the
// swaps back in reverse order; SIGINT/SIGTERM during the swaps are held until the project is
// whole again (updated or rolled back). A work folder left by a process killed outright
// (SIGKILL, power loss) is rolled back by the next update before it plans anything.
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { checkRelativePath } from "../export/file-set.js";
import type { PlanEntry } from "./plan.js";

const WORK_PREFIX = ".envelope-update-";
const JOURNAL = "journal.json";

interface Step {
  path: string;
  /** The file moves in from new/ (create, update, merge, conflict). */
  write: boolean;
  /** A file was there before (update, merge, conflict, remove): it moves to old/. */
  replaces: boolean;
}

export class InterruptedError extends Error {}

/** Test seam: called before each swap, so a test can fail the update at any point. */
export interface ApplyHooks {
  beforeSwap?: (index: number, path: string) => void;
}

const exists = async (p: string) => (await lstat(p).catch(() => undefined)) !== undefined;

function inside(root: string, path: string): string {
  const full = resolve(root, checkRelativePath(path));
  if (!full.startsWith(root + sep)) throw new Error(`refusing to write outside the project: ${path}`);
  return full;
}

export async function applyPlan(dir: string, plan: readonly PlanEntry[], hooks: ApplyHooks = {}): Promise<void> {
  const root = resolve(dir);
  const steps: Step[] = plan
    .filter((e) => e.write !== undefined || e.action === "remove")
    .map((e) => ({ path: e.path, write: e.write !== undefined, replaces: e.action !== "create" }));
  if (!steps.length) return;
  const work = join(root, `${WORK_PREFIX}${randomBytes(6).toString("hex")}`);
  await mkdir(work, { mode: 0o700 });
  let interrupted = false;
  const hold = () => {
    interrupted = true;
  };
  try {
    for (const e of plan) {
      if (!e.write) continue;
      const staged = inside(join(work, "new"), e.path);
      await mkdir(dirname(staged), { recursive: true });
      await writeFile(staged, e.write.bytes, { mode: e.write.mode, flag: "wx" });
    }
    await writeFile(join(work, JOURNAL), JSON.stringify({ steps }));
    process.on("SIGINT", hold);
    process.on("SIGTERM", hold);
    const done: Array<Step & { createdDirs: string[] }> = [];
    try {
      for (const [i, step] of steps.entries()) {
        hooks.beforeSwap?.(i, step.path);
        if (interrupted) throw new InterruptedError("interrupted");
        const target = inside(root, step.path);
        const record = { ...step, createdDirs: [] as string[] };
        if (step.replaces && (await exists(target))) {
          const aside = inside(join(work, "old"), step.path);
          await mkdir(dirname(aside), { recursive: true });
          await rename(target, aside);
        } else record.replaces = false;
        done.push(record);
        if (step.write) {
          record.createdDirs = await makeParents(root, dirname(target));
          await rename(inside(join(work, "new"), step.path), target);
        }
      }
    } catch (e) {
      for (const step of done.reverse()) await undo(root, work, step);
      throw e;
    } finally {
      process.off("SIGINT", hold);
      process.off("SIGTERM", hold);
    }
    // Folders the update emptied (a removed step's module folder) go too; rmdir keeps any that is not empty.
    for (const step of steps) if (!step.write) await removeEmptyParents(root, dirname(inside(root, step.path)));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (interrupted) throw new InterruptedError("the update finished before the interruption took effect");
}

async function undo(root: string, work: string, step: Step & { createdDirs: string[] }): Promise<void> {
  const target = inside(root, step.path);
  if (step.write && (await exists(target)) && !(await exists(inside(join(work, "new"), step.path)))) await rm(target, { force: true });
  if (step.replaces) await rename(inside(join(work, "old"), step.path), target);
  for (const d of step.createdDirs.reverse()) await rmdir(d).catch(() => {});
}

/** mkdir -p, returning the folders it made (outermost first), so a rollback can remove them. */
async function makeParents(root: string, dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; d !== root && d.startsWith(root + sep) && !(await exists(d)); d = dirname(d)) missing.unshift(d);
  for (const d of missing) await mkdir(d);
  return missing;
}

async function removeEmptyParents(root: string, dir: string): Promise<void> {
  for (let d = dir; d !== root && d.startsWith(root + sep); d = dirname(d)) {
    if ((await readdir(d).catch(() => ["?"])).length) return;
    await rmdir(d).catch(() => {});
  }
}

/**
 * Rolls back an update whose process was killed during its swaps, from its work folder:
 * a file in old/ was moved aside (put it back, after removing what replaced it); a file
 * missing from new/ was moved in (remove it). Returns how many work folders were rolled back.
 */
export async function recoverInterrupted(dir: string): Promise<number> {
  const root = resolve(dir);
  const works = (await readdir(root).catch(() => [] as string[])).filter((n) => n.startsWith(WORK_PREFIX));
  for (const name of works) {
    const work = join(root, name);
    const journal = await readFile(join(work, JOURNAL), "utf8").catch(() => undefined);
    if (journal) {
      const { steps } = JSON.parse(journal) as { steps: Step[] };
      for (const step of [...steps].reverse()) {
        const target = inside(root, step.path);
        const placed = step.write && !(await exists(inside(join(work, "new"), step.path)));
        const aside = inside(join(work, "old"), step.path);
        if (placed) await rm(target, { force: true });
        if (await exists(aside)) await rename(aside, target);
        // The folders a created file needed (a folder that was empty before the update is lost with them).
        else if (placed) await removeEmptyParents(root, dirname(target));
      }
    }
    await rm(work, { recursive: true, force: true });
  }
  return works.length;
}
