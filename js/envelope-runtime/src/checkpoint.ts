// A checkpointer whose threads survive a restart without a database: LangGraph's MemorySaver,
// each thread written to its own JSON file in a folder after every change (atomically: a
// sibling file renamed into place) and read back when opened. One file per thread, so runs of
// two processes on different threads never overwrite each other's (one shared file lost the
// thread whose process wrote first). For the command-line runner; the Agent Server brings its own.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";

type PendingWrite = Parameters<MemorySaver["putWrites"]>[1][number];

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const bytes = (text: string) => new Uint8Array(Buffer.from(text, "base64"));
/** A thread's file name: its id, encoded so that any id is one plain file name. */
const fileOf = (thread: string) => `${encodeURIComponent(thread).replace(/\./g, "%2E")}.json`;
/** The thread of a MemorySaver writes key (JSON of [thread, namespace, checkpoint]). */
const threadOfKey = (key: string) => (JSON.parse(key) as [string, string, string])[0];
const threadOf = (config: RunnableConfig) => String(config.configurable?.thread_id ?? "");

export class FileSaver extends MemorySaver {
  /** `dir`: the folder of the threads' files (created on the first write). */
  constructor(readonly dir: string) {
    super();
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".json"));
    } catch {
      names = [];
    }
    for (const name of names.sort()) this.load(JSON.parse(readFileSync(join(dir, name), "utf8")) as Stored);
  }

  private load(stored: Stored): void {
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
    const stored: Stored = { storage: {}, writes: {} };
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
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, fileOf(thread));
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
    renameSync(temp, path);
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
  storage: Record<string, Record<string, Record<string, [string, string, string | null]>>>;
  writes: Record<string, Record<string, [string, string, string, string | null]>>;
}
