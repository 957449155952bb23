// A checkpointer whose threads survive a restart without a database: LangGraph's MemorySaver,
// written to one JSON file after every change (atomically: a sibling file renamed into place)
// and read back when opened. For the command-line runner; the Agent Server brings its own.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
const b64 = (bytes) => Buffer.from(bytes).toString("base64");
const bytes = (text) => new Uint8Array(Buffer.from(text, "base64"));
export class FileSaver extends MemorySaver {
    path;
    constructor(path) {
        super();
        this.path = path;
        let text;
        try {
            text = readFileSync(path, "utf8");
        }
        catch {
            text = undefined;
        }
        if (text !== undefined)
            this.load(JSON.parse(text));
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
    save() {
        const stored = { storage: {}, writes: {} };
        for (const [thread, namespaces] of Object.entries(this.storage)) {
            stored.storage[thread] = {};
            for (const [ns, checkpoints] of Object.entries(namespaces)) {
                stored.storage[thread][ns] = Object.fromEntries(Object.entries(checkpoints).map(([id, [c, m, parent]]) => [id, [b64(c), b64(m), parent ?? null]]));
            }
        }
        for (const [key, writes] of Object.entries(this.writes)) {
            stored.writes[key] = Object.fromEntries(Object.entries(writes).map(([k, [task, channel, value, path]]) => [k, [task, channel, b64(value), path ?? null]]));
        }
        mkdirSync(dirname(this.path), { recursive: true });
        const temp = `${this.path}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
        renameSync(temp, this.path);
    }
    async put(config, checkpoint, metadata) {
        const out = await super.put(config, checkpoint, metadata);
        this.save();
        return out;
    }
    async putWrites(config, writes, taskId, taskPath) {
        await super.putWrites(config, writes, taskId, taskPath);
        this.save();
    }
    async deleteThread(threadId) {
        await super.deleteThread(threadId);
        this.save();
    }
}
