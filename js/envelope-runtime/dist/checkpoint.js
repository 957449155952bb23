// A checkpointer whose threads survive a restart without a database: LangGraph's MemorySaver,
// each thread written to its own JSON file in a folder after every change (atomically: a
// sibling file renamed into place) and read back when opened. One file per thread, so runs of
// two processes on different threads never overwrite each other's (one shared file lost the
// thread whose process wrote first). For the command-line runner; the Agent Server brings its own.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
const b64 = (bytes) => Buffer.from(bytes).toString("base64");
const bytes = (text) => new Uint8Array(Buffer.from(text, "base64"));
/** A thread's file name: its id, encoded so that any id is one plain file name. */
const fileOf = (thread) => `${encodeURIComponent(thread).replace(/\./g, "%2E")}.json`;
/** The thread of a MemorySaver writes key (JSON of [thread, namespace, checkpoint]). */
const threadOfKey = (key) => JSON.parse(key)[0];
const threadOf = (config) => String(config.configurable?.thread_id ?? "");
export class FileSaver extends MemorySaver {
    dir;
    /** `dir`: the folder of the threads' files (created on the first write). */
    constructor(dir) {
        super();
        this.dir = dir;
        let names = [];
        try {
            names = readdirSync(dir).filter((n) => n.endsWith(".json"));
        }
        catch {
            names = [];
        }
        for (const name of names.sort())
            this.load(JSON.parse(readFileSync(join(dir, name), "utf8")));
    }
    load(stored) {
        for (const [thread, namespaces] of Object.entries(stored.storage)) {
            this.storage[thread] = {};
            for (const [ns, checkpoints] of Object.entries(namespaces)) {
                this.storage[thread][ns] = Object.fromEntries(Object.entries(checkpoints).map(([id, [c, m, parent]]) => [id, [bytes(c), bytes(m), parent ?? undefined]]));
            }
        }
        for (const [key, writes] of Object.entries(stored.writes)) {
            this.writes[key] = Object.fromEntries(Object.entries(writes).map(([k, [task, channel, value, path]]) => [k, path === undefined || path === null ? [task, channel, bytes(value)] : [task, channel, bytes(value), path]]));
        }
    }
    save(thread) {
        const stored = { storage: {}, writes: {} };
        const namespaces = this.storage[thread];
        if (namespaces) {
            stored.storage[thread] = {};
            for (const [ns, checkpoints] of Object.entries(namespaces)) {
                stored.storage[thread][ns] = Object.fromEntries(Object.entries(checkpoints).map(([id, [c, m, parent]]) => [id, [b64(c), b64(m), parent ?? null]]));
            }
        }
        for (const [key, writes] of Object.entries(this.writes)) {
            if (threadOfKey(key) !== thread)
                continue;
            stored.writes[key] = Object.fromEntries(Object.entries(writes).map(([k, [task, channel, value, path]]) => [k, [task, channel, b64(value), path ?? null]]));
        }
        mkdirSync(this.dir, { recursive: true });
        const path = join(this.dir, fileOf(thread));
        const temp = `${path}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
        renameSync(temp, path);
    }
    async put(config, checkpoint, metadata) {
        const out = await super.put(config, checkpoint, metadata);
        this.save(threadOf(config));
        return out;
    }
    async putWrites(config, writes, taskId, taskPath) {
        await super.putWrites(config, writes, taskId, taskPath);
        this.save(threadOf(config));
    }
    async deleteThread(threadId) {
        await super.deleteThread(threadId);
        rmSync(join(this.dir, fileOf(threadId)), { force: true });
    }
}
