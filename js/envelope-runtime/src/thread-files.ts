// The files beside a thread's checkpoints that the command-line runner keeps: the lock that
// lets one process at a time run or resume a thread, and the decisions file a reviewer fills
// in while its gates wait (the Python targets' decision_files.py: the same JSON, never written
// over a reviewer's work, written whole).
import { existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, closeSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { taskJson } from "./placeholders.js";

/**
 * One process at a time on a thread: `<dir>/<thread>.lock`, created exclusively (O_EXCL),
 * holding the process id. Node has no flock, so a lock whose process is gone (same host) is
 * stale and taken over; on another host it cannot be told, and stays held.
 */
export class ThreadLock {
  private held = false;
  constructor(readonly path: string) {}

  /** Take the lock: null, or who holds it (`process 123 on host`). */
  acquire(): string | null {
    mkdirSync(dirname(this.path), { recursive: true });
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(this.path, "wx", 0o600);
        writeFileSync(fd, `${process.pid} ${hostname()}\n`);
        closeSync(fd);
        this.held = true;
        return null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = this.holder();
      if (holder === null || alive(holder)) return holder ? `process ${holder.pid} on ${holder.host}` : "a process (its lock is being written)";
      this.breakStale(holder);
    }
    return "another process (its lock changed hands while this one looked)";
  }

  /** Remove the lock (only ours). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      if (this.holder()?.pid === process.pid) unlinkSync(this.path);
    } catch {
      // gone already
    }
  }

  private holder(): { pid: number; host: string } | null {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return { pid: 0, host: "" }; // removed meanwhile: stale, try again
    }
    const [pid, host = ""] = text.trim().split(" ");
    return /^\d+$/.test(pid ?? "") ? { pid: Number(pid), host } : null;
  }

  /** A stale lock moved aside, then removed; if what was moved turns out live (taken meanwhile), put back. */
  private breakStale(stale: { pid: number; host: string }): void {
    const aside = `${this.path}.${process.pid}.stale`;
    try {
      renameSync(this.path, aside);
    } catch {
      return; // someone else moved it: try again
    }
    const moved = readFileSync(aside, "utf8").trim();
    if (moved !== `${stale.pid} ${stale.host}`) {
      try {
        linkSync(aside, this.path); // fails if a third process took the path: then it holds it
      } catch {
        // the path is held by someone else now
      }
    }
    unlinkSync(aside);
  }
}

/** Whether the holder's process still runs (a holder on another host is taken as running). */
function alive(holder: { pid: number; host: string }): boolean {
  if (holder.pid === 0) return false;
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** gate -> record ids waiting now. */
export type WaitingRecords = Readonly<Record<string, readonly string[]>>;

/**
 * Whether a decisions file holds a reviewer's work for the records `waiting` now (undefined:
 * for any record): an action or feedback for one of them, or text that is not a template
 * (half-edited JSON is someone's work too).
 */
export function filled(path: string, waiting?: WaitingRecords): boolean {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return true;
  for (const [gate, items] of Object.entries(data)) {
    for (const item of Array.isArray(items) ? items : [null]) {
      if (item === null || typeof item !== "object" || Array.isArray(item)) return true;
      const given = ["action", "feedback"].some((k) => String((item as Record<string, unknown>)[k] ?? "").trim() !== "");
      if (given && (waiting === undefined || (waiting[gate] ?? []).includes(String((item as Record<string, unknown>).record)))) return true;
    }
  }
  return false;
}

/** Whether `path` is the decisions file this command read (`given`). */
function readHere(path: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  try {
    const [a, b] = [statSync(path), statSync(given)];
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/** A gate's interrupt value, as far as the template needs it. */
export interface WaitingGate {
  gate?: string;
  records?: ReadonlyArray<{ id: string; fields: Record<string, unknown> }>;
}

/**
 * Write the decisions template for the gates waiting now, `{"<gate>": [{"record", "fields",
 * "action": "", "feedback": ""}]}`, unless `path` holds a reviewer's work for these records
 * that this command did not read (`given`). A file not read here with work on records no
 * longer waiting is moved to `<name>.1` (`.2`, …) first. Returns what it did, for standard error.
 */
export function writeDecisionsTemplate(path: string, waiting: readonly WaitingGate[], given: string | undefined): string[] {
  const template = Object.fromEntries(waiting.map((w) => [w.gate ?? "", (w.records ?? []).map((r) => ({ record: r.id, fields: r.fields, action: "", feedback: "" }))]));
  const records = Object.fromEntries(Object.entries(template).map(([gate, rows]) => [gate, rows.map((r) => r.record)]));
  if (!readHere(path, given) && filled(path, records)) return [`Kept ${path}: it holds filled-in decisions.`];
  const said: string[] = [];
  if (!readHere(path, given) && filled(path)) {
    let n = 1;
    while (existsSync(`${path}.${n}`)) n++;
    renameSync(path, `${path}.${n}`);
    said.push(`Moved ${path} to ${path}.${n}: its decisions are on records no longer waiting.`);
  }
  // As the Python targets write it: json.dumps(template, indent=2, ensure_ascii=False).
  writeAtomically(path, taskJson(template) + "\n");
  return said;
}

/** Through a temporary file beside `path`, then a rename: a reader (or a crash) never sees half a file. */
export function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}
