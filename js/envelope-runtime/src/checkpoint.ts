// A checkpointer whose threads survive a restart without a database: LangGraph's MemorySaver,
// each thread written to its own JSON file in a folder after every change (atomically: a
// sibling file renamed into place) and read back when opened. One file per thread, so runs of
// two processes on different threads never overwrite each other's (one shared file lost the
// thread whose process wrote first). A thread's file also keeps the time its runs have worked,
// so timeout.runMs bounds a run across its resumes (the command-line runner counts it; a
// process that dies mid-run has its time up to its last checkpoint counted). For the
// command-line runner; the Agent Server brings its own.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";
import { scrubLeftovers, tempTag, writeAtomically } from "./thread-files.js";

type PendingWrite = Parameters<MemorySaver["putWrites"]>[1][number];

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const bytes = (text: string) => new Uint8Array(Buffer.from(text, "base64"));
/** A thread's id encoded so that any id is one plain file name (its checkpoints, lock, decisions). */
export const threadFileName = (thread: string) => encodeURIComponent(thread).replace(/\./g, "%2E");
const fileOf = (thread: string) => `${threadFileName(thread)}.json`;
/** The thread of a MemorySaver writes key (JSON of [thread, namespace, checkpoint]). */
const threadOfKey = (key: string) => (JSON.parse(key) as [string, string, string])[0];
const threadOf = (config: RunnableConfig) => String(config.configurable?.thread_id ?? "");

/** Each thread's worked time (ms, for timeout.runMs across resumes): what a saver kept, and the work this process counts now. */
export class WorkTime {
  /** Each thread's worked time before the work counted now. */
  readonly kept: Record<string, number> = {};
  /** The thread being worked on in this process, since when (`clock` ms). */
  private working: { thread: string; since: number; clock: () => number } | null = null;

  /** The time `thread`'s runs have worked (the work counted now included). */
  of(thread: string): number {
    const now = this.working?.thread === thread ? this.working.clock() - this.working.since : 0;
    return (this.kept[thread] ?? 0) + Math.max(0, now);
  }

  /** Count the time from now (`clock`, ms) as `thread`'s work, until stop; `fresh`: a new run, its earlier runs' time dropped. */
  start(thread: string, clock: () => number, fresh = false): void {
    if (fresh) this.kept[thread] = 0;
    this.working = { thread, since: clock(), clock };
  }

  /** Stop counting: the thread's worked time, at least `atLeast` ms. */
  stop(thread: string, atLeast = 0): number {
    const total = Math.round(Math.max(this.of(thread), atLeast));
    this.working = null;
    this.kept[thread] = total;
    return total;
  }
}

export class FileSaver extends MemorySaver {
  private readonly time = new WorkTime();

  /** `dir`: the folder of the threads' files (created on the first write). */
  constructor(readonly dir: string) {
    super();
    // A write killed before its rename left its temporary file: it may hold a thread's values.
    scrubLeftovers(dir);
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".json"));
    } catch {
      names = [];
    }
    for (const name of names.sort()) this.load(JSON.parse(readFileSync(join(dir, name), "utf8")) as Stored);
  }

  private load(stored: Stored): void {
    if (typeof stored.thread === "string") this.time.kept[stored.thread] = Number(stored.worked_ms) || 0;
    for (const [thread, namespaces] of Object.entries(stored.storage)) {
      this.storage[thread] = {};
      for (const [ns, checkpoints] of Object.entries(namespaces)) {
        this.storage[thread]![ns] = Object.fromEntries(Object.entries(checkpoints).map(([id, [c, m, parent]]) => [id, [bytes(c), bytes(m), parent ?? undefined]]));
      }
    }
    for (const [key, writes] of Object.entries(stored.writes)) {
      this.writes[key] = Object.fromEntries(Object.entries(writes).map(([k, [task, channel, value, path]]) => [k, path === undefined || path === null ? [task, channel, bytes(value)] : [task, channel, bytes(value), path]]));
    }
  }

  private save(thread: string): void {
    const stored: Stored = { thread, worked_ms: this.workedMs(thread), storage: {}, writes: {} };
    const namespaces = this.storage[thread];
    if (namespaces) {
      stored.storage[thread] = {};
      for (const [ns, checkpoints] of Object.entries(namespaces)) {
        stored.storage[thread]![ns] = Object.fromEntries(Object.entries(checkpoints).map(([id, [c, m, parent]]) => [id, [b64(c), b64(m), parent ?? null]]));
      }
    }
    for (const [key, writes] of Object.entries(this.writes)) {
      if (threadOfKey(key) !== thread) continue;
      stored.writes[key] = Object.fromEntries(Object.entries(writes).map(([k, [task, channel, value, path]]) => [k, [task, channel, b64(value), path ?? null]]));
    }
    const path = join(this.dir, fileOf(thread));
    writeAtomically(path, JSON.stringify(stored), `${path}.${tempTag()}.tmp`);
  }

  /** The time `thread`'s runs have worked, in ms (the work counted now included). */
  workedMs(thread: string): number {
    return this.time.of(thread);
  }

  /** Count the time from now (`clock`, ms) as `thread`'s work, until stopWork; `fresh`: a new run, its earlier runs' time dropped. */
  startWork(thread: string, clock: () => number, fresh = false): void {
    this.time.start(thread, clock, fresh);
  }

  /** Stop counting: the thread's worked time, at least `atLeast` ms, kept in its file (if it has one). */
  stopWork(thread: string, atLeast = 0): number {
    const total = this.time.stop(thread, atLeast);
    if (this.storage[thread]) this.save(thread);
    return total;
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    const out = await super.put(config, checkpoint, metadata);
    this.save(threadOf(config));
    return out;
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    await super.putWrites(config, writes, taskId, taskPath);
    this.save(threadOf(config));
  }

  override async deleteThread(threadId: string): Promise<void> {
    await super.deleteThread(threadId);
    rmSync(join(this.dir, fileOf(threadId)), { force: true });
  }
}

interface Stored {
  /** Written since worked time is kept (older files have neither: no time counted). */
  thread?: string;
  worked_ms?: number;
  storage: Record<string, Record<string, Record<string, [string, string, string | null]>>>;
  writes: Record<string, Record<string, [string, string, string, string | null]>>;
}
