// The files beside a thread's checkpoints that the command-line runner keeps: the lock that
// lets one process at a time run or resume a thread, and the decisions file a reviewer fills
// in while its gates wait (the Python targets' decision_files.py: the same JSON, never written
// over a reviewer's work, written whole).
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { taskJson } from "./placeholders.js";
/**
 * What names a temporary file (or a stale lock moved aside) as this write's: the pid, which the
 * scrub asks after, and a random part, as processes of containers sharing a folder all run as
 * pid 1 and would otherwise write through one temporary.
 */
export const tempTag = () => `${process.pid}.${randomBytes(4).toString("hex")}`;
/** The lock paths this process holds: a lock naming our own pid and host is live only if listed here. */
const heldHere = new Set();
/**
 * How long a lock file with no holder in it is left alone. A lock linked into place is never
 * empty, but one created where the file system has no hard links (and an older version's)
 * is created empty and its holder written just after, microseconds apart: a few seconds more
 * is a process that died in between.
 */
const UNWRITTEN_MS = 5_000;
/** link(2)'s answers on a file system without hard links (FAT, exFAT, some FUSE, SMB and overlay mounts). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);
/**
 * `text` at `path` unless something is there (then EEXIST, as O_EXCL): `temporary` (holding
 * `text`) linked into place, so the file is never seen empty; where the file system has no
 * hard links, `path` created with O_EXCL and `text` written into it.
 */
function placeExclusive(temporary, path, text) {
    try {
        linkSync(temporary, path);
        return;
    }
    catch (error) {
        if (!NO_HARD_LINKS.has(error.code ?? ""))
            throw error;
    }
    const fd = openSync(path, "wx", 0o600);
    try {
        writeFileSync(fd, text);
    }
    catch (error) {
        // Not left empty for others to wait on: closed first (Windows and FAT refuse to remove an
        // open file, EBUSY or EPERM), and a failing removal leaves the write's error to report (the
        // empty file is then taken over after UNWRITTEN_MS).
        closeSync(fd);
        try {
            unlinkSync(path);
        }
        catch {
            // left empty
        }
        throw error;
    }
    closeSync(fd);
}
/**
 * One process at a time on a thread: `<dir>/<thread>.lock`, holding the process id and host,
 * written to a temporary file and linked into place (which fails if the path exists, as
 * O_EXCL does), so it is never seen empty (without hard links: created with O_EXCL, then
 * written: placeExclusive). Node has no flock, so a lock whose process is gone
 * (same host; or our own pid when this process does not hold it: a restarted container with
 * the same pid) is stale and taken over; on another host it cannot be told, and stays held.
 */
export class ThreadLock {
    path;
    held = false;
    constructor(path) {
        this.path = path;
    }
    /** Take the lock: null, or who holds it. */
    acquire() {
        mkdirSync(dirname(this.path), { recursive: true });
        const mine = `${process.pid} ${hostname()}\n`;
        for (let attempt = 0; attempt < 3; attempt++) {
            const temporary = `${this.path}.${tempTag()}.tmp`;
            writeFileSync(temporary, mine, { mode: 0o600 });
            try {
                placeExclusive(temporary, this.path, mine);
                this.held = true;
                heldHere.add(this.path);
                return null;
            }
            catch (error) {
                if (error.code !== "EEXIST")
                    throw error;
            }
            finally {
                try {
                    unlinkSync(temporary);
                }
                catch {
                    // Left for scrubLeftovers: what acquire reports is its own error, or the lock it took.
                }
            }
            const seen = this.read();
            if (seen === null)
                continue; // removed meanwhile: try again
            const holder = parse(seen.text);
            if (holder === null) {
                if (Date.now() - seen.mtimeMs < UNWRITTEN_MS)
                    return { who: "a process (its lock is being written)" };
            }
            else if (holder.host !== hostname()) {
                const who = `process ${holder.pid} on ${holder.host}`;
                return { who, ifGone: `if process ${holder.pid} on host ${holder.host} is gone, remove ${this.path} to release it` };
            }
            else if (this.alive(holder.pid)) {
                return { who: `process ${holder.pid} on ${holder.host}` };
            }
            this.breakStale(seen.text);
        }
        return { who: "another process (its lock changed hands while this one looked)" };
    }
    /** Remove the lock (only ours). */
    release() {
        if (!this.held)
            return;
        this.held = false;
        heldHere.delete(this.path);
        try {
            const holder = parse(readFileSync(this.path, "utf8"));
            if (holder?.pid === process.pid && holder.host === hostname())
                unlinkSync(this.path);
        }
        catch {
            // gone already
        }
    }
    /** The lock file's text and age, or null when it is gone. */
    read() {
        try {
            return { text: readFileSync(this.path, "utf8"), mtimeMs: statSync(this.path).mtimeMs };
        }
        catch {
            return null;
        }
    }
    /** Whether a process on this host still runs; our own pid only while this process holds the lock. */
    alive(pid) {
        if (pid === process.pid)
            return heldHere.has(this.path);
        try {
            process.kill(pid, 0);
            return true;
        }
        catch (error) {
            return error.code === "EPERM";
        }
    }
    /**
     * A stale lock (`text`) moved aside, then removed; if what was moved is not it (taken
     * meanwhile), put back. The file moved aside may vanish under us (another process's
     * scrubLeftovers, or an older version's): then someone else dealt with it, and acquire tries again.
     */
    breakStale(text) {
        const aside = `${this.path}.${tempTag()}.stale`;
        try {
            renameSync(this.path, aside);
        }
        catch {
            return; // someone else moved it: try again
        }
        let moved;
        try {
            moved = readFileSync(aside, "utf8");
        }
        catch {
            return; // removed meanwhile: try again
        }
        if (moved !== text) {
            try {
                placeExclusive(aside, this.path, moved); // fails if a third process took the path: then it holds it
            }
            catch {
                // the path is held by someone else now
            }
        }
        rmSync(aside, { force: true });
    }
}
/**
 * The names of what a write leaves behind when its process is killed before its rename or
 * link: a file's temporary (writeAtomically's, `<name>.json.<pid>.<hex>.tmp` or
 * `.<name>.json.<pid>.<hex>.tmp`), a lock's (`<name>.lock.<pid>.<hex>.tmp`), a stale lock moved
 * aside (`<name>.lock.<pid>.<hex>.stale`); also as earlier versions named them, without `<hex>`.
 */
const LEFTOVER = /^.*\.(?:json\.(\d+)(?:\.[0-9a-f]{8})?\.tmp|lock\.(\d+)\.[0-9a-f]{8}\.tmp|lock\.(\d+)(?:\.[0-9a-f]{8})?\.stale)$/;
/** A leftover whose pid still runs here is removed after this long all the same (the pid reused). */
const LEFTOVER_MS = 3_600_000;
/** Whether a process of this host runs `pid`. */
function running(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === "EPERM";
    }
}
/**
 * Remove the leftovers (LEFTOVER) of killed writes in `dir`: a temporary file can hold a
 * checkpoint's or a document's values, pii too, that `delete --purge-runs` would not find.
 * One is left while a write may still be using it: under UNWRITTEN_MS old (a writer on another
 * host sharing the folder, a worker thread of this process), or its pid is another process's
 * running on this host (for an hour at most: then the pid was reused).
 */
export function scrubLeftovers(dir) {
    let names;
    try {
        names = readdirSync(dir);
    }
    catch {
        return; // no folder yet: nothing left
    }
    for (const name of names) {
        const found = LEFTOVER.exec(name);
        if (!found)
            continue;
        const pid = Number(found[1] ?? found[2] ?? found[3]);
        const path = join(dir, name);
        try {
            // A rename keeps a file's mtime and sets its ctime: a lock just moved aside is as young as its move.
            const stat = statSync(path);
            const age = Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs);
            if (age < UNWRITTEN_MS || (age < LEFTOVER_MS && pid !== process.pid && running(pid)))
                continue;
            unlinkSync(path);
        }
        catch {
            // gone meanwhile (its writer renamed it, or another process scrubbed it)
        }
    }
}
/** The holder a lock file names, or null when it names none (empty, or not ours to read). */
function parse(text) {
    const [pid, host = ""] = text.trim().split(" ");
    return /^\d+$/.test(pid ?? "") && Number(pid) > 0 ? { pid: Number(pid), host } : null;
}
/**
 * Whether a decisions file holds a reviewer's work for the records `waiting` now (undefined:
 * for any record): an action or feedback for one of them, or text that is not a template
 * (half-edited JSON is someone's work too).
 */
export function filled(path, waiting) {
    let data;
    try {
        data = JSON.parse(readFileSync(path, "utf8"));
    }
    catch (error) {
        return error.code !== "ENOENT";
    }
    if (data === null || typeof data !== "object" || Array.isArray(data))
        return true;
    for (const [gate, items] of Object.entries(data)) {
        for (const item of Array.isArray(items) ? items : [null]) {
            if (item === null || typeof item !== "object" || Array.isArray(item))
                return true;
            const given = ["action", "feedback"].some((k) => String(item[k] ?? "").trim() !== "");
            if (given && (waiting === undefined || (waiting[gate] ?? []).includes(String(item.record))))
                return true;
        }
    }
    return false;
}
/** Whether `path` is the decisions file this command read (`given`). */
function readHere(path, given) {
    if (given === undefined)
        return false;
    try {
        const [a, b] = [statSync(path), statSync(given)];
        return a.ino === b.ino && a.dev === b.dev;
    }
    catch {
        return false;
    }
}
/**
 * Write the decisions template for the gates waiting now, `{"<gate>": [{"record", "fields",
 * "action": "", "feedback": ""}]}`, unless `path` holds a reviewer's work for these records
 * that this command did not read (`given`). A file not read here with work on records no
 * longer waiting is moved to `<name>.1` (`.2`, …) first. Returns what it did, for standard error.
 */
export function writeDecisionsTemplate(path, waiting, given) {
    const template = Object.fromEntries(waiting.map((w) => [w.gate ?? "", (w.records ?? []).map((r) => ({ record: r.id, fields: r.fields, action: "", feedback: "" }))]));
    const records = Object.fromEntries(Object.entries(template).map(([gate, rows]) => [gate, rows.map((r) => r.record)]));
    if (!readHere(path, given) && filled(path, records))
        return [`Kept ${path}: it holds filled-in decisions.`];
    const said = [];
    if (!readHere(path, given) && filled(path)) {
        let n = 1;
        while (existsSync(`${path}.${n}`))
            n++;
        renameSync(path, `${path}.${n}`);
        said.push(`Moved ${path} to ${path}.${n}: its decisions are on records no longer waiting.`);
    }
    // As the Python targets write it: json.dumps(template, indent=2, ensure_ascii=False).
    writeAtomically(path, taskJson(template) + "\n");
    return said;
}
/**
 * Through a temporary file beside `path`, then a rename: a reader (or a crash) never sees half a
 * file. The file's bytes reach the disk before the rename, and the rename before we return: on
 * a file system that delays writes (ext4, XFS), a power cut after an unsynced rename can leave
 * an empty file where a checkpoint, a reviewer's decisions or a workspace document was.
 */
export function writeAtomically(path, text, temporary = join(dirname(path), `.${basename(path)}.${tempTag()}.tmp`)) {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(temporary, "w", 0o600);
    try {
        writeFileSync(fd, text);
        fsyncSync(fd);
    }
    finally {
        closeSync(fd);
    }
    renameSync(temporary, path);
    syncFolder(dirname(path));
}
/** The folder's entries to disk (a rename is one); a platform that cannot open a folder (Windows) is skipped. */
function syncFolder(folder) {
    let fd;
    try {
        fd = openSync(folder, "r");
    }
    catch {
        return;
    }
    try {
        fsyncSync(fd);
    }
    catch {
        // Some file systems refuse fsync on a folder (EINVAL): the rename is as durable as they make it.
    }
    finally {
        closeSync(fd);
    }
}
