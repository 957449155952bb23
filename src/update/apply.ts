// Applies an update plan to a project directory all or nothing. Every new content is first
// written into a work folder inside the project (same file system, so renames are atomic);
// then each file is swapped in by rename, the old one moved aside. Any failure rolls the
// swaps back in reverse order; SIGINT/SIGTERM during the swaps are held until the project is
// whole again (updated or rolled back). A work folder left by a process killed outright
// (SIGKILL, power loss) is rolled back by the next update before it plans anything.
//
// What the project holds is not trusted: a folder on the way to a file that is a symbolic
// link is never written through, and a work folder is rolled back only when this user's
// state directory says an update here made it (a cloned repository can hold a planted one).
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, rmdir, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
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

/** Rolling back failed too: the project is partly updated, and the originals are kept in the work folder. */
export class RollbackError extends Error {}

/** Test seam: called before each swap, so a test can fail the update at any point. */
export interface ApplyHooks {
  beforeSwap?: (index: number, path: string) => void;
}

/** Where a running update records its work folder, outside the project (ENVELOPE_STATE_DIR, else XDG's state home). */
export function stateDir(): string {
  if (process.env.ENVELOPE_STATE_DIR) return process.env.ENVELOPE_STATE_DIR;
  return join(process.env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "envelope-export");
}

const markerOf = (work: string) => join(stateDir(), "updates", `${basename(work)}.json`);
const exists = async (p: string) => (await lstat(p).catch(() => undefined)) !== undefined;

/**
 * The absolute path of `path` in the project, refusing one that leaves it by name or through
 * a folder that is a symbolic link (or not a folder): nothing is written or moved through one.
 */
export async function safeTarget(root: string, path: string): Promise<string> {
  const full = resolve(root, checkRelativePath(path));
  if (!full.startsWith(root + sep)) throw new Error(`refusing to write outside the project: ${path}`);
  let dir = root;
  for (const part of relative(root, dirname(full)).split(sep).filter(Boolean)) {
    dir = join(dir, part);
    const st = await lstat(dir).catch(() => undefined);
    if (!st) break; // made by the update, under folders already checked
    if (!st.isDirectory()) throw new Error(`refusing to write through ${relative(root, dir)}: it is ${st.isSymbolicLink() ? "a symbolic link" : "not a folder"}`);
  }
  return full;
}

/** The work folder's own paths (not in the project: no link can be on the way). */
function under(base: string, path: string): string {
  return join(base, checkRelativePath(path));
}

/** A new file's mode: an existing file keeps its permission bits (a 0600 file stays private); the export decides only the exec bits. */
async function modeFor(target: string, mode: number): Promise<number> {
  const st = await lstat(target).catch(() => undefined);
  if (!st?.isFile()) return mode;
  const keep = st.mode & 0o777 & ~0o111;
  return mode & 0o111 ? keep | ((keep & 0o444) >> 2) : keep;
}

export async function applyPlan(dir: string, plan: readonly PlanEntry[], hooks: ApplyHooks = {}): Promise<void> {
  const root = await realpath(resolve(dir));
  const steps: Step[] = plan
    .filter((e) => e.write !== undefined || e.action === "remove")
    .map((e) => ({ path: e.path, write: e.write !== undefined, replaces: e.action !== "create" }));
  if (!steps.length) return;
  const work = join(root, `${WORK_PREFIX}${randomBytes(6).toString("hex")}`);
  await mkdir(dirname(markerOf(work)), { recursive: true });
  await writeFile(markerOf(work), JSON.stringify({ root }), { mode: 0o600 });
  await mkdir(work, { mode: 0o700 });
  let interrupted = false;
  const hold = () => {
    interrupted = true;
  };
  let keepWork = false;
  try {
    for (const e of plan) {
      if (!e.write) continue;
      const staged = under(join(work, "new"), e.path);
      await mkdir(dirname(staged), { recursive: true });
      await writeFile(staged, e.write.bytes, { mode: await modeFor(await safeTarget(root, e.path), e.write.mode), flag: "wx" });
    }
    await writeFile(join(work, JOURNAL), JSON.stringify({ steps }));
    process.on("SIGINT", hold);
    process.on("SIGTERM", hold);
    const done: Array<Step & { createdDirs: string[] }> = [];
    try {
      for (const [i, step] of steps.entries()) {
        hooks.beforeSwap?.(i, step.path);
        // Held until here: between two swaps the project can still be put back whole.
        if (interrupted) throw new InterruptedError("interrupted");
        const target = await safeTarget(root, step.path);
        const record = { ...step, createdDirs: [] as string[] };
        if (step.replaces && (await exists(target))) {
          const aside = under(join(work, "old"), step.path);
          await mkdir(dirname(aside), { recursive: true });
          await rename(target, aside);
        } else record.replaces = false;
        done.push(record);
        if (step.write) {
          record.createdDirs = await makeParents(root, dirname(target));
          await rename(under(join(work, "new"), step.path), target);
        }
      }
    } catch (e) {
      const failed: string[] = [];
      for (const step of done.reverse()) {
        // Every step is tried, whatever the one before did: each put back is one original saved.
        await undo(root, work, step).catch((u: unknown) => failed.push(`${step.path} (${(u as Error).message})`));
      }
      if (failed.length) {
        keepWork = true;
        throw new RollbackError(`the update failed (${(e as Error).message}) and so did putting back ${failed.join(", ")}; the originals are in ${relative(root, work)}/old/`);
      }
      throw e;
    } finally {
      process.off("SIGINT", hold);
      process.off("SIGTERM", hold);
    }
    // Every swap is done: the update stands (an interruption now only cuts the tidying short).
    for (const step of steps) if (!step.write) await removeEmptyParents(root, dirname(await safeTarget(root, step.path)));
  } finally {
    if (!keepWork) await discard(work);
  }
}

/** The journal goes first: a work folder without one is only deleted by a later recovery, never replayed. */
async function discard(work: string): Promise<void> {
  await unlink(join(work, JOURNAL)).catch(() => {});
  await rm(work, { recursive: true, force: true });
  await unlink(markerOf(work)).catch(() => {});
}

async function undo(root: string, work: string, step: Step & { createdDirs: string[] }): Promise<void> {
  const target = await safeTarget(root, step.path);
  if (step.write && (await exists(target)) && !(await exists(under(join(work, "new"), step.path)))) await rm(target);
  if (step.replaces) await rename(under(join(work, "old"), step.path), target);
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

export interface Recovery {
  /** Work folders of killed updates that were rolled back. */
  recovered: number;
  /** Work folders left as they are: no update on this machine made them (or rolling back failed). */
  left: string[];
}

/**
 * Rolls back an update whose process was killed during its swaps, from its work folder:
 * a file in old/ was moved aside (put it back, after removing what replaced it); a file
 * missing from new/ was moved in (remove it). Only work folders this user's state directory
 * records for this project are touched.
 */
export async function recoverInterrupted(dir: string): Promise<Recovery> {
  const root = await realpath(resolve(dir));
  const works = (await readdir(root).catch(() => [] as string[])).filter((n) => n.startsWith(WORK_PREFIX));
  const out: Recovery = { recovered: 0, left: [] };
  for (const name of works) {
    const work = join(root, name);
    const marker = await readFile(markerOf(work), "utf8").catch(() => undefined);
    if (!marker || (JSON.parse(marker) as { root?: string }).root !== root || (await lstat(work)).isSymbolicLink()) {
      out.left.push(name);
      continue;
    }
    try {
      const journal = await readFile(join(work, JOURNAL), "utf8").catch(() => undefined);
      if (journal) {
        const { steps } = JSON.parse(journal) as { steps: Step[] };
        for (const step of [...steps].reverse()) {
          const target = await safeTarget(root, step.path);
          const placed = step.write && !(await exists(under(join(work, "new"), step.path)));
          const aside = under(join(work, "old"), step.path);
          if (placed) await rm(target, { force: true });
          if (await exists(aside)) await rename(aside, target);
          // The folders a created file needed (a folder that was empty before the update is lost with them).
          else if (placed) await removeEmptyParents(root, dirname(target));
        }
      }
      await discard(work);
      out.recovered++;
    } catch {
      out.left.push(name);
    }
  }
  return out;
}
